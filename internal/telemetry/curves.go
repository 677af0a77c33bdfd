package telemetry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// A station's day curve, and where a live curve stops.

// StationPowerCurve returns a station's PV power (sum over its inverters, sub-stations
// included) as 5-minute averages over one local day, in kW: [[unixMillis, kW], …].
// localDay's year, month and day name the day in the station's timezone.
func (r *Reader) StationPowerCurve(ctx context.Context, stationID int64, localDay time.Time) ([][2]float64, error) {
	return r.StationCurve(ctx, stationID, "inverter", localDay)
}

// StationCurve is StationPowerCurve for any device kind (batteries and meters: signed).
func (r *Reader) StationCurve(ctx context.Context, stationID int64, kind string, localDay time.Time) ([][2]float64, error) {
	return r.StationCurveWith(ctx, stationID, kind, localDay, nil)
}

// Cutoff answers CurveCutoff from elsewhere (the fleet state's latest samples): ok false
// when it cannot.
type Cutoff func(ctx context.Context, stationID int64, kind string, start, end int64) (cutoff int64, ok bool, err error)

// StationCurveWith is StationCurve with the curve's cutoff from cut when it answers.
func (r *Reader) StationCurveWith(ctx context.Context, stationID int64, kind string, localDay time.Time, cut Cutoff) ([][2]float64, error) {
	cals, err := r.stationCalendars(ctx, []int64{stationID})
	if err != nil {
		return nil, err
	}
	cal, ok := cals[stationID]
	if !ok {
		return nil, store.ErrNotFound
	}
	start, end := cal.LocalDate(localDay)
	var slots []byte
	err = r.db.QueryRow(ctx, "SELECT slots FROM telemetry_station_rollups WHERE station_id = ? AND kind = ? AND res = ? AND bucket = ?",
		stationID, kind, int(Day), start).Scan(&slots)
	if errors.Is(err, sql.ErrNoRows) {
		return [][2]float64{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
	}
	d := newDayAcc(start, end, true)
	if err := unpackSlots(slots, d.slots); err != nil {
		return nil, err
	}
	var cutoff int64
	ok = false
	if cut != nil {
		if cutoff, ok, err = cut(ctx, stationID, kind, start, end); err != nil {
			return nil, err
		}
	}
	if !ok {
		if cutoff, err = r.CurveCutoff(ctx, stationID, kind, start, end); err != nil {
			return nil, err
		}
	}
	out := make([][2]float64, 0, len(d.slots))
	for i, v := range d.slots {
		if !math.IsNaN(v) && start+int64(i+1)*slotMs <= cutoff {
			out = append(out, [2]float64{float64(start + int64(i)*slotMs), v * float64(hourMs/slotMs)})
		}
	}
	return out, nil
}

// liveWindow is how far behind the station's newest sample a device may be and still count
// as reporting (three 5-minute intervals): one that has gone quiet does not hold the curve back.
const liveWindow = 15 * 60 * 1000

// CurveCutoff is the end of the part of a day's curve every reporting device has covered.
// A slot's energy is integrated between each device's samples, so the slots after the
// oldest of the reporting devices' latest samples are still open: drawn, they would show a
// false drop at the end of today's curve. A finished day's cutoff is its end.
func (r *Reader) CurveCutoff(ctx context.Context, stationID int64, kind string, start, end int64) (int64, error) {
	typ, pos := kind, ""
	if t, p, ok := strings.Cut(kind, ":"); ok {
		typ, pos = t, p
	}
	q := `SELECT l.ts FROM telemetry_latest l JOIN devices d ON d.id = l.device_id
		WHERE d.parent_id IS NULL AND d.type = ? AND l.ts >= ?
		AND (d.station_id = ? OR d.station_id IN (SELECT id FROM stations WHERE parent_id = ?))`
	args := []any{typ, start, stationID, stationID}
	if pos != "" {
		q += " AND d.meter_position = ?"
		args = append(args, pos)
	}
	rows, err := r.db.Query(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
	}
	defer rows.Close()
	var ts []int64
	newest := int64(math.MinInt64)
	for rows.Next() {
		var t int64
		if err := rows.Scan(&t); err != nil {
			return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
		}
		ts = append(ts, t)
		newest = max(newest, t)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
	}
	return CutoffOf(ts, newest, end), nil
}

// CutoffOf is the cutoff of a day [start, end) whose reporting devices' latest samples
// are ts (each at or after start), newest the latest of them: the oldest of those within
// liveWindow of the newest, or end when none is before it.
func CutoffOf(ts []int64, newest, end int64) int64 {
	cutoff := end
	for _, t := range ts {
		if t >= newest-liveWindow {
			cutoff = min(cutoff, t)
		}
	}
	return cutoff
}
