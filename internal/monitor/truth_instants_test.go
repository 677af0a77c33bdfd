package monitor_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The invariants at the instants where periods turn (docs/kpi.md, "Periods and clocks"):
// just after UTC midnight at a month's end, just after the Chinese stations' midnight, on
// Europe's spring-forward day and across New Year, each device's lifetime is the same in
// the list, on its page, in its station's tree, in the export and as its history's sum +
// opening; each station's lifetime is its devices'; and the today tile is the sum of the
// stations' today in the station list.
func TestInvariantsAtTurningInstants(t *testing.T) {
	for _, at := range []string{"2026-04-01T00:10:00Z", "2026-11-27T16:05:00Z", "2026-03-29T01:30:00Z", "2026-01-01T00:30:00Z"} {
		t.Run(at, func(t *testing.T) {
			now, _ := time.Parse(time.RFC3339, at)
			e := apitest.NewWithFleet(t)
			from := now.Add(-30 * time.Hour)
			e.Simulate(t, from, now)
			e.Server.Figures.Now = func() time.Time { return now }
			e.Server.Figures.Reader = telemetry.NewReader(e.DB, telemetry.Options{Now: e.Server.Figures.Now})
			e.Server.Figures.Fleet = nil
			openings := openingsOf(t, e.DB)
			checkLifetimes(t, e, openings, from, now)

			var all fleetAll
			getJSON(t, e, "/v2/summary/all", &all)
			sum, n, measured := 0.0, 0, 0
			for _, s := range adminGet[httpapi.Page[station.ListItem]](t, e, "/v2/site/list?pageSize=100").List {
				if s.ParentID == 0 {
					sum += s.DailyEnergyKWh
					n++
				}
				// yesterday's PR: the list's is the station page's
				d := adminGet[station.Detail](t, e, fmt.Sprintf("/v2/site/detail/%d", s.ID))
				if d.KPIs.PerformanceRatio != s.PerformanceRatio {
					t.Fatalf("%s: PR %.3f %% in the list, %.3f %% on its page", s.Name, s.PerformanceRatio, d.KPIs.PerformanceRatio)
				}
				if s.PerformanceRatio > 0 {
					measured++
				}
			}
			if measured == 0 {
				t.Fatal("no station has yesterday's PR: the instant proves nothing")
			}
			if tile := all.EnergyKWh["day"].Value; math.Abs(tile-sum) > 0.001*float64(n+1) || tile == 0 {
				t.Fatalf("today: the tile says %.3f kWh, the station list's %d stations %.3f", tile, n, sum)
			}
		})
	}
}
