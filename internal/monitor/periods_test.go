package monitor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/telemetry"
)

type powerData struct {
	Points []struct {
		Time   int64              `json:"time"`
		PVKWh  float64            `json:"pvKwh"`
		Profit map[string]float64 `json:"profit"`
	} `json:"points"`
	Opening *struct {
		PVKWh  float64            `json:"pvKwh"`
		Profit map[string]float64 `json:"profit"`
	} `json:"opening"`
}

type fleetAll struct {
	EnergyKWh map[string]struct {
		Value float64 `json:"value"`
	} `json:"energyKwh"`
	Profit []map[string]any `json:"profit"`
}

func getJSON(t *testing.T, e *apitest.Env, url string, v any) {
	t.Helper()
	res := e.Do(t, apitest.Scenario{Method: "GET", URL: url, As: "admin"})
	if res.Status != 200 {
		t.Fatalf("%s: %d %s", url, res.Status, res.Body)
	}
	if err := json.Unmarshal(res.Env.Data, v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

// Every fleet period's tile is the sum of the chart beside it (docs/kpi.md, "Periods and
// clocks"): today, this month, this year and the lifetime, in energy and in each
// currency's profit, for viewers in three zones, at instants where the stations' own
// periods are not the viewer's — just after UTC midnight at a month's end, just after the
// Chinese stations' midnight, on the days Europe and the United States change their
// clocks, and across New Year.
func TestFleetTileEqualsItsChart(t *testing.T) {
	instants := []string{
		"2026-04-01T00:10:00Z", // UTC midnight, March ends: Los Angeles in March, Asia in April
		"2026-11-27T16:05:00Z", // Shanghai and Taipei just after midnight, the Americas and Europe mid-day
		"2026-03-29T01:30:00Z", // Europe's spring forward: a local day of 23 hours
		"2026-11-01T10:30:00Z", // the United States fall back: a local day of 25 hours
		"2026-01-01T00:30:00Z", // New Year in Asia and Europe, still the old year in Los Angeles
	}
	for _, at := range instants {
		t.Run(at, func(t *testing.T) {
			now, _ := time.Parse(time.RFC3339, at)
			e := apitest.NewWithFleet(t)
			e.Simulate(t, now.Add(-50*time.Hour), now)
			e.Server.Figures.Now = func() time.Time { return now }
			e.Server.Figures.Reader = telemetry.NewReader(e.DB, telemetry.Options{Now: e.Server.Figures.Now})
			e.Server.Figures.Fleet = nil // the roll-ups read afresh: the kept state answers the same (TestFleetStateAnswersAsRollups)
			var all fleetAll
			getJSON(t, e, "/v2/summary/all", &all)
			for _, tz := range []string{"UTC", "Asia/Shanghai", "America/Los_Angeles"} {
				for _, period := range []string{"day", "month", "year", "total"} {
					var pd powerData
					getJSON(t, e, fmt.Sprintf("/v2/summary/powerdata/%s?tz=%s", period, tz), &pd)
					kwh, profit := 0.0, map[string]float64{}
					for _, p := range pd.Points {
						kwh += p.PVKWh
						for c, v := range p.Profit {
							profit[c] += v
						}
					}
					if pd.Opening != nil {
						kwh += pd.Opening.PVKWh
						for c, v := range pd.Opening.Profit {
							profit[c] += v
						}
					}
					tile := all.EnergyKWh[period].Value
					// each bucket is rounded to the Wh, the tile once
					slack := 0.001*float64(len(pd.Points)+1) + 1e-9
					if math.Abs(kwh-tile) > slack {
						t.Errorf("%s seen from %s: the chart adds up to %.3f kWh, the tile says %.3f", period, tz, kwh, tile)
					}
					if period == "day" && tz == "UTC" && tile == 0 {
						t.Errorf("today is empty: the instant proves nothing")
					}
					for _, m := range all.Profit {
						c := m["currency"].(string)
						want := m[period].(float64)
						if math.Abs(profit[c]-want) > slack*10 {
							t.Errorf("%s seen from %s: the chart's %s profit adds up to %.3f, the tile says %.3f", period, tz, c, profit[c], want)
						}
					}
				}
			}
		})
	}
}
