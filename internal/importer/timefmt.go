package importer

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Time formats a file's time column may use. The names are what a mapping stores; all
// but the unix and Excel ones are Go layouts.
const (
	TimeUnix  = "unix"           // seconds since 1970
	TimeUnixM = "unix_ms"        // milliseconds since 1970
	TimeExcel = "excel_serial"   // days since 1899-12-30 (an XLSX cell without its format)
	TimeRFC   = time.RFC3339Nano // an offset or Z in the value: the value's zone wins
)

// layouts are tried in this order; a day-first and a month-first layout both parse
// "03/04/2025", which detectTime resolves from the values.
var layouts = []string{
	TimeRFC,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"2006-01-02",
	"02/01/2006 15:04:05",
	"02/01/2006 15:04",
	"01/02/2006 15:04:05",
	"01/02/2006 15:04",
	"02.01.2006 15:04:05",
	"02.01.2006 15:04",
	"1/2/2006 15:04",
	"2/1/2006 15:04",
	"02/01/2006",
	"01/02/2006",
}

// hasOffset reports whether a layout carries the zone in the value.
func hasOffset(layout string) bool { return strings.Contains(layout, "Z07") }

// ParseTime reads v in format (a layout or TimeUnix, TimeUnixM, TimeExcel); values without an
// offset are read in loc.
func ParseTime(v, format string, loc *time.Location) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	switch format {
	case TimeUnix, TimeUnixM:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(v, 64)
			if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e15 {
				return time.Time{}, false
			}
			n = int64(f)
		}
		if format == TimeUnix {
			return time.Unix(n, 0).UTC(), true
		}
		return time.UnixMilli(n).UTC(), true
	case TimeExcel:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 1 || f > 2958465 {
			return time.Time{}, false
		}
		days := math.Floor(f)
		ms := math.Round((f - days) * 86400000)
		d := time.Date(1899, 12, 30, 0, 0, 0, 0, loc).AddDate(0, 0, int(days))
		return d.Add(time.Duration(ms) * time.Millisecond), true
	}
	if hasOffset(format) {
		t, err := time.Parse(format, v)
		return t, err == nil
	}
	t, err := time.ParseInLocation(format, v, loc)
	return t, err == nil
}

// detectTime picks the format that reads every non-empty value of the sample. Day-first
// and month-first layouts that both read them all are told apart by the values: a first
// field above 12 settles it, else the reading whose consecutive dates step by at most two
// days (as a time series does) wins. ambiguous is true when nothing settled it.
func detectTime(values []string) (format string, ambiguous bool) {
	// a format must read four values in five (a file may hold a few bad rows); the one
	// reading the most wins, the earlier in layouts on a tie
	var ok []string
	bestGood := 0
	for _, f := range append(append([]string{}, layouts...), TimeUnixM, TimeUnix, TimeExcel) {
		n, good := 0, 0
		for _, v := range values {
			if strings.TrimSpace(v) == "" {
				continue
			}
			n++
			if t, g := ParseTime(v, f, time.UTC); g && plausibleYear(t) {
				good++
			}
		}
		if good == 0 || good*5 < n*4 || good < bestGood {
			continue
		}
		if good > bestGood {
			ok, bestGood = ok[:0], good
		}
		ok = append(ok, f)
	}
	if len(ok) == 0 {
		return "", false
	}
	best := ok[0]
	if len(ok) > 1 && isDayMonth(ok[0]) {
		// several readings: prefer the one whose dates move like a series
		bestScore := -1
		for _, f := range ok {
			if !isDayMonth(f) {
				continue
			}
			if s := seriesScore(values, f); s > bestScore {
				best, bestScore = f, s
			}
		}
		tie := 0
		for _, f := range ok {
			if isDayMonth(f) && seriesScore(values, f) == bestScore && dayFirst(f) != dayFirst(best) {
				tie++
			}
		}
		ambiguous = tie > 0
	}
	return best, ambiguous
}

func plausibleYear(t time.Time) bool { return t.Year() >= 1990 && t.Year() <= 2100 }

func isDayMonth(f string) bool {
	return strings.HasPrefix(f, "02/") || strings.HasPrefix(f, "01/") || strings.HasPrefix(f, "1/") || strings.HasPrefix(f, "2/")
}

func dayFirst(f string) bool { return strings.HasPrefix(f, "02/") || strings.HasPrefix(f, "2/") }

// seriesScore counts consecutive values whose dates are 0 to 2 days apart in format f.
func seriesScore(values []string, f string) int {
	score := 0
	var prev time.Time
	for _, v := range values {
		t, ok := ParseTime(v, f, time.UTC)
		if !ok {
			continue
		}
		if !prev.IsZero() {
			if d := t.Sub(prev); d >= 0 && d <= 48*time.Hour {
				score++
			}
		}
		prev = t
	}
	return score
}
