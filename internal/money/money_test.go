package money

import (
	"errors"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
)

func book() *Book {
	return &Book{Base: "CNY", Rates: []Rate{
		{Currency: "USD", Month: "2026-01", Rate: 7.1},
		{Currency: "USD", Month: "2026-07", Rate: 7.0},
		{Currency: "EUR", Month: "2025-06", Rate: 7.8},
		{Currency: "USD", Month: "2026-09", Rate: 7.0}, // same as before: no change
	}}
}

func TestRateAt(t *testing.T) {
	b := book()
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cur, month string
		want       float64
		ok         bool
	}{
		{"CNY", "2020-01", 1, true},
		{"USD", "2025-03", 7.1, true}, // before the first rate: the first rate holds
		{"USD", "2026-01", 7.1, true},
		{"USD", "2026-06", 7.1, true},
		{"USD", "2026-07", 7.0, true},
		{"USD", "2026-12", 7.0, true},
		{"EUR", "2030-01", 7.8, true},
		{"ZAR", "2026-01", 0, false},
	} {
		got, ok := b.RateAt(c.cur, c.month)
		if got != c.want || ok != c.ok {
			t.Errorf("RateAt(%s, %s) = %v, %v; want %v, %v", c.cur, c.month, got, ok, c.want, c.ok)
		}
	}
	if got := b.Changes("USD", "", "2026-12"); len(got) != 1 || got[0] != "2026-07" {
		t.Errorf("Changes(USD) = %v, want [2026-07]", got)
	}
	if got := b.Changes("USD", "2026-07", "2026-12"); len(got) != 0 {
		t.Errorf("Changes(USD) after the change = %v, want none", got)
	}
	if got := b.Changes("EUR", "", "2030-01"); len(got) != 0 {
		t.Errorf("Changes(EUR) = %v, want none", got)
	}
}

func TestValidate(t *testing.T) {
	for name, b := range map[string]*Book{
		"base":          {Base: "yuan"},
		"base rate":     {Base: "CNY", Rates: []Rate{{Currency: "CNY", Month: "2026-01", Rate: 1}}},
		"month":         {Base: "CNY", Rates: []Rate{{Currency: "USD", Month: "2026-13", Rate: 7}}},
		"zero rate":     {Base: "CNY", Rates: []Rate{{Currency: "USD", Month: "2026-01", Rate: 0}}},
		"twice":         {Base: "CNY", Rates: []Rate{{Currency: "USD", Month: "2026-01", Rate: 7}, {Currency: "usd", Month: "2026-01", Rate: 7.1}}},
		"bad currency":  {Base: "CNY", Rates: []Rate{{Currency: "US", Month: "2026-01", Rate: 7}}},
		"missing month": {Base: "CNY", Rates: []Rate{{Currency: "USD", Rate: 7}}},
	} {
		var apiErr *httpapi.Error
		if err := b.Validate(); !errors.As(err, &apiErr) || apiErr.Status != 400 {
			t.Errorf("%s: Validate() = %v, want a 400", name, err)
		}
	}
	b := &Book{Base: " usd ", Rates: []Rate{{Currency: "eur", Month: "2026-02", Rate: 1.1}, {Currency: "CNY", Month: "2026-01", Rate: 0.14}}}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if b.Base != "USD" || b.Rates[0].Currency != "CNY" || b.Rates[1].Currency != "EUR" {
		t.Errorf("Validate did not normalise and order: %+v", b)
	}
}
