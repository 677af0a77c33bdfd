package account_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// An administrator sets the base currency and dated rates; bad input answers 400 naming the
// field and changes nothing, an ordinary user may neither read nor write them, and another
// organisation's book is untouched.
func TestMoneyBook(t *testing.T) {
	e := apitest.New(t)
	ctx := context.Background()
	type book struct {
		Base  string
		Rates []struct {
			Currency, Month string
			Rate            float64
		}
	}
	before := data[book](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/org/money", As: "admin", Status: 200}))
	e.Run(t, []apitest.Scenario{
		{Name: "bad base", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Contains: []string{`"base"`}, Body: `{"base":"yuan","rates":[]}`},
		{Name: "rate of the base", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Contains: []string{`"rates[0].currency"`},
			Body: `{"base":"CNY","rates":[{"currency":"CNY","month":"2026-01","rate":1}]}`},
		{Name: "bad month", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Contains: []string{`"rates[1].month"`},
			Body: `{"base":"CNY","rates":[{"currency":"USD","month":"2026-01","rate":7},{"currency":"USD","month":"26-02","rate":7}]}`},
		{Name: "negative rate", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Contains: []string{`"rates[0].rate"`},
			Body: `{"base":"CNY","rates":[{"currency":"USD","month":"2026-01","rate":-7}]}`},
		{Name: "a month twice", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Contains: []string{`"rates[1].month"`},
			Body: `{"base":"CNY","rates":[{"currency":"USD","month":"2026-01","rate":7},{"currency":"USD","month":"2026-01","rate":7.2}]}`},
		{Name: "rate as text", Method: "POST", URL: "/v2/org/money", As: "admin", Status: 400, Body: `{"base":"CNY","rates":[{"currency":"USD","month":"2026-01","rate":"7"}]}`},
		{Name: "an ordinary user", Method: "POST", URL: "/v2/org/money", As: "operator", Status: 403, Body: `{"base":"USD","rates":[]}`},
		{Name: "an ordinary user reads", Method: "GET", URL: "/v2/org/money", As: "operator", Status: 403},
	})
	after := data[book](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/org/money", As: "admin", Status: 200}))
	if after.Base != before.Base || len(after.Rates) != len(before.Rates) {
		t.Fatalf("refused calls changed the book: %+v, was %+v", after, before)
	}
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/money", As: "admin", Status: 200,
		Body: `{"base":"eur","rates":[{"currency":"usd","month":"2026-07","rate":0.9},{"currency":"CNY","month":"2026-01","rate":0.13},{"currency":"USD","month":"2026-01","rate":0.92}]}`})
	got := data[book](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/org/money", As: "admin", Status: 200}))
	if got.Base != "EUR" || len(got.Rates) != 3 || got.Rates[0].Currency != "CNY" || got.Rates[1].Month != "2026-01" || got.Rates[2].Rate != 0.9 {
		t.Fatalf("saved book: %+v", got)
	}
	var n int
	if err := e.DB.QueryRow(ctx, "SELECT COUNT(*) FROM currency_rates WHERE org_id = ?", e.Accounts.OtherOrgID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	var base string
	if err := e.DB.QueryRow(ctx, "SELECT base_currency FROM organizations WHERE id = ?", e.Accounts.OtherOrgID).Scan(&base); err != nil || base == "EUR" {
		t.Fatalf("other organisation's base %q %v", base, err)
	}
}
