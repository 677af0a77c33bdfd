package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// Energy and totals of stations and of the fleet: the figures the monitor's tiles read.

// Totals are a station's (or a fleet's) flows today, this month, this year and in all,
// by each station's own calendar.
type Totals struct {
	Today Flows `json:"today"`
	Month Flows `json:"month"`
	Year  Flows `json:"year"`
	Total Flows `json:"total"`
}

// StationTotals returns each station's totals (sub-stations included) at the clock's now.
func (r *Reader) StationTotals(ctx context.Context, stationIDs []int64) (map[int64]Totals, error) {
	cals, err := r.stationCalendars(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	now := r.opt.Now().UnixMilli()
	monthLo, dayLo := int64(math.MaxInt64), int64(math.MaxInt64)
	for _, cal := range cals {
		m, _ := cal.Month(now)
		d, _ := cal.Day(now)
		monthLo, dayLo = min(monthLo, m), min(dayLo, d)
	}
	out := make(map[int64]Totals, len(stationIDs))
	for _, chunk := range chunks(stationIDs, 400) {
		// every year, this month and today: an index range each per station (an OR would
		// walk all of the station's rows)
		sel := "SELECT station_id, kind, res, bucket, energy_kwh, energy2_kwh FROM telemetry_station_rollups WHERE station_id IN (" + placeholders(len(chunk)) + ")"
		var args []any
		for _, a := range [][]any{{int(Year), int64(math.MinInt64)}, {int(Month), monthLo}, {int(Day), dayLo}} {
			args = append(append(args, int64Args(chunk)...), a...)
		}
		rows, err := r.db.Query(ctx, sel+" AND res = ? AND bucket >= ? UNION ALL "+sel+" AND res = ? AND bucket >= ? UNION ALL "+sel+" AND res = ? AND bucket >= ?", args...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
		for rows.Next() {
			var id, bucket int64
			var kind string
			var res int
			var s Stats
			if err := rows.Scan(&id, &kind, &res, &bucket, &s.EnergyKWh, &s.Energy2KWh); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
			}
			cal, ok := cals[id]
			if !ok {
				continue
			}
			t := out[id]
			switch Resolution(res) {
			case Year:
				t.Total.add(kind, &s)
				if ys, _ := cal.Year(now); ys == bucket {
					t.Year.add(kind, &s)
				}
			case Month:
				if ms, _ := cal.Month(now); ms == bucket {
					t.Month.add(kind, &s)
				}
			case Day:
				if ds, _ := cal.Day(now); ds == bucket {
					t.Today.add(kind, &s)
				}
			}
			out[id] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
	}
	// lifetime: the devices' opening counters and what was recorded since
	open, err := r.StationOpenings(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	for id, f := range open {
		if _, ok := cals[id]; ok {
			t := out[id]
			t.Total.sum(f)
			out[id] = t
		}
	}
	return out, nil
}

// FleetTotals sums StationTotals over the stations, counting a sub-station only when its
// parent is not in the list (the parent's totals include it).
func (r *Reader) FleetTotals(ctx context.Context, stationIDs []int64) (Totals, error) {
	parents := map[int64]int64{}
	rows, err := r.db.Query(ctx, "SELECT id, parent_id FROM stations")
	if err != nil {
		return Totals{}, fmt.Errorf("telemetry: unable to read stations: %w", err)
	}
	for rows.Next() {
		var id int64
		var p sql.NullInt64
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return Totals{}, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
		parents[id] = p.Int64
	}
	rows.Close()
	in := map[int64]bool{}
	for _, id := range stationIDs {
		in[id] = true
	}
	var top []int64
	for _, id := range stationIDs {
		covered := false
		for p, n := parents[id], 0; p != 0 && n < 16; p, n = parents[p], n+1 {
			if in[p] {
				covered = true
				break
			}
		}
		if !covered {
			top = append(top, id)
		}
	}
	per, err := r.StationTotals(ctx, top)
	if err != nil {
		return Totals{}, err
	}
	var t Totals
	for _, s := range per {
		t.Today.sum(s.Today)
		t.Month.sum(s.Month)
		t.Year.sum(s.Year)
		t.Total.sum(s.Total)
	}
	return t, nil
}

func (r *Reader) stationCalendars(ctx context.Context, ids []int64) (map[int64]*Calendar, error) {
	out := make(map[int64]*Calendar, len(ids))
	for _, chunk := range chunks(ids, 400) {
		rows, err := r.db.Query(ctx, "SELECT id, timezone FROM stations WHERE id IN ("+placeholders(len(chunk))+")", int64Args(chunk)...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
		for rows.Next() {
			var id int64
			var tz string
			if err := rows.Scan(&id, &tz); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
			}
			out[id] = CalendarFor(tz)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
	}
	return out, nil
}
