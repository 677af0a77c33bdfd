package demo

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
)

// SeedOrganisation gives the demo organisation departments, users in both roles with each
// station authority, grants, a disabled account and a certification waiting for audit, so
// the organisation screens show every option at work:
//
//	Headquarters (all stations: admin, manager, auditor)
//	├── O&M Team East (authorised: stations 1–3; operator)
//	├── Western Region (authorised: stations 4–5; west)
//	└── Storage Team (created by own unit: station 7, which the team created; storage, former — disabled)
//
// It runs once, right after the demo accounts and fleet are first stored.
func SeedOrganisation(ctx context.Context, db *store.DB, acc *Accounts, f sim.Fleet) error {
	hash, err := auth.HashPassword(Password)
	if err != nil {
		return err
	}
	stationID := func(i int) (int64, error) {
		var id int64
		err := db.QueryRow(ctx, "SELECT id FROM stations WHERE sim_key = ?", f.Stations[i].Key).Scan(&id)
		return id, err
	}
	west, err := org.CreateDept(ctx, db, acc.OrgID, acc.HQDeptID, "Western Region")
	if err != nil {
		return fmt.Errorf("demo: organisation: %w", err)
	}
	storage, err := org.CreateDept(ctx, db, acc.OrgID, acc.HQDeptID, "Storage Team")
	if err != nil {
		return fmt.Errorf("demo: organisation: %w", err)
	}
	var grants []int64
	for _, i := range []int{3, 4} {
		id, err := stationID(i)
		if err != nil {
			return fmt.Errorf("demo: organisation: %w", err)
		}
		grants = append(grants, id)
	}
	if err := org.SetGrants(ctx, db, west, grants); err != nil {
		return err
	}
	built, err := stationID(6)
	if err != nil {
		return fmt.Errorf("demo: organisation: %w", err)
	}
	if _, err := db.Exec(ctx, "UPDATE stations SET created_by_dept = ? WHERE id = ? OR parent_id = ?", storage, built, built); err != nil {
		return err
	}
	users := []org.User{
		{DeptID: acc.HQDeptID, Username: "manager", Role: "admin", StationAuthority: org.AuthorityAll, Name: "Mia Manager",
			Email: "manager@demo.helio.example", Phone: "+86 21 5555 0101", JobName: "Operations manager", Country: "China", Area: "Shanghai"},
		{DeptID: acc.HQDeptID, Username: "auditor", Role: "user", StationAuthority: org.AuthorityAll, Name: "Aiko Auditor",
			Email: "auditor@demo.helio.example", Phone: "+86 21 5555 0102", JobName: "Performance analyst", Country: "China", Area: "Shanghai"},
		{DeptID: west, Username: "west", Role: "user", StationAuthority: org.AuthorityAuthorized, Name: "Wen West",
			Email: "west@demo.helio.example", Phone: "+86 991 5555 0103", JobName: "Regional engineer", Country: "China", Area: "Xinjiang"},
		{DeptID: storage, Username: "storage", Role: "user", StationAuthority: org.AuthorityOwn, Name: "Sven Storage",
			Email: "storage@demo.helio.example", Phone: "+86 571 5555 0104", JobName: "Storage engineer", Country: "China", Area: "Zhejiang"},
		{DeptID: storage, Username: "former", Role: "user", StationAuthority: org.AuthorityOwn, Name: "Fei Former",
			Email: "former@demo.helio.example", Phone: "+86 571 5555 0105", JobName: "Technician", Country: "China", Area: "Zhejiang"},
	}
	for i := range users {
		u := &users[i]
		u.OrgID, u.PasswordHash = acc.OrgID, hash
		if _, err := org.CreateUser(ctx, db, u); err != nil {
			return fmt.Errorf("demo: organisation: %w", err)
		}
	}
	if err := org.SetStatus(ctx, db, users[4].ID, 0); err != nil {
		return err
	}
	return org.SubmitCert(ctx, db, acc.OrgID, acc.OperatorID, &org.Certification{AccountType: "enterprise",
		LegalPerson: "Oscar Operator", LegalCertType: "id_card", LegalCertNumber: "310101199001010011",
		EnterpriseName: "East O&M Services Ltd.", EnterpriseCertType: "uscc", OrganizationCode: "91330100MA2B3C4D5E"})
}
