package telemetry

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// rawSeries reads one column of a device's samples in [from, to) into out, in one
// statement (as rawUnion): the rows' one column, the chunks reaching the range and, when
// the range reaches a day that may be sealed, the sealed days. Of a sealed day, power is
// read from its power row (a small row, decoded without inflating), or from the block for
// a block sealed before power rows that has none yet; any other column from the block.
func (r *Reader) rawSeries(ctx context.Context, deviceID int64, column string, from, to int64, out Series) (Series, error) {
	col := blockColumn(column)
	if col == -3 {
		return out, fmt.Errorf("telemetry: no column %q in sample blocks", column)
	}
	blob := blobType(r.db)
	q := "SELECT ts, CAST(" + column + " AS DOUBLE PRECISION), CAST(NULL AS " + blob + ") FROM telemetry_samples WHERE device_id = ? AND ts >= ? AND ts < ? " +
		"UNION ALL SELECT start_ts, NULL, data FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts > ? AND start_ts < ? AND end_ts > ?"
	args := []any{deviceID, from, to, deviceID, from - blockSpan, to, from}
	switch {
	case !maySeal(from, r.opt.Now().UnixMilli()):
	case col == 0:
		q += " UNION ALL SELECT start_ts, NULL, data FROM telemetry_sample_power WHERE device_id = ? AND start_ts > ? AND start_ts < ?" +
			// only a device on the list of migration 0190 may have blocks without power rows:
			// for the others the statement reads no block
			" UNION ALL SELECT start_ts, NULL, data FROM telemetry_sample_blocks b WHERE device_id = ? AND start_ts > ? AND start_ts < ?" +
			" AND EXISTS (SELECT 1 FROM telemetry_sample_power_todo t WHERE t.device_id = ?)" +
			" AND NOT EXISTS (SELECT 1 FROM telemetry_sample_power p WHERE p.device_id = b.device_id AND p.start_ts = b.start_ts)"
		args = append(args, deviceID, from-blockSpan, to, deviceID, from-blockSpan, to, deviceID)
	default:
		q += " UNION ALL SELECT start_ts, NULL, data FROM telemetry_sample_blocks WHERE device_id = ? AND start_ts > ? AND start_ts < ?"
		args = append(args, deviceID, from-blockSpan, to)
	}
	rows, err := r.db.Query(ctx, q, args...)
	if err != nil {
		return out, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ts int64
		var v sql.NullFloat64
		var data sql.RawBytes // the driver's copy, decoded before the next row: not copied again
		if err := rows.Scan(&ts, &v, &data); err != nil {
			return out, fmt.Errorf("telemetry: unable to read samples: %w", err)
		}
		if data == nil {
			out.Points = append(out.Points, [2]float64{float64(ts), v.Float64})
			continue
		}
		if out.Points, err = appendBlockPoints(out.Points, data, col, from, to); err != nil {
			return out, fmt.Errorf("telemetry: block of device %d at %d: %w", deviceID, ts, err)
		}
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	byTime := func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) }
	if !slices.IsSortedFunc(out.Points, byTime) { // the days of a sealed range come in order
		slices.SortFunc(out.Points, byTime)
	}
	return out, nil
}
