package monitor

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/helio-energy/helio/internal/money"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Money in one currency (docs/kpi.md, "Money"): every station earns in its own currency;
// the organisation's base currency and dated rates turn the per-currency amounts into one
// total. An amount converts at the rate of the month it was earned in, in the station's
// own calendar: a day or a month at that month's rate, a year or the lifetime month by
// month (the opening, before any recorded month, at the currency's first rate). A
// currency without a rate is left out of the total and named beside it.

// BaseMoney is the fleet's profit in the organisation's base currency.
type BaseMoney struct {
	Currency    string    `json:"currency" validate:"required" doc:"the organisation's base currency (ISO 4217)"`
	Day         float64   `json:"day" validate:"required"`
	Month       float64   `json:"month" validate:"required"`
	Year        float64   `json:"year" validate:"required"`
	Total       float64   `json:"total" validate:"required"`
	Rates       []RateNow `json:"rates" validate:"required" doc:"each converted currency's rate in force this month"`
	Unconverted []string  `json:"unconverted" validate:"required" doc:"currencies without a rate: left out of the totals, shown on their own"`
}

// RateNow is a currency's rate in force in the current month.
type RateNow struct {
	Currency string  `json:"currency" validate:"required"`
	Month    string  `json:"month" validate:"required" doc:"YYYY-MM"`
	Rate     float64 `json:"rate" validate:"required" doc:"units of the base currency one unit is worth"`
}

// converter converts the roots' per-currency amounts into the base currency.
type converter struct {
	f    *Figures
	book *money.Book
	by   map[string][]*station.Station // the roots by currency
	now  time.Time
}

func (f *Figures) converter(ctx context.Context, orgID int64, rs []*station.Station) (*converter, error) {
	book, err := money.Load(ctx, f.DB, orgID)
	if err != nil {
		return nil, err
	}
	c := &converter{f: f, book: book, by: map[string][]*station.Station{}, now: f.now()}
	for _, st := range rs {
		c.by[st.Currency] = append(c.by[st.Currency], st)
	}
	return c, nil
}

// baseProfit is the summary's profit in the base currency.
func (f *Figures) baseProfit(ctx context.Context, orgID int64, rs []*station.Station, profit []Money) (*BaseMoney, error) {
	c, err := f.converter(ctx, orgID, rs)
	if err != nil {
		return nil, err
	}
	out := &BaseMoney{Currency: c.book.Base, Rates: []RateNow{}, Unconverted: []string{}}
	nowMs := c.now.UnixMilli()
	for _, m := range profit {
		if !c.book.Has(m.Currency) {
			out.Unconverted = append(out.Unconverted, m.Currency)
			continue
		}
		sts := c.by[m.Currency]
		if m.Currency != c.book.Base {
			key := money.MonthKey(c.now, location(firstZone(sts)))
			r, _ := c.book.RateAt(m.Currency, key)
			out.Rates = append(out.Rates, RateNow{Currency: m.Currency, Month: key, Rate: r})
		}
		rDay, rMonth, err := c.thisMonth(ctx, m.Currency)
		if err != nil {
			return nil, err
		}
		day, month := m.Day*rDay, m.Month*rMonth
		yearStart := func(st *station.Station) int64 { s, _ := telemetry.CalendarFor(st.Timezone).Year(nowMs); return s }
		year, err := c.window(ctx, m.Currency, m.Year, yearStart, func(*station.Station) int64 { return nowMs + 1 })
		if err != nil {
			return nil, err
		}
		total, err := c.window(ctx, m.Currency, m.Total, nil, func(*station.Station) int64 { return nowMs + 1 })
		if err != nil {
			return nil, err
		}
		out.Day += day
		out.Month += month
		out.Year += year
		out.Total += total
	}
	out.Day, out.Month, out.Year, out.Total = r3(out.Day), r3(out.Month), r3(out.Year), r3(out.Total)
	return out, nil
}

func firstZone(sts []*station.Station) string {
	if len(sts) == 0 {
		return "UTC"
	}
	return sts[0].Timezone
}

// thisMonth is the rate today's and this month's amounts of currency convert at: the rate
// of each station's current month. Its stations nearly always share that month; at a
// month's turn, when they sit in two months with different rates, it is their rates
// weighted by what each earned (from their totals), which the day and month charts apply
// too, so that they still add up to the tiles.
func (c *converter) thisMonth(ctx context.Context, currency string) (day, month float64, err error) {
	sts := c.by[currency]
	rates := map[float64]bool{}
	for _, st := range sts {
		r, _ := c.book.RateAt(currency, money.MonthKey(c.now, location(st.Timezone)))
		rates[r] = true
	}
	if len(rates) <= 1 {
		for r := range rates {
			return r, r, nil
		}
		return 0, 0, nil
	}
	ids := make([]int64, len(sts))
	for i, st := range sts {
		ids[i] = st.ID
	}
	totals, err := c.f.stationTotals(ctx, ids)
	if err != nil {
		return 0, 0, err
	}
	var sum [2]float64 // what the stations earned today, this month
	for _, st := range sts {
		r, _ := c.book.RateAt(currency, money.MonthKey(c.now, location(st.Timezone)))
		t := totals[st.ID]
		d, m := Profit(t.Today.PVKWh, st.PricePerKWh, st.SubsidyPerKWh), Profit(t.Month.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)
		day, month, sum[0], sum[1] = day+r*d, month+r*m, sum[0]+d, sum[1]+m
	}
	if sum[0] > 0 {
		day /= sum[0]
	}
	if sum[1] > 0 {
		month /= sum[1]
	}
	return day, month, nil
}

// window converts amount, what currency's stations earned each within its own window
// [from(st), to(st)) of whole months of its calendar (from nil: since the beginning,
// the opening included), month by month. With one rate over the window it is a product;
// else the months from the first change on are read: amount × the window's first rate,
// plus each later month's profit × (its rate − that rate).
func (c *converter) window(ctx context.Context, currency string, amount float64, from, to func(*station.Station) int64) (float64, error) {
	sts := c.by[currency]
	if len(sts) == 0 || amount == 0 {
		return 0, nil
	}
	fromKey, toKey := "", ""
	lo := int64(math.MaxInt64)
	for _, st := range sts {
		loc := location(st.Timezone)
		if from != nil {
			s := from(st)
			lo = min(lo, s)
			if k := money.MonthKey(time.UnixMilli(s), loc); fromKey == "" || k < fromKey {
				fromKey = k
			}
		}
		if k := money.MonthKey(time.UnixMilli(to(st)-1), loc); k > toKey {
			toKey = k
		}
	}
	r0, _ := c.book.RateAt(currency, fromKey)
	changes := c.book.Changes(currency, fromKey, toKey)
	if len(changes) == 0 {
		return amount * r0, nil
	}
	first, err := time.Parse("2006-01", changes[0])
	if err != nil {
		return 0, err
	}
	qFrom := first.Add(-24 * time.Hour) // every zone's start of that month is after it
	if from != nil {
		qFrom = time.UnixMilli(max(lo, qFrom.UnixMilli()))
	}
	hi := int64(0)
	ids := make([]int64, len(sts))
	for i, st := range sts {
		ids[i], hi = st.ID, max(hi, to(st))
	}
	pts, err := c.f.Reader.StationEnergy(ctx, ids, telemetry.Month, qFrom, time.UnixMilli(hi))
	if err != nil {
		return 0, err
	}
	out := amount * r0
	for _, st := range sts {
		loc := location(st.Timezone)
		lo, hi := int64(math.MinInt64), to(st)
		if from != nil {
			lo = from(st)
		}
		for _, p := range pts[st.ID] {
			if s := p.Start.UnixMilli(); s < lo || s >= hi {
				continue
			}
			r, _ := c.book.RateAt(currency, money.MonthKey(p.Start, loc))
			if r != r0 {
				out += (r - r0) * Profit(p.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)
			}
		}
	}
	return out, nil
}

// basePower puts the base-currency profit into each bucket of a fleet series drawn in
// loc: a bucket of the day, month or year series lies in one month (its own); a year of
// the total series converts month by month, and the opening at each currency's first rate.
func (f *Figures) basePower(ctx context.Context, orgID int64, rs []*station.Station, period string, loc *time.Location, out *PowerData) error {
	c, err := f.converter(ctx, orgID, rs)
	if err != nil {
		return err
	}
	out.BaseCurrency, out.Unconverted = c.book.Base, []string{}
	for cur := range c.by {
		if !c.book.Has(cur) {
			out.Unconverted = append(out.Unconverted, cur)
		}
	}
	slices.Sort(out.Unconverted)
	convert := func(p *PowerPoint, rate func(cur string, v float64) (float64, error)) error {
		sum := 0.0
		for cur, v := range p.Profit {
			if !c.book.Has(cur) {
				continue
			}
			got, err := rate(cur, v)
			if err != nil {
				return err
			}
			sum += got
		}
		v := r3(sum)
		p.ProfitBase = &v
		return nil
	}
	// the day's and the month's buckets hold each station's current day or month: the
	// tiles' rate (thisMonth)
	current := map[string]float64{}
	if period == "day" || period == "month" {
		for cur := range c.by {
			day, month, err := c.thisMonth(ctx, cur)
			if err != nil {
				return err
			}
			current[cur] = day
			if period == "month" {
				current[cur] = month
			}
		}
	}
	for i := range out.Points {
		p := &out.Points[i]
		t := time.UnixMilli(p.Time).In(loc)
		err := convert(p, func(cur string, v float64) (float64, error) {
			switch period {
			case "day", "month":
				return v * current[cur], nil
			case "year": // the bucket of month m: month m of each station's current year
				m := t.Month()
				start := func(st *station.Station) int64 {
					l := location(st.Timezone)
					return time.Date(c.now.In(l).Year(), m, 1, 0, 0, 0, 0, l).UnixMilli()
				}
				end := func(st *station.Station) int64 {
					l := location(st.Timezone)
					return time.Date(c.now.In(l).Year(), m+1, 1, 0, 0, 0, 0, l).UnixMilli()
				}
				return c.window(ctx, cur, v, start, end)
			}
			y := t.Year()
			start := func(st *station.Station) int64 {
				return time.Date(y, 1, 1, 0, 0, 0, 0, location(st.Timezone)).UnixMilli()
			}
			end := func(st *station.Station) int64 {
				return time.Date(y+1, 1, 1, 0, 0, 0, 0, location(st.Timezone)).UnixMilli()
			}
			return c.window(ctx, cur, v, start, end)
		})
		if err != nil {
			return err
		}
	}
	if out.Opening != nil {
		return convert(out.Opening, func(cur string, v float64) (float64, error) {
			r, _ := c.book.RateAt(cur, "")
			return v * r, nil
		})
	}
	return nil
}
