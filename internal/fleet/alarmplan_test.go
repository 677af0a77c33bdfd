package fleet

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The build reads each station's occurring alarms and recent alarms as index ranges of
// that station (alarms_station_status or alarms_station_start): never a scan of the alarms.
func TestAlarmBuildReadsIndexRanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := insert(t, db, "INSERT INTO organizations (name, created_at) VALUES ('Plans', 0)")
		var ids []any
		for i := range 30 {
			id := insert(t, db, `INSERT INTO stations (org_id, name, timezone, created_at, updated_at) VALUES (?, ?, 'UTC', 0, 0)`, org, "S"+strconv.Itoa(i))
			if i < 3 {
				ids = append(ids, id)
			}
			for j := range 20 { // a fleet in trouble: every other alarm occurring
				if _, err := db.Exec(ctx, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, start_at,
					occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, ?, ?, 0, 0, 0)`, org, id, 1+j%2, j); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := db.Exec(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		p := storetest.Explain(t, db, alarmsQuery(placeholders(len(ids))), append(append(append([]any{}, ids...), ids...), int64(10)))
		if !strings.Contains(p, "alarms_station_status") || strings.Contains(p, "SCAN alarms") || strings.Contains(p, "Seq Scan") {
			t.Fatalf("the build scans the alarms:\n%s", p)
		}
	})
}
