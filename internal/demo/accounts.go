// Package demo seeds the demo organisation, its accounts and fleet on first start.
package demo

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/money"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Password is the demo accounts' password.
const Password = "helio-demo"

// Accounts are the ids the demo seed created.
type Accounts struct {
	OrgID, HQDeptID, OpsDeptID       int64
	AdminID, OperatorID              int64
	OtherOrgID, OtherDeptID, OtherID int64
}

// SeedAccounts creates the demo organisation (admin, operator) and a second
// organisation (other). It does nothing and returns false when users already exist.
func SeedAccounts(ctx context.Context, db *store.DB) (*Accounts, bool, error) {
	n, err := org.CountUsers(ctx, db)
	if err != nil || n > 0 {
		return nil, false, err
	}
	hash, err := auth.HashPassword(Password)
	if err != nil {
		return nil, false, err
	}
	a := &Accounts{}
	steps := []func() error{
		func() (err error) { a.OrgID, err = org.CreateOrg(ctx, db, "Helio Demo Energy"); return },
		func() error {
			return org.SaveSettings(ctx, db, a.OrgID, org.Settings{Name: "Helio Demo Energy", Timezone: "Asia/Shanghai"})
		},
		func() error { return money.Save(ctx, db, a.OrgID, DemoRates()) },
		// the doors a fleet comes in by, set up as an operator would: Telegraf's Modbus
		// input writing line protocol, OpenDTU publishing its own MQTT topics
		func() error { return ingest.SaveLineRules(ctx, db, a.OrgID, DemoLineRules()) },
		func() error { _, err := ingest.AddPreset(ctx, db, a.OrgID, "opendtu", ""); return err },
		func() (err error) { a.HQDeptID, err = org.CreateDept(ctx, db, a.OrgID, 0, "Headquarters"); return },
		func() (err error) {
			a.OpsDeptID, err = org.CreateDept(ctx, db, a.OrgID, a.HQDeptID, "O&M Team East")
			return
		},
		func() (err error) {
			a.AdminID, err = org.CreateUser(ctx, db, &org.User{OrgID: a.OrgID, DeptID: a.HQDeptID, Username: "admin",
				PasswordHash: hash, Role: "admin", StationAuthority: org.AuthorityAll, Name: "Ada Admin",
				Email: "admin@demo.helio.example", Job: "manager", JobName: "Fleet manager", Location: "CN", LocationName: "Shanghai",
				Country: "China", Area: "Shanghai", Phone: "+86 21 5555 0100"})
			return
		},
		func() (err error) {
			a.OperatorID, err = org.CreateUser(ctx, db, &org.User{OrgID: a.OrgID, DeptID: a.OpsDeptID, Username: "operator",
				PasswordHash: hash, Role: "user", StationAuthority: org.AuthorityAuthorized, Name: "Oscar Operator",
				Email: "operator@demo.helio.example", Job: "operator", JobName: "Station operator", Location: "CN", LocationName: "Hangzhou",
				Country: "China", Area: "Zhejiang", Phone: "+86 571 5555 0106"})
			return
		},
		func() (err error) { a.OtherOrgID, err = org.CreateOrg(ctx, db, "Other Solar Co."); return },
		func() error {
			return org.SaveSettings(ctx, db, a.OtherOrgID, org.Settings{Name: "Other Solar Co.", Timezone: "Europe/Berlin"})
		},
		func() (err error) {
			a.OtherDeptID, err = org.CreateDept(ctx, db, a.OtherOrgID, 0, "Operations")
			return
		},
		func() (err error) {
			a.OtherID, err = org.CreateUser(ctx, db, &org.User{OrgID: a.OtherOrgID, DeptID: a.OtherDeptID, Username: "other",
				PasswordHash: hash, Role: "admin", StationAuthority: org.AuthorityAll, Name: "Olga Other",
				Email: "other@other-solar.example", Job: "manager", JobName: "Owner", Location: "US", LocationName: "Phoenix",
				Country: "United States", Area: "Arizona", Phone: "+1 602 555 0107"})
			return
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, false, fmt.Errorf("demo: unable to seed accounts: %w", err)
		}
	}
	return a, true, nil
}

// SeedFirstAdmin creates the first administrator with a random password on a fresh
// database outside demo mode. It returns the password ("" when users already exist).
func SeedFirstAdmin(ctx context.Context, db *store.DB) (string, error) {
	n, err := org.CountUsers(ctx, db)
	if err != nil || n > 0 {
		return "", err
	}
	pw := auth.RandomPassword()
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return "", err
	}
	orgID, err := org.CreateOrg(ctx, db, "My organisation")
	if err != nil {
		return "", err
	}
	dept, err := org.CreateDept(ctx, db, orgID, 0, "Headquarters")
	if err != nil {
		return "", err
	}
	_, err = org.CreateUser(ctx, db, &org.User{OrgID: orgID, DeptID: dept, Username: "admin", PasswordHash: hash,
		Role: "admin", StationAuthority: org.AuthorityAll, Name: "Administrator"})
	if err != nil {
		return "", err
	}
	return pw, nil
}

// LoadAccounts finds the demo accounts in a database seeded earlier.
func LoadAccounts(ctx context.Context, db *store.DB) (*Accounts, error) {
	a := &Accounts{}
	for _, x := range []struct {
		name              string
		org, dept, userID *int64
	}{
		{"admin", &a.OrgID, &a.HQDeptID, &a.AdminID},
		{"operator", nil, &a.OpsDeptID, &a.OperatorID},
		{"other", &a.OtherOrgID, &a.OtherDeptID, &a.OtherID},
	} {
		u, err := org.UserByUsername(ctx, db, x.name)
		if err != nil {
			return nil, fmt.Errorf("demo: no user %q: %w", x.name, err)
		}
		*x.userID, *x.dept = u.ID, u.DeptID
		if x.org != nil {
			*x.org = u.OrgID
		}
	}
	return a, nil
}

// DemoLineRules are the rules a Telegraf Modbus input needs (docs/ingest.md, "Line
// protocol"): measurement inverter, the serial number in tag sn, watts and watt-hours.
func DemoLineRules() ingest.LineRules {
	return ingest.LineRules{Rules: []ingest.LineRule{
		{Measurement: "inverter", DeviceTag: "sn", Field: "power", Target: "powerKw", Scale: 0.001},
		{Measurement: "inverter", DeviceTag: "sn", Field: "energy", Target: "energyKwh", Scale: 0.001},
		{Measurement: "inverter", DeviceTag: "sn", Field: "state", Target: "status", Scale: 1},
		{Measurement: "inverter", DeviceTag: "sn", Field: "temp", Target: "tempC", Scale: 1},
	}}
}

// DemoRates is the demo organisation's book: totals in CNY, a rate for each currency its
// stations earn in, and one dated change (USD from July 2026) that shows a past month
// keeping its rate.
func DemoRates() *money.Book {
	return &money.Book{Base: "CNY", Rates: []money.Rate{
		{Currency: "AUD", Month: "2024-01", Rate: 4.68},
		{Currency: "EUR", Month: "2024-01", Rate: 7.74},
		{Currency: "JPY", Month: "2024-01", Rate: 0.0478},
		{Currency: "KRW", Month: "2024-01", Rate: 0.00523},
		{Currency: "TWD", Month: "2024-01", Rate: 0.221},
		{Currency: "USD", Month: "2024-01", Rate: 7.12},
		{Currency: "USD", Month: "2026-07", Rate: 7.05},
		{Currency: "ZAR", Month: "2024-01", Rate: 0.387},
	}}
}
