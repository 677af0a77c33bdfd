package monitor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Alarms the engine opens and recovers from live samples, and deals through the API,
// reach the fleet state by the engine's reported changes alone: the station list's alarm
// flags and texts, the station summary and the project ranking answer as the SQL does at
// each stage, on both databases.
func TestEngineAlarmsReachFleetState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		e.Fleet = demo.Fleet()
		ctx := context.Background()
		if err := demo.SeedFleet(ctx, db, e.Accounts, e.Fleet); err != nil {
			t.Fatal(err)
		}
		// the simulation stops an hour ago: the trips are stepped through after it
		now := time.Now().UTC().Truncate(time.Minute)
		eng := e.Simulate(t, now.Add(-6*time.Hour), now.Add(-time.Hour))
		// two inverters trip for 20 minutes (devices hang under sub-stations: their alarms
		// flag the sub-station and its station); a trip shows only on an inverter that
		// produces and has no alarm of its own occurring yet, so the two are taken among
		// those in daylight at the simulation's end (the demo's stations span the time
		// zones: some are at every hour) and free of the demo's own faults
		var producing []int64
		rows, err := db.Query(ctx, `SELECT d.id FROM devices d JOIN telemetry_latest l ON l.device_id = d.id
			WHERE d.type = 'inverter' AND d.org_id = ? AND l.power_kw > 0.1 * d.rated_power_kw
			AND NOT EXISTS (SELECT 1 FROM alarms a WHERE a.device_id = d.id AND a.status = 1) ORDER BY d.id`, e.Accounts.OrgID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			producing = append(producing, id)
		}
		rows.Close()
		if len(producing) < 2 {
			t.Fatalf("%d inverters produce an hour ago", len(producing))
		}
		tripped := []int64{producing[0], producing[len(producing)-1]}
		onTripped := fmt.Sprintf("SELECT COUNT(*) FROM alarms WHERE device_id IN (%d, %d) AND status = ", tripped[0], tripped[1])
		for _, id := range tripped {
			for key, d := range eng.IDs {
				if d == id {
					if _, err := eng.Sim.InjectFault(sim.FaultRequest{Kind: sim.FaultInverterTrip, Target: key,
						Start: now.Add(-50 * time.Minute), Duration: 20 * time.Minute}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		step := func(minutes ...int) {
			t.Helper()
			for _, m := range minutes {
				if _, err := eng.StepNow(ctx, now.Add(time.Duration(m)*time.Minute)); err != nil {
					t.Fatal(err)
				}
			}
		}
		urls := []string{"/v2/site/list?alarmStatus=1&pageSize=200", "/v2/site/list?pageSize=200", "/v2/site/summary",
			"/v2/summary/projectranking"}
		compare := func(when string) {
			t.Helper()
			kept := e.Server.Figures.Fleet
			for _, u := range urls {
				at := time.Now()
				e.Server.Figures.Now = func() time.Time { return at }
				got := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: "admin"})
				e.Server.Figures.Fleet = nil
				want := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: "admin"})
				e.Server.Figures.Fleet = kept
				e.Server.Figures.Now = nil
				if got.Status != 200 || got.Body != want.Body {
					t.Fatalf("%s, %s:\nfleet state %d %s\nSQL         %d %s", when, u, got.Status, got.Body, want.Status, want.Body)
				}
			}
		}
		compare("before the trips")
		step(-45, -40)
		// the demo's own alarms may open or recover meanwhile: the tripped inverters' count
		if n := e.Count(t, onTripped+"1"); n != 2 {
			t.Fatalf("the trips opened %d alarms", n)
		}
		compare("with the trips occurring")
		var alarm int64
		if err := db.QueryRow(ctx, "SELECT MAX(id) FROM alarms WHERE status = 1 AND org_id = ?", e.Accounts.OrgID).Scan(&alarm); err != nil {
			t.Fatal(err)
		}
		e.Do(t, apitest.Scenario{Method: "POST", URL: fmt.Sprintf("/v2/warn/deal/%d", alarm), As: "admin", Status: 200,
			Body: `{"reason":"reset","dealMethod":1}`})
		compare("one dealt")
		step(-25, -20)
		if n := e.Count(t, onTripped+"2"); n == 0 {
			t.Fatal("no tripped inverter's alarm recovered")
		}
		compare("after the recoveries")
	})
}
