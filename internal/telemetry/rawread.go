package telemetry

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Reads of raw samples outside a write's transaction. A read of rows and then of blocks
// could miss a day that a write unsealed in between, or see one twice that the sealer
// sealed in between; so a read that needs both reads them in one statement (UNION ALL),
// which sees one state of the database on both.

// rawUnion reads a device's rows matching rowsWhere (and rowsTail: an order and limit)
// and its blocks matching blocksWhere, in one statement; rows come back as one-sample
// block rows, blocks decoded whole.
func rawUnion(ctx context.Context, db *store.DB, deviceID int64, rowsWhere, rowsTail string, rowsArgs []any, blocksWhere string, blocksArgs []any) ([]blockRow, error) {
	blob := blobType(db)
	q := "SELECT * FROM (SELECT " + sampleCols + ", CAST(NULL AS " + blob + ") AS data FROM telemetry_samples WHERE device_id = ? AND " +
		rowsWhere + " " + rowsTail + ") AS r UNION ALL SELECT start_ts, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, data " +
		"FROM telemetry_sample_blocks WHERE device_id = ? AND " + blocksWhere
	args := append(append(append([]any{deviceID}, rowsArgs...), deviceID), blocksArgs...)
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	defer rows.Close()
	var out []blockRow
	for rows.Next() {
		var b blockRow
		var f [blockFloats]sql.NullFloat64
		var st, sa sql.NullInt64
		var cs sql.NullString
		var data []byte
		if err := rows.Scan(&b.T, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &st, &sa, &cs, &data); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
		}
		if data != nil {
			if out, err = appendBlock(out, data); err != nil {
				return nil, fmt.Errorf("telemetry: block of device %d at %d: %w", deviceID, b.T, err)
			}
			continue
		}
		for c := range f {
			b.F[c] = f[c].Float64
		}
		b.Status, b.Strings, b.CState, b.CStateNull = int(st.Int64), int(sa.Int64), cs.String, !cs.Valid
		out = append(out, b)
	}
	return out, rows.Err()
}

// blobType is the database's name of the blocks' data column type, for a NULL of it in a
// UNION.
func blobType(db *store.DB) string {
	if db.Dialect == store.Postgres {
		return "BYTEA"
	}
	return "BLOB"
}

// samplesOf turns block rows of a device into samples.
func samplesOf(deviceID int64, bs []blockRow) ([]Sample, error) {
	out := make([]Sample, 0, len(bs))
	for i := range bs {
		r, err := bs[i].rawRow(deviceID)
		if err != nil {
			return nil, err
		}
		out = append(out, r.Sample)
	}
	return out, nil
}

// SamplesBefore returns up to n stored samples of a device before t, newest first, from
// the rows and the sealed blocks.
func SamplesBefore(ctx context.Context, db *store.DB, deviceID int64, t time.Time, n int) ([]Sample, error) {
	before := t.UnixMilli()
	rows, err := db.Query(ctx, "SELECT "+sampleCols+" FROM telemetry_samples WHERE device_id = ? AND ts < ? ORDER BY ts DESC LIMIT ?", deviceID, before, n)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	var out []Sample
	for rows.Next() {
		r, err := scanRawRow(rows, deviceID)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
		}
		out = append(out, r.Sample)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	if len(out) == n && rowsCover(out, before) {
		return out, nil
	}
	// the rows again, with the blocks that may hold newer samples than the oldest of them
	after := int64(-1 << 62)
	if len(out) == n {
		after = out[n-1].Time.UnixMilli()
	}
	bs, err := rawUnion(ctx, db, deviceID, "ts < ?", "ORDER BY ts DESC LIMIT ?", []any{before, n}, "start_ts < ? AND end_ts > ?", []any{before, after})
	if err != nil {
		return nil, err
	}
	kept := bs[:0]
	for _, b := range bs {
		if b.T < before {
			kept = append(kept, b)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].T > kept[j].T })
	return samplesOf(deviceID, kept[:min(n, len(kept))])
}

// rowsCover reports whether samples (newest first, the newest rows before t) leave no
// room for a block sample between them and t: a day with a row has no block, so only a day
// without a found row strictly between two of them, or the day of t, could hold one.
func rowsCover(samples []Sample, t int64) bool {
	day := blockStart(t)
	for i := range samples {
		d := blockStart(samples[i].Time.UnixMilli())
		if d != day && (i == 0 || d != day-blockSpan) {
			return false
		}
		day = d
	}
	return true
}

// rawSeries reads one column of a device's samples in [from, to) into out: the rows, and
// the blocks when the range reaches a day that may be sealed.
func (r *Reader) rawSeries(ctx context.Context, deviceID int64, column string, from, to int64, out Series) (Series, error) {
	if maySeal(from, r.opt.Now().UnixMilli()) {
		return r.unionSeries(ctx, deviceID, column, from, to, out)
	}
	rows, err := r.db.Query(ctx, "SELECT ts, "+column+" FROM telemetry_samples WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts",
		deviceID, from, to)
	if err != nil {
		return out, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ts int64
		var v float64
		if err := rows.Scan(&ts, &v); err != nil {
			return out, fmt.Errorf("telemetry: unable to read samples: %w", err)
		}
		out.Points = append(out.Points, [2]float64{float64(ts), v})
	}
	return out, rows.Err()
}

// unionSeries is rawSeries over the rows and the blocks, read in one statement (as
// rawUnion): the rows' one column, and of each block only what the column needs.
func (r *Reader) unionSeries(ctx context.Context, deviceID int64, column string, from, to int64, out Series) (Series, error) {
	col := blockColumn(column)
	if col == -3 {
		return out, fmt.Errorf("telemetry: no column %q in sample blocks", column)
	}
	blob := blobType(r.db)
	rows, err := r.db.Query(ctx, "SELECT ts, CAST("+column+" AS DOUBLE PRECISION), CAST(NULL AS "+blob+") FROM telemetry_samples WHERE device_id = ? AND ts >= ? AND ts < ? "+
		"UNION ALL SELECT start_ts, NULL, data FROM telemetry_sample_blocks WHERE device_id = ? AND start_ts > ? AND start_ts < ?",
		deviceID, from, to, deviceID, from-blockSpan, to)
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
	slices.SortFunc(out.Points, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	return out, nil
}

// StoredSamples returns every stored raw sample of a device, rows and sealed blocks, in
// time order (a sample stored twice, which the write path never does, appears twice).
func StoredSamples(ctx context.Context, db *store.DB, deviceID int64) ([]Sample, error) {
	bs, err := rawUnion(ctx, db, deviceID, "1 = 1", "", nil, "1 = 1", nil)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].T < bs[j].T })
	return samplesOf(deviceID, bs)
}
