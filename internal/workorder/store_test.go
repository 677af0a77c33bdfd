package workorder_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/workorder"
)

// The queries and writes on both databases: create, move, list with every filter, totals.
func TestStoreOnBothDatabases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
			t.Fatal(err)
		}
		var sid int64
		if err := db.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE org_id = ?", acc.OrgID).Scan(&sid); err != nil {
			t.Fatal(err)
		}
		admin := &httpapi.Principal{UserID: acc.AdminID, OrgID: acc.OrgID, DeptID: acc.HQDeptID, Role: "admin", StationAuthority: "all"}
		now := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		in := workorder.Input{Title: "Fence 100% done_", StationID: sid, Priority: 3, AssigneeUserID: acc.AdminID,
			CCUserIDs: []int64{acc.OperatorID}, PlannedStart: "2026-05-01T08:00:00Z", PlannedEnd: "2026-05-01T12:00:00Z"}
		id, err := workorder.Create(ctx, db, nil, admin, in, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := workorder.Create(ctx, db, nil, admin, in, now); err != nil {
			t.Fatal("a second order in the same instant:", err)
		}
		o, err := workorder.Get(ctx, db, admin, id, now)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{workorder.ActAccept, workorder.ActStart} {
			if _, err := workorder.Move(ctx, db, nil, admin, &o, a, "", now); err != nil {
				t.Fatal(a, err)
			}
			if o, err = workorder.Get(ctx, db, admin, id, now); err != nil {
				t.Fatal(err)
			}
		}
		later := now.Add(6 * time.Hour)
		for _, c := range []struct {
			f    workorder.Filter
			want int64
		}{
			{workorder.Filter{Timeout: -1}, 2},
			{workorder.Filter{Timeout: 1}, 2},
			{workorder.Filter{Timeout: -1, Status: workorder.Executing, Priority: 3}, 1},
			{workorder.Filter{Timeout: -1, Query: "100%"}, 2},
			{workorder.Filter{Timeout: -1, Query: "done_"}, 2},
			{workorder.Filter{Timeout: -1, Query: "dXne"}, 0},
			{workorder.Filter{Timeout: -1, Query: "FENCE"}, 2},
			{workorder.Filter{Timeout: -1, Mine: workorder.MineStarted}, 2},
			{workorder.Filter{Timeout: -1, Mine: workorder.MineAssigned}, 2},
			{workorder.Filter{Timeout: -1, StationIDs: []int64{}}, 0},
		} {
			_, total, err := workorder.List(ctx, db, admin, c.f, later)
			if err != nil || total != c.want {
				t.Errorf("%+v: %d (%v), want %d", c.f, total, err, c.want)
			}
		}
		sum, err := workorder.Summarise(ctx, db, admin, workorder.Filter{Timeout: -1}, later)
		if err != nil || sum.Total != 2 || sum.TimedOut != 2 || sum.ByStatus[workorder.Executing] != 1 || sum.Open != 2 {
			t.Fatalf("summary %+v %v", sum, err)
		}
	})
}
