package monitor

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Every comparison rule at its edges, in a northern and a southern DST zone.
func TestLikeWindow(t *testing.T) {
	for _, zone := range []string{"Europe/Berlin", "Australia/Sydney"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		at := func(y int, m time.Month, d, hh, mm int) time.Time { return time.Date(y, m, d, hh, mm, 0, 0, loc) }
		cases := []struct {
			name     string
			res      telemetry.Resolution
			now      time.Time
			from, to time.Time
		}{
			{"just after midnight: five minutes of yesterday", telemetry.Day, at(2026, 3, 10, 0, 5), at(2026, 3, 9, 0, 0), at(2026, 3, 9, 0, 5)},
			{"just after midnight: last month to the same day", telemetry.Month, at(2026, 3, 10, 0, 5), at(2026, 2, 1, 0, 0), at(2026, 2, 10, 0, 5)},
			{"just after midnight on new year: five minutes of last year", telemetry.Year, at(2026, 1, 1, 0, 5), at(2025, 1, 1, 0, 0), at(2025, 1, 1, 0, 5)},
			{"just after midnight on the 1st: five minutes of last month", telemetry.Month, at(2026, 3, 1, 0, 5), at(2026, 2, 1, 0, 0), at(2026, 2, 1, 0, 5)},
			{"the 1st: yesterday is the last day of last month", telemetry.Day, at(2026, 3, 1, 9, 0), at(2026, 2, 28, 0, 0), at(2026, 2, 28, 9, 0)},
			{"the 1st of January: last month is December", telemetry.Month, at(2026, 1, 1, 9, 0), at(2025, 12, 1, 0, 0), at(2025, 12, 1, 9, 0)},
			{"the 31st against a 30-day month: all of it", telemetry.Month, at(2026, 5, 31, 9, 0), at(2026, 4, 1, 0, 0), at(2026, 5, 1, 0, 0)},
			{"the 31st against February: all of it", telemetry.Month, at(2026, 3, 31, 9, 0), at(2026, 2, 1, 0, 0), at(2026, 3, 1, 0, 0)},
			{"the 31st against a 31-day month", telemetry.Month, at(2026, 8, 31, 9, 0), at(2026, 7, 1, 0, 0), at(2026, 7, 31, 9, 0)},
			{"the 30th against a 30-day month", telemetry.Month, at(2026, 5, 30, 9, 0), at(2026, 4, 1, 0, 0), at(2026, 4, 30, 9, 0)},
			{"31 December: last year to the same date", telemetry.Year, at(2026, 12, 31, 23, 59), at(2025, 1, 1, 0, 0), at(2025, 12, 31, 23, 59)},
			{"leap day: last year up to the end of February", telemetry.Year, at(2028, 2, 29, 9, 0), at(2027, 1, 1, 0, 0), at(2027, 3, 1, 0, 0)},
			{"leap day: last month to the 29th", telemetry.Month, at(2028, 2, 29, 9, 0), at(2028, 1, 1, 0, 0), at(2028, 1, 29, 9, 0)},
			{"leap day: yesterday is the 28th", telemetry.Day, at(2028, 2, 29, 9, 0), at(2028, 2, 28, 0, 0), at(2028, 2, 28, 9, 0)},
			{"day after a leap day: yesterday is the 29th", telemetry.Day, at(2028, 3, 1, 9, 0), at(2028, 2, 29, 0, 0), at(2028, 2, 29, 9, 0)},
			{"the 29th of March after a leap February", telemetry.Month, at(2028, 3, 29, 9, 0), at(2028, 2, 1, 0, 0), at(2028, 2, 29, 9, 0)},
			{"the 29th of March after a common February: all of it", telemetry.Month, at(2029, 3, 29, 9, 0), at(2029, 2, 1, 0, 0), at(2029, 3, 1, 0, 0)},
			{"28 February after a leap year", telemetry.Year, at(2029, 2, 28, 9, 0), at(2028, 1, 1, 0, 0), at(2028, 2, 28, 9, 0)},
			{"09:00 local", telemetry.Day, at(2026, 6, 15, 9, 0), at(2026, 6, 14, 0, 0), at(2026, 6, 14, 9, 0)},
		}
		for _, c := range cases {
			t.Run(zone+"/"+c.name, func(t *testing.T) {
				w := LikeWindow(c.res, c.now, loc)
				if !w.From.Equal(c.from) || !w.To.Equal(c.to) {
					t.Fatalf("%s at %s: [%s, %s), want [%s, %s)", c.res, c.now, w.From, w.To, c.from, c.to)
				}
				// the same instant seen from another zone gives the same window
				if w2 := LikeWindow(c.res, c.now.UTC(), loc); !w2.From.Equal(w.From) || !w2.To.Equal(w.To) {
					t.Fatalf("window depends on the zone of now: %v vs %v", w2, w)
				}
			})
		}
	}
}

// DST: the comparison runs to the same wall-clock time, so the compared stretches last
// different hours on and after a change; a skipped or doubled time is taken as Go
// normalises it, inside yesterday.
func TestLikeWindowDST(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	sydney, _ := time.LoadLocation("Australia/Sydney")
	utc := func(y int, m time.Month, d, hh, mm int) time.Time { return time.Date(y, m, d, hh, mm, 0, 0, time.UTC) }
	cases := []struct {
		name     string
		loc      *time.Location
		res      telemetry.Resolution
		now      time.Time
		from, to time.Time
		hours    float64 // length of the compared stretch
	}{
		// Berlin springs forward on 29 March 2026 (02:00 CET → 03:00 CEST).
		{"Berlin, on the spring change at 09:00: nine hours of yesterday", berlin, telemetry.Day,
			time.Date(2026, 3, 29, 9, 0, 0, 0, berlin), utc(2026, 3, 27, 23, 0), utc(2026, 3, 28, 8, 0), 9},
		{"Berlin, the day after, 02:30 (skipped yesterday)", berlin, telemetry.Day,
			time.Date(2026, 3, 30, 2, 30, 0, 0, berlin), utc(2026, 3, 28, 23, 0), utc(2026, 3, 29, 1, 30), 2.5},
		{"Berlin, the day after, 09:00: eight hours of the short day", berlin, telemetry.Day,
			time.Date(2026, 3, 30, 9, 0, 0, 0, berlin), utc(2026, 3, 28, 23, 0), utc(2026, 3, 29, 7, 0), 8},
		// Berlin falls back on 25 October 2026 (03:00 CEST → 02:00 CET).
		{"Berlin, the day after the autumn change, 09:00: ten hours of the long day", berlin, telemetry.Day,
			time.Date(2026, 10, 26, 9, 0, 0, 0, berlin), utc(2026, 10, 24, 22, 0), utc(2026, 10, 25, 8, 0), 10},
		{"Berlin, April to date against March across the change", berlin, telemetry.Month,
			time.Date(2026, 4, 2, 0, 0, 0, 0, berlin), utc(2026, 2, 28, 23, 0), utc(2026, 3, 1, 23, 0), 24},
		// Sydney falls back on 5 April 2026 (03:00 AEDT → 02:00 AEST) and springs forward
		// on 4 October 2026 (02:00 AEST → 03:00 AEDT).
		{"Sydney, the day after the autumn change, 09:00", sydney, telemetry.Day,
			time.Date(2026, 4, 6, 9, 0, 0, 0, sydney), utc(2026, 4, 4, 13, 0), utc(2026, 4, 4, 23, 0), 10},
		{"Sydney, the day after the spring change, 02:30 (skipped yesterday)", sydney, telemetry.Day,
			time.Date(2026, 10, 5, 2, 30, 0, 0, sydney), utc(2026, 10, 3, 14, 0), utc(2026, 10, 3, 16, 30), 2.5},
		{"Sydney, on the spring change just after midnight", sydney, telemetry.Day,
			time.Date(2026, 10, 4, 0, 5, 0, 0, sydney), utc(2026, 10, 2, 14, 0), utc(2026, 10, 2, 14, 5), 5.0 / 60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := LikeWindow(c.res, c.now, c.loc)
			if !w.From.Equal(c.from) || !w.To.Equal(c.to) {
				t.Fatalf("[%s, %s), want [%s, %s)", w.From.UTC(), w.To.UTC(), c.from, c.to)
			}
			if h := w.To.Sub(w.From).Hours(); h != c.hours {
				t.Fatalf("%.2f hours compared, want %.2f", h, c.hours)
			}
		})
	}
}

// A window is answered by whole months, whole days and the hours of its last day, the
// last hour pro rata.
func TestWindowParts(t *testing.T) {
	cal := telemetry.CalendarFor("Europe/Berlin")
	loc := cal.Loc
	at := func(m time.Month, d, hh, mm int) time.Time { return time.Date(2026, m, d, hh, mm, 0, 0, loc) }
	months, days, hours := parts(cal, Window{From: at(1, 1, 0, 0), To: at(3, 10, 9, 30)})
	if !months.From.Equal(at(1, 1, 0, 0)) || !months.To.Equal(at(3, 1, 0, 0)) ||
		!days.From.Equal(at(3, 1, 0, 0)) || !days.To.Equal(at(3, 10, 0, 0)) ||
		!hours.From.Equal(at(3, 10, 0, 0)) || !hours.To.Equal(at(3, 10, 9, 30)) {
		t.Fatalf("months %v days %v hours %v", months, days, hours)
	}
	months, days, hours = parts(cal, Window{From: at(2, 1, 0, 0), To: at(3, 1, 0, 0)})
	if !months.To.Equal(at(3, 1, 0, 0)) || days.To.After(days.From) || hours.To.After(hours.From) {
		t.Fatalf("a window ending on a month boundary: months %v days %v hours %v", months, days, hours)
	}
	months, days, hours = parts(cal, Window{From: at(3, 9, 0, 0), To: at(3, 9, 0, 5)})
	if months.To.After(months.From) || days.To.After(days.From) || !hours.From.Equal(at(3, 9, 0, 0)) {
		t.Fatalf("five minutes after midnight: months %v days %v hours %v", months, days, hours)
	}

	var pts []telemetry.EnergyPoint
	for h := 0; h < 24; h++ {
		pts = append(pts, telemetry.EnergyPoint{Start: at(3, 10, h, 0), End: at(3, 10, h+1, 0), Flows: telemetry.Flows{PVKWh: 10}})
	}
	if got := sumWindow(pts, Window{From: at(3, 10, 0, 0), To: at(3, 10, 9, 30)}); got != 95 {
		t.Fatalf("nine and a half hours of 10 kWh: %v", got)
	}
	if got := sumWindow(pts, Window{From: at(3, 10, 0, 0), To: at(3, 10, 0, 0)}); got != 0 {
		t.Fatalf("an empty window: %v", got)
	}
}
