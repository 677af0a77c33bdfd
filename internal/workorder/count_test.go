package workorder

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The kept counts (work_order_counts, kept by triggers) answer every countable filter
// exactly as counting the orders does, after random inserts, moves, re-prioritising,
// re-assignment to another station and deletes, for an admin and a user with granted
// stations, on both databases.
func TestKeptCountsEqualCountingTheOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
			t.Fatal(err)
		}
		var stations []int64
		rows, err := db.Query(ctx, "SELECT id FROM stations WHERE org_id = ? ORDER BY id", acc.OrgID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			stations = append(stations, id)
		}
		rows.Close()
		now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
		rnd := rand.New(rand.NewPCG(7, 11))
		at := func() int64 { return now.Add(time.Duration(rnd.IntN(200)-100) * time.Hour).UnixMilli() }
		var ids []int64
		for i := 0; i < 240; i++ {
			status := 1 + rnd.IntN(5)
			pStart := at()
			pEnd := pStart + int64(1+rnd.IntN(30))*3_600_000
			var aEnd any
			if status == 4 {
				aEnd = pEnd + int64(rnd.IntN(20)-10)*3_600_000
			}
			id, err := db.Insert(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, status, priority, submitter_id,
				planned_start, planned_end, actual_end, created_at, updated_at) VALUES (?, ?, ?, 'T', ?, ?, ?, ?, ?, ?, ?, ?)`,
				acc.OrgID, stations[rnd.IntN(len(stations))], fmt.Sprintf("WO-T-%d", i), status, 1+rnd.IntN(4), acc.AdminID,
				pStart, pEnd, aEnd, pStart, pStart)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for i := 0; i < 300; i++ {
			id := ids[rnd.IntN(len(ids))]
			var err error
			switch rnd.IntN(5) {
			case 0:
				_, err = db.Exec(ctx, "UPDATE work_orders SET status = 4, actual_end = ? WHERE id = ?", at(), id)
			case 1:
				_, err = db.Exec(ctx, "UPDATE work_orders SET status = ?, actual_end = NULL WHERE id = ?", 1+rnd.IntN(3), id)
			case 2:
				_, err = db.Exec(ctx, "UPDATE work_orders SET priority = ? WHERE id = ?", 1+rnd.IntN(4), id)
			case 3:
				_, err = db.Exec(ctx, "UPDATE work_orders SET station_id = ?, planned_end = ? WHERE id = ?",
					stations[rnd.IntN(len(stations))], at(), id)
			case 4:
				_, err = db.Exec(ctx, "DELETE FROM work_orders WHERE id = ?", id)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		admin := &httpapi.Principal{UserID: acc.AdminID, OrgID: acc.OrgID, DeptID: acc.HQDeptID, Role: "admin", StationAuthority: "all"}
		user := &httpapi.Principal{UserID: acc.OperatorID, OrgID: acc.OrgID, DeptID: acc.OpsDeptID, Role: "user", StationAuthority: "granted"}
		checked := 0
		for _, p := range []*httpapi.Principal{admin, user} {
			for _, sids := range [][]int64{nil, stations[:2], {stations[len(stations)-1]}} {
				for status := 0; status <= 5; status++ {
					for priority := 0; priority <= 4; priority += 2 {
						for timeout := -1; timeout <= 1; timeout++ {
							f := Filter{StationIDs: sids, Status: status, Priority: priority, Timeout: timeout}
							tl, err := f.tally(ctx, db, p, now)
							if err != nil {
								t.Fatal(err)
							}
							where, args := f.where(p, now, true).SQL()
							var want int64
							if err := db.QueryRow(ctx, "SELECT COUNT(*)"+countFrom+" WHERE "+where, args...).Scan(&want); err != nil {
								t.Fatal(err)
							}
							if got := tl.count(status, timeout); got != want {
								t.Errorf("%s %+v: kept %d, counted %d", p.Role, f, got, want)
							}
							if status == 0 {
								rowsSum, err := summariseRows(ctx, db, p, f, now)
								if err != nil {
									t.Fatal(err)
								}
								if got := tl.summary(timeout); fmt.Sprint(got) != fmt.Sprint(rowsSum) {
									t.Errorf("%s %+v: summary kept %+v, counted %+v", p.Role, f, got, rowsSum)
								}
							}
							checked++
						}
					}
				}
			}
		}
		var total int64
		if err := db.QueryRow(ctx, "SELECT SUM(n) FROM work_order_counts").Scan(&total); err != nil || total == 0 {
			t.Fatalf("the kept counts are empty (%d, %v): the test would prove nothing", total, err)
		}
		t.Logf("%d filters checked over %d orders", checked, total)
	})
}
