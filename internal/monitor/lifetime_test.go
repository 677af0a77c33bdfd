package monitor_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/station"
)

// A station's lifetime covers its life, not the back-filled stretch: each inverter opens
// at its counter when the history begins, dated back to grid connection by the solar
// model. Worked by hand: years since grid connection × the site's specific yield × the
// station's kWp × the plant factor 0.97 × the mean ageing (1 − 0.5 % × years ÷ 2), within
// 6 %; CO₂ (at the country's factor) and profit follow the lifetime energy; the fleet state and the roll-ups agree.
func TestLifetimeFromGridDate(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	from := now.Add(-48 * time.Hour)
	e.Simulate(t, from, now)
	ctx := context.Background()
	for _, tc := range []struct {
		key   string
		grid  string  // the station's grid connection (its first sub-station's)
		yield float64 // kWh/kWp a year, the site's climate
		co2   float64 // kg/kWh, the country's grid factor
	}{
		{"de-munich", "2018-06-01", 1080, 0.38},
		{"jp-osaka", "2017-12-20", 1260, 0.45},
		{"kr-jeju", "2023-03-20", 1240, 0.44},
	} {
		t.Run(tc.key, func(t *testing.T) {
			var id int64
			var capKWp float64
			if err := e.DB.QueryRow(ctx, "SELECT id, capacity_kwp FROM stations WHERE sim_key = ?", tc.key).Scan(&id, &capKWp); err != nil {
				t.Fatal(err)
			}
			grid, _ := time.Parse("2006-01-02", tc.grid)
			years := from.Sub(grid).Hours() / 24 / 365.25
			want := years * tc.yield * capKWp * 0.97 * (1 - 0.005*years/2)
			for _, kept := range []bool{true, false} {
				saved := e.Server.Figures.Fleet
				if !kept {
					e.Server.Figures.Fleet = nil
				}
				d := data[station.Detail](t, e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", id), As: "admin"}))
				e.Server.Figures.Fleet = saved
				k := d.KPIs
				if math.Abs(k.TotalEnergyKWh-want) > 0.06*want {
					t.Fatalf("fleet state %v: lifetime %.0f kWh over %.1f years, by hand %.0f", kept, k.TotalEnergyKWh, years, want)
				}
				if k.YearEnergyKWh >= k.TotalEnergyKWh/2 && years > 2 {
					t.Fatalf("lifetime %.0f kWh is hardly more than this year's %.0f", k.TotalEnergyKWh, k.YearEnergyKWh)
				}
				if k.EmissionFactorKg != tc.co2 || !near(k.CO2ReductionKg, math.Round(k.TotalEnergyKWh*tc.co2*1000)/1000) {
					t.Fatalf("CO₂ %.0f kg does not follow %.0f kWh × %.3f", k.CO2ReductionKg, k.TotalEnergyKWh, k.EmissionFactorKg)
				}
				if !near(k.ProfitTotal, k.TotalEnergyKWh*(d.PricePerKWh+d.SubsidyPerKWh)) {
					t.Fatalf("profit %.0f does not follow %.0f kWh", k.ProfitTotal, k.TotalEnergyKWh)
				}
				if !near(d.TotalEnergyKWh, k.TotalEnergyKWh) {
					t.Fatalf("the station's live total %.0f differs from its KPI %.0f", d.TotalEnergyKWh, k.TotalEnergyKWh)
				}
			}
		})
	}
	// every opening is the simulator's, at the start of the history
	before := e.Count(t, "SELECT COUNT(*) FROM device_openings")
	if before == 0 || e.Count(t, "SELECT COUNT(*) FROM device_openings WHERE basis = 'simulator' AND as_of = ?", from.Truncate(5*time.Minute).UnixMilli()) != before {
		t.Fatalf("%d openings, not all from the simulator at the back-fill's start", before)
	}
}
