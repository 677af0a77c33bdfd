package monitor

import (
	"time"

	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The fleet's periods (docs/kpi.md, "Periods and clocks"): a fleet figure of "today",
// "this month" or "this year" adds up each station's own current period in the station's
// own zone, and the chart beside the figure puts what a station made at a position of its
// own calendar into the bucket of that position: hour h of the station's local today into
// the bucket of h:00, day d of its local month into day d, month m of its local year into
// month m, each year into its year. So the chart's buckets add up to the tile beside it
// at every instant, whichever zones the fleet spans; the viewer's zone only names the
// buckets (h:00 of the viewer's date).

// fleetPeriod is one of the monitor's periods laid out for a viewer in loc at now.
type fleetPeriod struct {
	from, to time.Time // the viewer's buckets: [from, to)
	// qFrom, qTo hold every station bucket the period may take: the stations' current
	// periods start up to a day (a month, a year) before or after the viewer's.
	qFrom, qTo time.Time
	res        telemetry.Resolution
	// key maps a station bucket's start to the viewer's bucket of its position, or the
	// zero time when it lies outside the station's current period.
	key  func(t time.Time, st *time.Location) time.Time
	next func(t time.Time) time.Time
	// current names the station's current period in a zone (its start, unix ms): the
	// key's answers change with it. 0 for the total, whose key does not move.
	current func(st *time.Location) int64
}

// periodOf lays out the period for the roots rs (their zones lengthen a month or the
// total when a station is already in a longer month or a later year than the viewer).
func periodOf(period string, now time.Time, loc *time.Location, rs []*station.Station, firstYear int) fleetPeriod {
	now = now.In(loc)
	var p fleetPeriod
	p.next = func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }
	switch period {
	case "day":
		p.from = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
		p.to, p.res = p.from.AddDate(0, 0, 1), telemetry.Hour
		p.current = func(st *time.Location) int64 { return dayStartIn(now, st).UnixMilli() }
		p.key = func(t time.Time, st *time.Location) time.Time {
			l := t.In(st)
			if !sameDay(l, now.In(st)) {
				return time.Time{}
			}
			return time.Date(p.from.Year(), p.from.Month(), p.from.Day(), l.Hour(), 0, 0, 0, loc)
		}
		p.next = func(t time.Time) time.Time { return t.Add(time.Hour) }
	case "month":
		p.from = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
		days := daysIn(now.Year(), now.Month())
		for _, st := range rs {
			n := now.In(location(st.Timezone))
			days = max(days, daysIn(n.Year(), n.Month()))
		}
		p.to, p.res = p.from.AddDate(0, 0, days), telemetry.Day
		p.current = func(st *time.Location) int64 {
			n := now.In(st)
			return time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, st).UnixMilli()
		}
		p.key = func(t time.Time, st *time.Location) time.Time {
			l, n := t.In(st), now.In(st)
			if l.Year() != n.Year() || l.Month() != n.Month() {
				return time.Time{}
			}
			return p.from.AddDate(0, 0, l.Day()-1)
		}
		p.next = func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }
	case "year":
		p.from = time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc)
		p.to, p.res = p.from.AddDate(1, 0, 0), telemetry.Month
		p.current = func(st *time.Location) int64 {
			return time.Date(now.In(st).Year(), 1, 1, 0, 0, 0, 0, st).UnixMilli()
		}
		p.key = func(t time.Time, st *time.Location) time.Time {
			l := t.In(st)
			if l.Year() != now.In(st).Year() {
				return time.Time{}
			}
			return time.Date(p.from.Year(), l.Month(), 1, 0, 0, 0, 0, loc)
		}
		p.next = func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }
	default: // total: every year with data, up to the latest current year of a station
		last := now.Year()
		for _, st := range rs {
			last = max(last, now.In(location(st.Timezone)).Year())
		}
		p.from = time.Date(min(firstYear, now.Year()), 1, 1, 0, 0, 0, 0, loc)
		p.to, p.res = time.Date(last+1, 1, 1, 0, 0, 0, 0, loc), telemetry.Year
		p.current = func(*time.Location) int64 { return 0 }
		p.key = func(t time.Time, st *time.Location) time.Time {
			return time.Date(t.In(st).Year(), 1, 1, 0, 0, 0, 0, loc)
		}
	}
	// Ask a day wider on each side: station calendars are offset from the viewer's.
	p.qFrom, p.qTo = p.from.Add(-24*time.Hour), p.to.Add(24*time.Hour)
	for _, st := range rs {
		if c := p.current(location(st.Timezone)); c != 0 && c < p.qFrom.UnixMilli() {
			p.qFrom = time.UnixMilli(c).Add(-24 * time.Hour).In(loc)
		}
	}
	return p
}

func dayStartIn(now time.Time, loc *time.Location) time.Time {
	n := now.In(loc)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, loc)
}

func sameDay(a, b time.Time) bool {
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}
