package monitor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
)

// "Today's alarms" are each station's alarms since its own local midnight (docs/kpi.md,
// "Periods and clocks"), and the monitor's three views of them agree: the alarms-today
// tile, the project ranking and the last day of the fault trends, whichever zone the
// viewer names. Each station has an alarm ten minutes into its local day and one ten
// minutes before it began.
func TestAlarmsTodayAgree(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	now := time.Now()
	rows, err := e.DB.Query(ctx, `SELECT s.id, s.timezone FROM stations s
		WHERE s.parent_id IS NULL AND s.org_id = (SELECT org_id FROM users WHERE username = 'admin')`)
	if err != nil {
		t.Fatal(err)
	}
	type root struct {
		id int64
		tz string
	}
	var roots []root
	for rows.Next() {
		var r root
		if err := rows.Scan(&r.id, &r.tz); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, r)
	}
	rows.Close()
	if len(roots) < 5 {
		t.Fatalf("%d stations: the fleet spans too few zones to tell", len(roots))
	}
	insert := func(station int64, at time.Time) {
		t.Helper()
		if _, err := e.DB.Exec(ctx, `INSERT INTO alarms (org_id, station_id, device_type, rule_key, alarm_type, level, status, description,
			start_at, occurred_at, last_alarm_at, updated_at) SELECT org_id, id, 'inverter', 'test', 1, 2, 1, 'test', ?, ?, ?, ? FROM stations WHERE id = ?`,
			at.UnixMilli(), at.UnixMilli(), at.UnixMilli(), at.UnixMilli(), station); err != nil {
			t.Fatal(err)
		}
	}
	want := 0
	for _, r := range roots {
		loc, err := time.LoadLocation(r.tz)
		if err != nil {
			t.Fatal(err)
		}
		l := now.In(loc)
		midnight := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
		insert(r.id, midnight.Add(-10*time.Minute)) // yesterday, within the last 24 hours
		if at := midnight.Add(10 * time.Minute); at.Before(now) {
			insert(r.id, at)
			want++
		}
	}
	if want == 0 {
		t.Fatal("no station is ten minutes into its day: run again")
	}
	if err := e.Server.Fleet.ReloadAlarms(ctx); err != nil {
		t.Fatal(err)
	}
	get := func(url string, v any) {
		t.Helper()
		getJSON(t, e, url, v)
	}
	for _, kept := range []bool{true, false} {
		if !kept {
			e.Server.Figures.Fleet = nil
		}
		var tile struct{ Total int }
		get("/v2/warn/dailyinfo", &tile)
		var ranking []struct{ FaultToday int }
		get("/v2/summary/projectranking?limit=50", &ranking)
		ranked := 0
		for _, r := range ranking {
			ranked += r.FaultToday
		}
		if tile.Total != want || ranked != want {
			t.Errorf("kept %v: %d alarms today, the tile says %d, the ranking %d", kept, want, tile.Total, ranked)
		}
		for _, tz := range []string{"UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Shanghai"} {
			var trend struct {
				List []struct{ Total int } `json:"list"`
			}
			get(fmt.Sprintf("/v2/warn/trendbydate?type=day&tz=%s", tz), &trend)
			var types struct {
				List []struct{ Inverter int } `json:"list"`
			}
			get(fmt.Sprintf("/v2/warn/typetrendbydate?type=day&tz=%s", tz), &types)
			last, lastType := trend.List[len(trend.List)-1].Total, types.List[len(types.List)-1].Inverter
			if last != want || lastType != want {
				t.Errorf("seen from %s: today's bucket of the trend holds %d (fault trend %d), the tile %d", tz, last, lastType, want)
			}
			if prev := trend.List[len(trend.List)-2].Total; prev != len(roots) {
				t.Errorf("seen from %s: yesterday's bucket holds %d, want %d", tz, prev, len(roots))
			}
		}
	}
}
