package analysis

import (
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Period kinds.
const (
	PeriodDay    = "day"
	PeriodMonth  = "month"
	PeriodYear   = "year"
	PeriodCustom = "custom"
)

// PeriodKinds lists the period kinds.
var PeriodKinds = []string{PeriodDay, PeriodMonth, PeriodYear, PeriodCustom}

// MaxCustomDays bounds a custom range (one answer stays a few hundred buckets).
const MaxCustomDays = 366

// Period is a span of local calendar dates, read in each station's own time zone: the
// "day 2026-03-01" of a station in Tokyo and of one in Madrid are different instants.
type Period struct {
	Kind string `json:"kind" doc:"day, month, year or custom"`
	// First and Last are the first and last local dates (yyyy-MM-dd), both included.
	First string `json:"first"`
	Last  string `json:"last"`
	// Resolution of the buckets: hour for a day, month for a year, else day.
	Resolution string `json:"resolution"`

	first, last time.Time // dates at UTC midnight
	res         telemetry.Resolution
}

// ParsePeriod reads a period: kind day with date yyyy-MM-dd, month with yyyy-MM, year
// with yyyy, custom with from and to (yyyy-MM-dd, at most MaxCustomDays). Errors name the
// field.
func ParsePeriod(kind, date, from, to string) (Period, error) {
	var v httpapi.Validator
	p := Period{Kind: kind}
	parse := func(field, layout, s string) time.Time {
		t, err := time.Parse(layout, s)
		if err != nil || t.Year() < 2000 || t.Year() > 2100 {
			v.Add(field, "date_format", layout2(layout))
			return time.Time{}
		}
		return t
	}
	switch kind {
	case PeriodDay:
		p.first = parse("date", "2006-01-02", date)
		p.last, p.res = p.first, telemetry.Hour
	case PeriodMonth:
		p.first = parse("date", "2006-01", date)
		p.last, p.res = p.first.AddDate(0, 1, -1), telemetry.Day
	case PeriodYear:
		p.first = parse("date", "2006", date)
		p.last, p.res = p.first.AddDate(1, 0, -1), telemetry.Month
	case PeriodCustom:
		p.first = parse("from", "2006-01-02", from)
		p.last = parse("to", "2006-01-02", to)
		p.res = telemetry.Day
		if v.Err() == nil {
			switch days := int(p.last.Sub(p.first).Hours()/24) + 1; {
			case days < 1:
				v.Add("to", "range_reversed")
			case days > MaxCustomDays:
				v.Add("to", "range_too_long_days", MaxCustomDays)
			}
		}
	default:
		v.OneOf("period", kind, PeriodKinds...)
	}
	if err := v.Err(); err != nil {
		return Period{}, err
	}
	p.First, p.Last, p.Resolution = p.first.Format(time.DateOnly), p.last.Format(time.DateOnly), p.res.String()
	return p, nil
}

func layout2(l string) string {
	switch l {
	case "2006":
		return "yyyy"
	case "2006-01":
		return "yyyy-MM"
	}
	return "yyyy-MM-dd"
}

// Res is the period's bucket resolution.
func (p Period) Res() telemetry.Resolution { return p.res }

// Range is the period as instants in a station's calendar: [local midnight of First,
// local midnight after Last).
func (p Period) Range(cal *telemetry.Calendar) (from, to time.Time) {
	s, _ := cal.LocalDate(p.first)
	_, e := cal.LocalDate(p.last)
	return time.UnixMilli(s).UTC(), time.UnixMilli(e).UTC()
}

// Slot is one bucket of a period in a station's calendar.
type Slot struct {
	Label      string
	Start, End int64
}

// Slots lists the period's buckets in a station's calendar, labelled so that the same
// local hour, day or month of stations in different zones share a label.
func (p Period) Slots(cal *telemetry.Calendar) []Slot {
	from, to := p.Range(cal)
	var out []Slot
	for t := from.UnixMilli(); t < to.UnixMilli(); {
		s, e := cal.Bucket(p.res, t)
		lt := time.UnixMilli(s).In(cal.Loc)
		var label string
		switch p.res {
		case telemetry.Hour:
			label = lt.Format("15:04")
			if len(out) > 0 && out[len(out)-1].Label == label { // the repeated hour of a DST change
				label += "′"
			}
		case telemetry.Month:
			label = lt.Format("2006-01")
		default:
			label = lt.Format(time.DateOnly)
		}
		out = append(out, Slot{Label: label, Start: s, End: e})
		t = e
	}
	return out
}
