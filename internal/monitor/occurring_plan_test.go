package monitor

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The occurring alarms of the listed stations are read as index ranges of
// alarms_station_status (station and status), one per station: never every occurring
// alarm, never a scan; the summary's flags from the index alone on SQLite.
func TestOccurringAlarmsReadIndexRanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ph, args := idArgs(seedAlarms(t, db))
		for _, q := range []struct{ name, sql, sqlite string }{
			{"the latest occurring alarms", occurringQuery(ph), "alarms_station_status (station_id=? AND status=?)"},
			// the summary's flags read the index alone
			{"the stations with occurring alarms", occurringFlagsQuery(ph), "COVERING INDEX alarms_station_status (station_id=? AND status=?)"},
		} {
			p := storetest.Explain(t, db, q.sql, args)
			if !strings.Contains(p, "alarms_station_status") || strings.Contains(p, "SCAN alarms") || strings.Contains(p, "Seq Scan") {
				t.Fatalf("%s are not read by alarms_station_status:\n%s", q.name, p)
			}
			if db.Dialect == store.SQLite && !strings.Contains(p, q.sqlite) {
				t.Fatalf("%s: not %s:\n%s", q.name, q.sqlite, p)
			}
		}
	})
}

// seedAlarms stores an organisation of 30 stations with 20 alarms each, every other one
// occurring (a fleet in trouble: reading every occurring alarm would cost the whole
// fleet's), gathers the planner's statistics, and returns three stations' ids.
func seedAlarms(t *testing.T, db *store.DB) []int64 {
	t.Helper()
	ctx := context.Background()
	org, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES ('Plans', 0)")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 30 {
		id, err := db.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, created_at, updated_at) VALUES (?, ?, 'UTC', 0, 0)`, org, "S"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		for j := range 20 {
			status := 1 + j%2
			if _, err := db.Exec(ctx, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, start_at,
				occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, ?, ?, 0, 0, 0)`, org, id, status, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.Exec(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	return ids[:3]
}
