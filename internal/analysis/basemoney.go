package analysis

import (
	"slices"

	"github.com/helio-energy/helio/internal/money"
)

// RevenueBase is what several stations earned over a period in the organisation's base
// currency (docs/kpi.md, "Money in one currency").
type RevenueBase struct {
	Currency string  `json:"currency" doc:"the organisation's base currency"`
	Amount   float64 `json:"amount"`
	// Unconverted names the currencies without a rate: left out of Amount.
	Unconverted []string `json:"unconverted"`
}

// BaseRevenue converts each station's revenue bucket by bucket, each at the rate of the
// month it lies in (every bucket of a period lies in one month of the station's calendar:
// an hour of a day, a day of a month or a custom range, a month of a year).
func BaseRevenue(book *money.Book, sts []Station, got map[int64]*Measured, per Period) RevenueBase {
	out := RevenueBase{Currency: book.Base, Unconverted: []string{}}
	for _, st := range sts {
		ms := got[st.ID]
		if ms == nil {
			continue
		}
		if !book.Has(st.Currency) {
			if !slices.Contains(out.Unconverted, st.Currency) {
				out.Unconverted = append(out.Unconverted, st.Currency)
			}
			continue
		}
		for i, b := range ms.Buckets {
			month := per.First[:7] // an hour's: the day's month
			if l := ms.Labels[i]; len(l) >= 7 && l[4] == '-' {
				month = l[:7]
			}
			r, _ := book.RateAt(st.Currency, month)
			out.Amount += b.PVKWh * (st.PricePerKWh + st.SubsidyPerKWh) * r
		}
	}
	slices.Sort(out.Unconverted)
	return out
}
