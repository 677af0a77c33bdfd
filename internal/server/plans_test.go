package server_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The dashboard and list calls read index ranges: every query they run is explained
// (EXPLAIN QUERY PLAN on SQLite; EXPLAIN with sequential scans priced out on PostgreSQL,
// so that a usable index is always chosen) and no table is read whole.
func TestDashboardQueriesUseIndexes(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(testing.TB) *store.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(tc.name, func(t *testing.T) {
			db := tc.db(t)
			e := apitest.NewOn(t, db)
			e.Fleet = demo.Fleet()
			if err := demo.SeedFleet(context.Background(), db, e.Accounts, e.Fleet); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC().Truncate(time.Minute)
			e.Simulate(t, now.Add(-2*24*time.Hour), now)
			var stationID, deviceID int64
			if err := db.QueryRow(context.Background(), "SELECT MIN(id) FROM stations WHERE parent_id IS NULL").Scan(&stationID); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(context.Background(), "SELECT MIN(id) FROM devices").Scan(&deviceID); err != nil {
				t.Fatal(err)
			}
			type query struct {
				q    string
				args []any
			}
			var mu sync.Mutex
			seen := map[string]query{}
			urls := []string{"/v2/summary/all", "/v2/summary/powerdata/day", "/v2/summary/powerdata/year", "/v2/summary/topdevices",
				"/v2/summary/projectranking", "/v2/summary/maintenanceranking", "/v2/site/summary", "/v2/site/list?pageSize=20",
				fmt.Sprintf("/v2/site/detail/%d", stationID), "/v2/dev/summary", fmt.Sprintf("/v2/dev/list/%d", stationID),
				"/v2/dev/listbytype?pageSize=20", fmt.Sprintf("/v2/dev/detail/%d", deviceID), "/v2/warn/listbysite?pageSize=20",
				fmt.Sprintf("/v2/site/powertrendbydate/%d", stationID)}
			for _, user := range []string{"admin", "operator"} {
				for _, u := range urls {
					db.Trace = func(q string, args []any) {
						mu.Lock()
						seen[q] = query{q, args}
						mu.Unlock()
					}
					r := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
					db.Trace = nil
					if r.Status != 200 {
						t.Fatalf("%s as %s: %d %s", u, user, r.Status, r.Body)
					}
				}
			}
			var bad []string
			for _, q := range seen {
				plan := storetest.Explain(t, db, q.q, q.args)
				// the alarm list's page is read in index order, not sorted
				if db.Dialect == store.SQLite && strings.Contains(q.q, "ORDER BY a.start_at DESC") && strings.Contains(q.q, "LIMIT") &&
					strings.Contains(plan, "TEMP B-TREE FOR ORDER BY") {
					bad = append(bad, fmt.Sprintf("%s\n  sorts the alarms:\n%s", oneLine(q.q), plan))
				}
				if scan := fullScan(db.Dialect, plan); scan != "" {
					bad = append(bad, fmt.Sprintf("%s\n  reads %s whole:\n%s", oneLine(q.q), scan, plan))
				}
			}
			sort.Strings(bad)
			if len(bad) > 0 {
				t.Fatalf("%d of %d queries read a table whole:\n\n%s", len(bad), len(seen), strings.Join(bad, "\n\n"))
			}
		})
	}
}

func oneLine(q string) string { return strings.Join(strings.Fields(q), " ") }

var (
	sqliteScan = regexp.MustCompile(`(?m)^SCAN (\w+)( USING (COVERING )?INDEX \w+)?$`)
	pgScan     = regexp.MustCompile(`Seq Scan on (\w+)`)
)

// fullScan names a table the plan reads whole ("" when none).
func fullScan(d store.Dialect, plan string) string {
	if d == store.Postgres {
		if m := pgScan.FindStringSubmatch(plan); m != nil {
			return m[1]
		}
		return ""
	}
	if m := sqliteScan.FindStringSubmatch(plan); m != nil {
		return m[0]
	}
	return ""
}
