package monitor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Comparison rules (docs/kpi.md): the current period so far is set against the same
// stretch of the previous period, in each station's own timezone.
const (
	// CompareDay: today up to now against yesterday up to the same local clock time.
	CompareDay = "sameTimeYesterday"
	// CompareMonth: this month to date against last month up to the same day and time.
	CompareMonth = "sameDaysLastMonth"
	// CompareYear: this year to date against last year up to the same date and time.
	CompareYear = "sameDaysLastYear"
)

// Window is a stretch of time [From, To).
type Window struct{ From, To time.Time }

// LikeWindow returns the stretch of the period before the one holding now (res Day,
// Month or Year) that is compared with the current period so far: from the previous
// period's start up to the same local day and clock time. When that day does not exist
// in the previous period (the 31st against a 30-day month, 29 February against a common
// year) the previous period counts up to the end of that month. A clock time that a DST
// change skipped in the previous day is taken as Go normalises it, and the window never
// runs past the previous period's end.
func LikeWindow(res telemetry.Resolution, now time.Time, loc *time.Location) Window {
	l := now.In(loc)
	y, m, d := l.Date()
	hh, mm, ss := l.Clock()
	ns := l.Nanosecond()
	var from, end time.Time
	var py int
	var pm time.Month
	switch res {
	case telemetry.Day:
		from = time.Date(y, m, d-1, 0, 0, 0, 0, loc)
		end = time.Date(y, m, d, 0, 0, 0, 0, loc)
		return Window{From: from, To: clampTime(time.Date(y, m, d-1, hh, mm, ss, ns, loc), from, end)}
	case telemetry.Month:
		from = time.Date(y, m-1, 1, 0, 0, 0, 0, loc)
		end = time.Date(y, m, 1, 0, 0, 0, 0, loc)
		py, pm = from.Year(), from.Month()
	default:
		from = time.Date(y-1, 1, 1, 0, 0, 0, 0, loc)
		end = time.Date(y, 1, 1, 0, 0, 0, 0, loc)
		py, pm = y-1, m
	}
	var to time.Time
	if d > daysIn(py, pm) {
		to = time.Date(py, pm+1, 1, 0, 0, 0, 0, loc)
	} else {
		to = time.Date(py, pm, d, hh, mm, ss, ns, loc)
	}
	return Window{From: from, To: clampTime(to, from, end)}
}

func daysIn(y int, m time.Month) int { return time.Date(y, m+1, 0, 12, 0, 0, 0, time.UTC).Day() }

func clampTime(t, lo, hi time.Time) time.Time {
	if t.Before(lo) {
		return lo
	}
	if t.After(hi) {
		return hi
	}
	return t
}

// parts splits a window into the whole local months, whole local days and the hours of
// the last day that the roll-ups answer: months [From, month of To), days up to To's day,
// hours up to To (the last hour pro rata).
func parts(cal *telemetry.Calendar, w Window) (months, days, hours Window) {
	ms, _ := cal.Month(w.To.UnixMilli())
	ds, _ := cal.Day(w.To.UnixMilli())
	msT, dsT := time.UnixMilli(ms), time.UnixMilli(ds)
	if w.To.UnixMilli() == ms { // ends on a month boundary: nothing of that month
		msT, dsT = w.To, w.To
	}
	months = Window{From: w.From, To: maxTime(w.From, msT)}
	days = Window{From: maxTime(w.From, msT), To: maxTime(w.From, dsT)}
	hours = Window{From: maxTime(w.From, dsT), To: w.To}
	return months, days, hours
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// sumWindow adds the PV energy of the buckets inside w; a bucket that w cuts counts pro
// rata of its length.
func sumWindow(pts []telemetry.EnergyPoint, w Window) float64 {
	var sum float64
	for _, p := range pts {
		lo, hi := maxTime(p.Start, w.From), p.End
		if w.To.Before(hi) {
			hi = w.To
		}
		if !hi.After(lo) {
			continue
		}
		sum += p.PVKWh * float64(hi.Sub(lo)) / float64(p.End.Sub(p.Start))
	}
	return sum
}

// likeEnergies returns, for each period res (Day, Month or Year) and per station, the
// PV energy of the compared stretch of the previous period (LikeWindow in the station's
// timezone). A station whose history does not reach back to that stretch's start is left
// out: its period is not compared. The stations' first days are read and the stations
// grouped by zone once for all periods.
func (f *Figures) likeEnergies(ctx context.Context, sts []*station.Station, res ...telemetry.Resolution) ([]map[int64]float64, error) {
	now := f.now()
	first, err := f.firstDays(ctx, sts)
	if err != nil {
		return nil, err
	}
	out := make([]map[int64]float64, len(res))
	var zones []*zone
	if f.Fleet != nil {
		zones = byZone(sts)
	}
	for i, r := range res {
		if f.Fleet != nil {
			out[i], err = f.zoneLikeEnergy(ctx, zones, r, now, first)
		} else {
			out[i], err = f.sqlLikeEnergy(ctx, sts, r, now, first)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sqlLikeEnergy is one period of likeEnergies, from the roll-ups.
func (f *Figures) sqlLikeEnergy(ctx context.Context, sts []*station.Station, res telemetry.Resolution, now time.Time, first map[int64]int64) (map[int64]float64, error) {
	type plan struct{ months, days, hours Window }
	plans := map[int64]plan{}
	span := map[telemetry.Resolution]*Window{}
	ids := map[telemetry.Resolution][]int64{}
	for _, st := range sts {
		cal := telemetry.CalendarFor(st.Timezone)
		w := LikeWindow(res, now, cal.Loc)
		if fd, ok := first[st.ID]; !ok || fd > w.From.UnixMilli() {
			continue
		}
		p := plan{}
		p.months, p.days, p.hours = parts(cal, w)
		plans[st.ID] = p
		for r, pw := range map[telemetry.Resolution]Window{telemetry.Month: p.months, telemetry.Day: p.days, telemetry.Hour: p.hours} {
			if !pw.To.After(pw.From) {
				continue
			}
			ids[r] = append(ids[r], st.ID)
			if s := span[r]; s == nil {
				span[r] = &Window{From: pw.From, To: pw.To}
			} else {
				s.From, s.To = minTime(s.From, pw.From), maxTime(s.To, pw.To)
			}
		}
	}
	out := make(map[int64]float64, len(plans))
	for id := range plans {
		out[id] = 0
	}
	for r, list := range ids {
		s := span[r]
		// an hour query asks from the day's start: buckets are listed by their start
		pts, err := f.energyPoints(ctx, list, r, s.From, s.To)
		if err != nil {
			return nil, err
		}
		for _, id := range list {
			p := plans[id]
			w := map[telemetry.Resolution]Window{telemetry.Month: p.months, telemetry.Day: p.days, telemetry.Hour: p.hours}[r]
			out[id] += sumWindow(pts[id], w)
		}
	}
	return out, nil
}

// energyPoints is StationEnergy's PV points, from the fleet state when it keeps the range.
func (f *Figures) energyPoints(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]telemetry.EnergyPoint, error) {
	if f.Fleet != nil {
		got, ok, err := f.Fleet.Flows(ctx, ids, res, from, to)
		if err != nil {
			return nil, err
		}
		if ok {
			out := make(map[int64][]telemetry.EnergyPoint, len(got))
			for id, list := range got {
				pts := make([]telemetry.EnergyPoint, len(list))
				for i, p := range list {
					pts[i] = telemetry.EnergyPoint{Start: p.Start, End: p.End, Flows: p.Flows}
				}
				out[id] = pts
			}
			return out, nil
		}
	}
	return f.Reader.StationEnergy(ctx, ids, res, from, to)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// firstDays returns, per station, the start of its first daily roll-up (stations without
// history are absent).
func (f *Figures) firstDays(ctx context.Context, sts []*station.Station) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(sts) == 0 {
		return out, nil
	}
	if f.Fleet != nil {
		ids := make([]int64, len(sts))
		for i, st := range sts {
			ids[i] = st.ID
		}
		return f.Fleet.FirstDays(ctx, ids)
	}
	args := make([]any, 0, len(sts)+1)
	args = append(args, int(telemetry.Day))
	for _, st := range sts {
		args = append(args, st.ID)
	}
	rows, err := f.DB.Query(ctx, `SELECT station_id, MIN(bucket) FROM telemetry_station_rollups WHERE res = ? AND station_id IN (`+
		strings.TrimSuffix(strings.Repeat("?,", len(sts)), ",")+`) GROUP BY station_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("monitor: unable to read history start: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, b int64
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		out[id] = b
	}
	return out, rows.Err()
}
