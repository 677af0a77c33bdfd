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
		before := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE status = 1")
		// two inverters trip for 20 minutes (devices hang under sub-stations: their alarms
		// flag the sub-station and its station)
		for _, q := range []string{"MIN", "MAX"} {
			var id int64
			if err := db.QueryRow(ctx, "SELECT "+q+"(id) FROM devices WHERE type = 'inverter' AND org_id = ?", e.Accounts.OrgID).Scan(&id); err != nil {
				t.Fatal(err)
			}
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
		if n := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE status = 1"); n < before+2 {
			t.Fatalf("the trips opened %d alarms", n-before)
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
		if n := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE status = 2"); n == 0 {
			t.Fatal("no alarm recovered")
		}
		compare("after the recoveries")
	})
}
