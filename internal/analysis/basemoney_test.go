package analysis_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/money"
)

// A fleet's revenue over a range that spans a rate change is, in the base currency, the sum
// of its stations' daily revenue each at its day's month's rate: the fleet overview against
// the station overviews, screen against screen.
func TestFleetRevenueInBaseCurrency(t *testing.T) {
	f := newFleetEnv(t)
	now := time.Now().UTC()
	this := now.Format("2006-01")
	book := &money.Book{Base: "CNY"}
	for i, c := range []string{"AUD", "EUR", "JPY", "KRW", "TWD", "USD", "ZAR"} {
		k := float64(i + 2)
		book.Rates = append(book.Rates, money.Rate{Currency: c, Month: "2020-01", Rate: k}, money.Rate{Currency: c, Month: this, Rate: 3 * k})
	}
	body, _ := json.Marshal(book)
	f.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/money", As: "admin", Body: string(body), Status: 200})
	if err := book.Validate(); err != nil {
		t.Fatal(err)
	}
	from := now.AddDate(0, -1, 0).Format("2006-01") + "-01"
	to := now.Format(time.DateOnly)
	q := fmt.Sprintf("period=custom&from=%s&to=%s", from, to)

	type overview struct {
		KPIs struct {
			Revenue  *float64 `json:"revenue"`
			Currency string   `json:"currency"`
		} `json:"kpis"`
		Site struct {
			Currency string `json:"currency"`
		} `json:"site"`
		RevenueBase *struct {
			Currency    string   `json:"currency"`
			Amount      float64  `json:"amount"`
			Unconverted []string `json:"unconverted"`
		} `json:"revenueBase"`
		Series []struct {
			Label string `json:"label"`
			KPIs  struct {
				Revenue *float64 `json:"revenue"`
			} `json:"kpis"`
		} `json:"series"`
	}
	fleet := data[overview](t, f.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/analysis/overview?scope=fleet&" + q, As: "admin"}))
	if fleet.RevenueBase == nil || fleet.RevenueBase.Currency != "CNY" || len(fleet.RevenueBase.Unconverted) != 0 {
		t.Fatalf("fleet revenueBase: %+v", fleet.RevenueBase)
	}
	if fleet.KPIs.Revenue == nil || fleet.KPIs.Currency != "CNY" || *fleet.KPIs.Revenue != fleet.RevenueBase.Amount {
		t.Fatalf("fleet revenue KPI %s %s, revenueBase %v", ptrString(fleet.KPIs.Revenue), fleet.KPIs.Currency, fleet.RevenueBase.Amount)
	}
	want, changed := 0.0, false
	for key, id := range f.ids {
		if id == f.other {
			continue
		}
		st := data[overview](t, f.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/analysis/overview?scope=station&id=%d&%s", id, q), As: "admin"}))
		for _, p := range st.Series {
			if p.KPIs.Revenue == nil {
				continue
			}
			r, ok := book.RateAt(st.Site.Currency, p.Label[:7])
			if !ok {
				t.Fatalf("station %s: no rate for %q", key, st.Site.Currency)
			}
			if st.Site.Currency != "CNY" && p.Label[:7] == this && *p.KPIs.Revenue > 0 {
				changed = true
			}
			want += *p.KPIs.Revenue * r
		}
	}
	if !changed {
		t.Fatal("nothing earned after the rate change: the range proves nothing")
	}
	if got := fleet.RevenueBase.Amount; math.Abs(got-want) > 1e-6*math.Abs(want)+0.01 {
		t.Fatalf("fleet revenue %.3f CNY; its stations' days at their months' rates add up to %.3f", got, want)
	}
}
