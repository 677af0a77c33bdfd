package telemetry

import (
	"sync"
	"sync/atomic"
	"time"
)

// Calendar buckets instants by a station's local calendar. A local day runs from local
// midnight to the next local midnight, so it lasts 23, 24 or 25 hours across DST changes;
// its hours are the consecutive hours from midnight. Instants are unix milliseconds.
type Calendar struct {
	Loc  *time.Location
	last atomic.Pointer[span]
}

type span struct{ start, end int64 }

const (
	hourMs = int64(time.Hour / time.Millisecond)
	slotMs = int64(5 * time.Minute / time.Millisecond)
)

// calendars holds the calendar of every zone asked for (a few hundred at most).
var calendars sync.Map // zone → *Calendar

var utcCalendar = func() *Calendar {
	c := &Calendar{Loc: time.UTC}
	calendars.Store("UTC", c)
	return c
}()

// CalendarFor returns the (shared) calendar of an IANA zone; an unknown or empty zone
// falls back to UTC.
func CalendarFor(zone string) *Calendar {
	if c, ok := LookupCalendar(zone); ok {
		return c
	}
	return utcCalendar
}

// LookupCalendar returns the (shared) calendar of an IANA zone, as time.LoadLocation
// finds it but read from the zone database once; false for an unknown or empty zone,
// which is not kept (memory stays bounded whatever a client asks for).
func LookupCalendar(zone string) (*Calendar, bool) {
	if c, ok := calendars.Load(zone); ok {
		return c.(*Calendar), true
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" {
		return nil, false
	}
	c, _ := calendars.LoadOrStore(zone, &Calendar{Loc: loc})
	return c.(*Calendar), true
}

// Day returns the local day containing t as [start, end).
func (c *Calendar) Day(t int64) (start, end int64) {
	if s := c.last.Load(); s != nil && t >= s.start && t < s.end {
		return s.start, s.end
	}
	lt := time.UnixMilli(t).In(c.Loc)
	y, m, d := lt.Date()
	start = time.Date(y, m, d, 0, 0, 0, 0, c.Loc).UnixMilli()
	end = time.Date(y, m, d+1, 0, 0, 0, 0, c.Loc).UnixMilli()
	if start > t { // a zone whose DST change skips midnight: the day starts at the change
		return t, end
	}
	c.last.Store(&span{start, end})
	return start, end
}

// Midnight returns the start of the local day containing t.
func (c *Calendar) Midnight(t int64) int64 {
	s, _ := c.Day(t)
	return s
}

// Month returns the local month containing t as [start, end).
func (c *Calendar) Month(t int64) (start, end int64) {
	lt := time.UnixMilli(t).In(c.Loc)
	y, m, _ := lt.Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, c.Loc).UnixMilli(), time.Date(y, m+1, 1, 0, 0, 0, 0, c.Loc).UnixMilli()
}

// Year returns the local year containing t as [start, end).
func (c *Calendar) Year(t int64) (start, end int64) {
	y := time.UnixMilli(t).In(c.Loc).Year()
	return time.Date(y, 1, 1, 0, 0, 0, 0, c.Loc).UnixMilli(), time.Date(y+1, 1, 1, 0, 0, 0, 0, c.Loc).UnixMilli()
}

// Bucket returns the bucket of resolution res containing t as [start, end).
func (c *Calendar) Bucket(res Resolution, t int64) (start, end int64) {
	switch res {
	case Hour:
		ds, de := c.Day(t)
		s := ds + (t-ds)/hourMs*hourMs
		return s, min(s+hourMs, de)
	case Day:
		return c.Day(t)
	case Month:
		return c.Month(t)
	default:
		return c.Year(t)
	}
}

// LocalDate returns the start and end of the local calendar date of d (its year, month
// and day, whatever its zone).
func (c *Calendar) LocalDate(d time.Time) (start, end int64) {
	y, m, dd := d.Date()
	return c.Day(time.Date(y, m, dd, 12, 0, 0, 0, c.Loc).UnixMilli())
}

func hoursIn(start, end int64) int { return int((end - start + hourMs - 1) / hourMs) }
func slotsIn(start, end int64) int { return int((end - start + slotMs - 1) / slotMs) }

// Resolution is a roll-up bucket size.
type Resolution int

// Resolutions, finest first. Raw means the samples themselves.
const (
	Raw Resolution = iota
	Hour
	Day
	Month
	Year
)

var resolutionNames = [...]string{"raw", "hour", "day", "month", "year"}

func (r Resolution) String() string {
	if r < Raw || r > Year {
		return "unknown"
	}
	return resolutionNames[r]
}

// ParseResolution reads "raw", "hour", "day", "month" or "year".
func ParseResolution(s string) (Resolution, bool) {
	for i, n := range resolutionNames {
		if n == s {
			return Resolution(i), true
		}
	}
	return 0, false
}
