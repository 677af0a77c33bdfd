package demo_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Each demo user sees the stations their authority promises.
func TestDemoOrganisation(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	f := demo.Fleet()
	if err := demo.SeedFleet(ctx, db, acc, f); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedOrganisation(ctx, db, acc, f); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"admin": 9, "manager": 9, "auditor": 9, "operator": 3, "west": 2, "storage": 1, "other": 1}
	for name, n := range want {
		var p httpapi.Principal
		var dept *int64
		err := db.QueryRow(ctx, "SELECT id, org_id, dept_id, role, station_authority FROM users WHERE username = ?", name).
			Scan(&p.UserID, &p.OrgID, &dept, &p.Role, &p.StationAuthority)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if dept != nil {
			p.DeptID = *dept
		}
		cond, args := station.Scope(&p)
		var got int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM stations s WHERE s.parent_id IS NULL AND "+cond, args...).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != n {
			t.Errorf("%s sees %d top-level stations, want %d", name, got, n)
		}
	}
	var disabled int
	_ = db.QueryRow(ctx, "SELECT status FROM users WHERE username = 'former'").Scan(&disabled)
	if disabled != 0 {
		t.Error("former should be disabled")
	}
}
