// Package money keeps an organisation's base currency and the dated rates that turn what
// its stations earn in their own currencies into one total (docs/kpi.md, "Money").
//
// A rate is dated by the month it takes effect from and holds until the same currency's
// next rate, so a past month keeps the rate it had. An amount converts at the rate of the
// month it was earned in (the station's own month); before a currency's first rate, its
// first rate holds. The base currency is worth 1; a currency without a rate is not
// converted and is named as such beside every total that leaves it out.
package money

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Rate is one dated rate: from Month (YYYY-MM) on, one unit of Currency is worth Rate
// units of the base currency.
type Rate struct {
	Currency string  `json:"currency" validate:"required" doc:"ISO 4217, not the base currency"`
	Month    string  `json:"month" validate:"required" doc:"YYYY-MM: the first month the rate holds"`
	Rate     float64 `json:"rate" validate:"required" doc:"units of the base currency one unit is worth, > 0"`
}

// Book is an organisation's base currency and rates.
type Book struct {
	Base  string `json:"base" validate:"required" doc:"ISO 4217"`
	Rates []Rate `json:"rates" validate:"required" doc:"oldest first within each currency"`
}

// MaxRates bounds how many rates an organisation keeps.
const MaxRates = 2000

var (
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	monthRe    = regexp.MustCompile(`^(\d{4})-(0[1-9]|1[0-2])$`)
)

// Validate checks a book and puts its rates in order (currency, then month), naming each
// bad field.
func (b *Book) Validate() error {
	var v httpapi.Validator
	b.Base = strings.ToUpper(strings.TrimSpace(b.Base))
	if v.Required("base", b.Base) && !currencyRe.MatchString(b.Base) {
		v.Add("base", "invalid_format")
	}
	if len(b.Rates) > MaxRates {
		v.Add("rates", "too_many", MaxRates)
		return v.Err()
	}
	seen := map[[2]string]bool{}
	for i := range b.Rates {
		r := &b.Rates[i]
		r.Currency = strings.ToUpper(strings.TrimSpace(r.Currency))
		r.Month = strings.TrimSpace(r.Month)
		field := func(name string) string { return fmt.Sprintf("rates[%d].%s", i, name) }
		switch {
		case !v.Required(field("currency"), r.Currency):
		case !currencyRe.MatchString(r.Currency):
			v.Add(field("currency"), "invalid_format")
		case r.Currency == b.Base:
			v.Add(field("currency"), "money_base_rate")
		}
		if v.Required(field("month"), r.Month) && !monthRe.MatchString(r.Month) {
			v.Add(field("month"), "invalid_format")
		}
		if math.IsNaN(r.Rate) || math.IsInf(r.Rate, 0) || r.Rate <= 0 || r.Rate > 1e9 {
			v.Add(field("rate"), "out_of_range", "0", "1000000000")
		}
		key := [2]string{r.Currency, r.Month}
		if seen[key] {
			v.Add(field("month"), "money_rate_twice")
		}
		seen[key] = true
	}
	if err := v.Err(); err != nil {
		return err
	}
	slices.SortFunc(b.Rates, func(x, y Rate) int {
		if c := strings.Compare(x.Currency, y.Currency); c != 0 {
			return c
		}
		return strings.Compare(x.Month, y.Month)
	})
	return nil
}

// MonthKey is the YYYY-MM of t in loc.
func MonthKey(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2006-01")
}

// RateAt is the rate of currency in month (YYYY-MM): the base currency's is 1; ok is false
// when the currency has no rate.
func (b *Book) RateAt(currency, month string) (rate float64, ok bool) {
	if currency == b.Base {
		return 1, true
	}
	for _, r := range b.Rates {
		if r.Currency != currency {
			continue
		}
		if !ok || r.Month <= month {
			rate, ok = r.Rate, true // the first rate holds before it, each later one from its month
		}
	}
	return rate, ok
}

// Changes are the months (YYYY-MM) after from (exclusive) and up to to (inclusive) in
// which currency's rate differs from the month before; from "" means from the beginning.
func (b *Book) Changes(currency, from, to string) []string {
	if currency == b.Base {
		return nil
	}
	var out []string
	prev, have := 0.0, false
	for _, r := range b.Rates {
		if r.Currency != currency {
			continue
		}
		if have && r.Rate != prev && r.Month > from && r.Month <= to {
			out = append(out, r.Month)
		}
		prev, have = r.Rate, true
	}
	return out
}

// Has says whether currency can be converted.
func (b *Book) Has(currency string) bool {
	_, ok := b.RateAt(currency, "")
	return ok
}
