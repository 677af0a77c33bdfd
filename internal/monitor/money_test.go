package monitor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/money"
	"github.com/helio-energy/helio/internal/telemetry"
)

type basePower struct {
	BaseCurrency string   `json:"baseCurrency"`
	Unconverted  []string `json:"unconverted"`
	Points       []struct {
		ProfitBase *float64 `json:"profitBase"`
	} `json:"points"`
	Opening *struct {
		ProfitBase *float64 `json:"profitBase"`
	} `json:"opening"`
}

// Money in one currency (docs/kpi.md, "Money"): with rates that change in the month before
// and the month of the instant, each base-currency tile is the sum of the chart beside it,
// for viewers in three zones; the year and the lifetime are the stations' months each at
// its own month's rate (worked out here from the monthly roll-ups, the opening at the first
// rate); a currency without a rate is left out and named.
func TestMoneyInOneCurrency(t *testing.T) {
	for _, at := range []string{"2026-04-01T00:10:00Z", "2026-01-01T00:30:00Z", "2026-11-27T16:05:00Z"} {
		t.Run(at, func(t *testing.T) {
			now, _ := time.Parse(time.RFC3339, at)
			ctx := context.Background()
			e := apitest.NewWithFleet(t)
			e.Simulate(t, now.Add(-50*time.Hour), now)
			e.Server.Figures.Now = func() time.Time { return now }
			reader := telemetry.NewReader(e.DB, telemetry.Options{Now: e.Server.Figures.Now})
			e.Server.Figures.Reader = reader
			e.Server.Figures.Fleet = nil

			// one currency earned on both sides of the date line: at a month's turn its
			// stations sit in two months
			if _, err := e.DB.Exec(ctx, `UPDATE stations SET currency = (SELECT currency FROM stations WHERE timezone = 'America/Los_Angeles' AND parent_id IS NULL ORDER BY id LIMIT 1)
				WHERE id = (SELECT id FROM stations WHERE timezone = 'Asia/Shanghai' AND parent_id IS NULL ORDER BY id LIMIT 1)`); err != nil {
				t.Fatal(err)
			}
			type root struct {
				id             int64
				tz, cur        string
				price, subsidy float64
			}
			rows, err := e.DB.Query(ctx, "SELECT id, timezone, currency, price_per_kwh, subsidy_per_kwh FROM stations WHERE org_id = ? AND parent_id IS NULL ORDER BY currency, id", e.Accounts.OrgID)
			if err != nil {
				t.Fatal(err)
			}
			var roots []root
			var curs []string
			for rows.Next() {
				var r root
				if err := rows.Scan(&r.id, &r.tz, &r.cur, &r.price, &r.subsidy); err != nil {
					t.Fatal(err)
				}
				roots = append(roots, r)
				if len(curs) == 0 || curs[len(curs)-1] != r.cur {
					curs = append(curs, r.cur)
				}
			}
			rows.Close()
			if len(curs) < 3 {
				t.Fatalf("the fleet earns in %v: too few currencies to prove anything", curs)
			}
			// the first currency is the base, the second has no rate, the others change rate
			// in the month before the instant and in its month
			book := &money.Book{Base: curs[0]}
			before, this := now.AddDate(0, -1, 0).Format("2006-01"), now.Format("2006-01")
			for i, c := range curs[2:] {
				k := float64(i + 1)
				book.Rates = append(book.Rates, money.Rate{Currency: c, Month: "2019-01", Rate: 2 * k},
					money.Rate{Currency: c, Month: before, Rate: 3 * k}, money.Rate{Currency: c, Month: this, Rate: 5 * k})
			}
			body, _ := json.Marshal(book)
			e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/money", As: "admin", Body: string(body), Status: 200})
			if err := book.Validate(); err != nil {
				t.Fatal(err)
			}

			var all struct {
				ProfitBase map[string]any `json:"profitBase"`
			}
			getJSON(t, e, "/v2/summary/all", &all)
			tile := func(period string) float64 { return all.ProfitBase[period].(float64) }
			if all.ProfitBase["currency"] != curs[0] || fmt.Sprint(all.ProfitBase["unconverted"]) != fmt.Sprintf("[%s]", curs[1]) {
				t.Fatalf("base %v, unconverted %v; want %s and [%s]", all.ProfitBase["currency"], all.ProfitBase["unconverted"], curs[0], curs[1])
			}

			// today and this month at each station's month's rate; the year and the lifetime
			// month by month from the roll-ups
			ids := make([]int64, len(roots))
			for i, r := range roots {
				ids[i] = r.id
			}
			months, err := reader.StationEnergy(ctx, ids, telemetry.Month, time.Date(2018, 12, 1, 0, 0, 0, 0, time.UTC), now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			open, err := reader.StationOpenings(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			totals, err := reader.StationTotals(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			var day, month, year, total float64
			for _, r := range roots {
				if r.cur == curs[1] {
					continue
				}
				loc, _ := time.LoadLocation(r.tz)
				for _, p := range months[r.id] {
					rate, _ := book.RateAt(r.cur, money.MonthKey(p.Start, loc))
					v := p.PVKWh * (r.price + r.subsidy) * rate
					total += v
					if p.Start.In(loc).Year() == now.In(loc).Year() {
						year += v
					}
				}
				rate, _ := book.RateAt(r.cur, money.MonthKey(now, loc)) // the station's own month
				day += totals[r.id].Today.PVKWh * (r.price + r.subsidy) * rate
				month += totals[r.id].Month.PVKWh * (r.price + r.subsidy) * rate
				first, _ := book.RateAt(r.cur, "")
				total += open[r.id].PVKWh * (r.price + r.subsidy) * first
			}
			if year == 0 {
				t.Fatal("nothing earned this year: the instant proves nothing")
			}
			for period, want := range map[string]float64{"day": day, "month": month, "year": year, "total": total} {
				if got := tile(period); math.Abs(got-want) > 0.01+1e-6*want {
					t.Errorf("%s tile in %s: %.3f; month by month at each month's rate: %.3f", period, curs[0], got, want)
				}
			}

			for _, tz := range []string{"UTC", "Asia/Shanghai", "America/Los_Angeles"} {
				for _, period := range []string{"day", "month", "year", "total"} {
					var pd basePower
					getJSON(t, e, fmt.Sprintf("/v2/summary/powerdata/%s?tz=%s", period, tz), &pd)
					if pd.BaseCurrency != curs[0] || len(pd.Unconverted) != 1 || pd.Unconverted[0] != curs[1] {
						t.Fatalf("%s chart: base %q unconverted %v", period, pd.BaseCurrency, pd.Unconverted)
					}
					sum := 0.0
					for _, p := range pd.Points {
						if p.ProfitBase == nil {
							t.Fatalf("%s chart seen from %s: a bucket without profitBase", period, tz)
						}
						sum += *p.ProfitBase
					}
					if pd.Opening != nil && pd.Opening.ProfitBase != nil {
						sum += *pd.Opening.ProfitBase
					}
					want := tile(period)
					if slack := 0.01*float64(len(pd.Points)+1) + 1e-6*want; math.Abs(sum-want) > slack {
						t.Errorf("%s seen from %s: the chart's %s adds up to %.3f, the tile says %.3f", period, tz, curs[0], sum, want)
					}
				}
			}
		})
	}
}
