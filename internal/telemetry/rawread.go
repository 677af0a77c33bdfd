package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Reads of raw samples outside a write's transaction. A read of rows and then of blocks
// could miss a day that a write unsealed in between, or see one twice that the sealer
// sealed in between; so a read that needs both reads them in one statement (UNION ALL),
// which sees one state of the database on both.

// rawUnion reads a device's rows matching rowsWhere (and rowsTail: an order and limit)
// and its chunks and blocks matching blocksWhere, in one statement; rows come back as
// one-sample block rows, chunks and blocks (with their power rows) decoded whole.
func rawUnion(ctx context.Context, db *store.DB, deviceID int64, rowsWhere, rowsTail string, rowsArgs []any, blocksWhere string, blocksArgs []any) ([]blockRow, error) {
	blob := blobType(db)
	q := "SELECT * FROM (SELECT " + sampleCols + ", CAST(NULL AS " + blob + ") AS data, CAST(NULL AS " + blob + ") AS power FROM telemetry_samples WHERE device_id = ? AND " +
		rowsWhere + " " + rowsTail + ") AS r"
	args := append([]any{deviceID}, rowsArgs...)
	for _, part := range []string{"data, NULL FROM telemetry_sample_chunks", "data, " + blockPower + " FROM telemetry_sample_blocks b"} {
		q += " UNION ALL SELECT start_ts, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, " + part +
			" WHERE device_id = ? AND " + blocksWhere
		args = append(append(args, deviceID), blocksArgs...)
	}
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	return scanUnion(rows, deviceID)
}

// scanUnion reads the rows of a union of sample rows (a sample each, data NULL) and chunks
// or blocks (start_ts, data and a block's power row), decoding the chunks and blocks whole;
// it closes rows.
func scanUnion(rows *sql.Rows, deviceID int64) ([]blockRow, error) {
	defer rows.Close()
	var out []blockRow
	for rows.Next() {
		var err error
		if out, _, err = scanUnionRow(rows, deviceID, out); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// scanUnionRow reads one row of such a union, and the extra columns after it, onto out:
// the row's sample, or every sample of its chunk or block (its start in start).
func scanUnionRow(rows *sql.Rows, deviceID int64, out []blockRow, extra ...any) (_ []blockRow, start int64, err error) {
	var b blockRow
	var f [blockFloats]sql.NullFloat64
	var st, sa sql.NullInt64
	var cs sql.NullString
	var data, power []byte
	dest := append([]any{&b.T, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &st, &sa, &cs, &data, &power}, extra...)
	if err := rows.Scan(dest...); err != nil {
		return nil, 0, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	if data != nil {
		if out, err = appendBlock(out, data, power); err != nil {
			return nil, 0, fmt.Errorf("telemetry: block of device %d at %d: %w", deviceID, b.T, err)
		}
		return out, b.T, nil
	}
	for c := range f {
		b.F[c] = f[c].Float64
	}
	b.Status, b.Strings, b.CState, b.CStateNull = int(st.Int64), int(sa.Int64), cs.String, !cs.Valid
	return append(out, b), b.T, nil
}

// nullSampleCols are NULLs of the types of sampleCols but ts, for the chunks and blocks of a
// union with rows (in a subquery PostgreSQL takes an untyped NULL for text).
const nullSampleCols = "CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), " +
	"CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), " +
	"CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS INTEGER), " +
	"CAST(NULL AS INTEGER), CAST(NULL AS TEXT)"

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
// the rows, the chunks and the sealed blocks.
func SamplesBefore(ctx context.Context, db *store.DB, deviceID int64, t time.Time, n int) ([]Sample, error) {
	before := t.UnixMilli()
	// the newest n rows and the newest chunks up to n samples, in one statement (a write
	// between two reads could move samples from chunks to rows)
	blob := blobType(db)
	rows, err := db.Query(ctx, "SELECT * FROM (SELECT "+sampleCols+", CAST(NULL AS "+blob+") AS data, CAST(NULL AS "+blob+") AS power FROM telemetry_samples "+
		"WHERE device_id = ? AND ts < ? ORDER BY ts DESC LIMIT ?) AS r "+
		"UNION ALL SELECT * FROM (SELECT start_ts, "+nullSampleCols+", data, CAST(NULL AS "+blob+") FROM telemetry_sample_chunks "+
		"WHERE device_id = ? AND start_ts < ? ORDER BY start_ts DESC LIMIT ?) AS c", deviceID, before, n, deviceID, before, n)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	bs, err := scanUnion(rows, deviceID)
	if err != nil {
		return nil, err
	}
	var out []Sample
	{
		kept := bs[:0]
		for _, b := range bs {
			if b.T < before {
				kept = append(kept, b)
			}
		}
		sort.Slice(kept, func(i, j int) bool { return kept[i].T > kept[j].T })
		if out, err = samplesOf(deviceID, kept[:min(n, len(kept))]); err != nil {
			return nil, err
		}
	}
	if len(out) == n && rowsCover(out, before) {
		return out, nil
	}
	// the rows and chunks again, with the newest blocks before t: two (a day's block holds
	// the last samples of most devices), and every one if two leave room for a newer sample
	for _, k := range []int{2, 0} {
		bs, blocks, oldest, err := samplesWithBlocks(ctx, db, deviceID, before, n, k)
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
		// a block not read is older than the oldest read (blocks are whole days)
		if k == 0 || blocks < k || len(kept) >= n && kept[n-1].T >= oldest {
			return samplesOf(deviceID, kept[:min(n, len(kept))])
		}
	}
	panic("unreachable")
}

// samplesWithBlocks reads, in one statement, a device's n newest rows and n newest chunks
// before t and its newest k blocks starting before t (k 0: every one), decoded; it answers
// how many blocks it read and where the oldest of them starts.
func samplesWithBlocks(ctx context.Context, db *store.DB, deviceID, before int64, n, k int) (out []blockRow, blocks int, oldest int64, err error) {
	blob := blobType(db)
	limit := ""
	args := []any{deviceID, before, n, deviceID, before, n, deviceID, before}
	if k > 0 {
		limit = " LIMIT ?"
		args = append(args, k)
	}
	null := "CAST(NULL AS " + blob + ")"
	rows, err := db.Query(ctx, "SELECT * FROM (SELECT "+sampleCols+", "+null+" AS data, "+null+" AS power, 0 AS src FROM telemetry_samples "+
		"WHERE device_id = ? AND ts < ? ORDER BY ts DESC LIMIT ?) AS r "+
		"UNION ALL SELECT * FROM (SELECT start_ts, "+nullSampleCols+", data, "+null+", 1 AS src FROM telemetry_sample_chunks "+
		"WHERE device_id = ? AND start_ts < ? ORDER BY start_ts DESC LIMIT ?) AS c "+
		"UNION ALL SELECT * FROM (SELECT start_ts, "+nullSampleCols+", data, "+blockPower+", 2 AS src FROM telemetry_sample_blocks b "+
		"WHERE device_id = ? AND start_ts < ? ORDER BY start_ts DESC"+limit+") AS b", args...)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	defer rows.Close()
	oldest = 1<<63 - 1
	for rows.Next() {
		var src int
		var start int64
		if out, start, err = scanUnionRow(rows, deviceID, out, &src); err != nil {
			return nil, 0, 0, err
		}
		if src == 2 {
			blocks++
			oldest = min(oldest, start)
		}
	}
	return out, blocks, oldest, rows.Err()
}

// rowsCover reports whether samples (newest first, the newest rows and chunk samples
// before t) leave no room for a block sample between them and t: a day with a row or a
// chunk has no block, so only a day without a found sample strictly between two of them,
// or the day of t, could hold one.
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

// StoredSamples returns every stored raw sample of a device, rows, chunks and sealed
// blocks, in time order (a sample stored twice, which the write path never does, appears twice).
func StoredSamples(ctx context.Context, db *store.DB, deviceID int64) ([]Sample, error) {
	bs, err := rawUnion(ctx, db, deviceID, "1 = 1", "", nil, "1 = 1", nil)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].T < bs[j].T })
	return samplesOf(deviceID, bs)
}

// CountStored counts the stored raw samples of a device (0: of every device) at instants in
// [from, to): rows, chunks and sealed blocks.
func CountStored(ctx context.Context, db *store.DB, deviceID, from, to int64) (int64, error) {
	var n int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_samples WHERE (? = 0 OR device_id = ?) AND ts >= ? AND ts < ?",
		deviceID, deviceID, from, to).Scan(&n); err != nil {
		return 0, fmt.Errorf("telemetry: unable to count samples: %w", err)
	}
	for _, table := range []string{"telemetry_sample_chunks", "telemetry_sample_blocks"} {
		rows, err := db.Query(ctx, "SELECT start_ts, end_ts, n, data FROM "+table+" WHERE (? = 0 OR device_id = ?) AND start_ts < ? AND end_ts > ?",
			deviceID, deviceID, to, from)
		if err != nil {
			return 0, fmt.Errorf("telemetry: unable to count samples: %w", err)
		}
		for rows.Next() {
			var start, end, k int64
			var data []byte
			if err := rows.Scan(&start, &end, &k, &data); err != nil {
				rows.Close()
				return 0, fmt.Errorf("telemetry: unable to count samples: %w", err)
			}
			if start >= from && end <= to {
				n += k
				continue
			}
			bs, err := appendBlockCols(nil, data, nil) // the instants: no power needed
			if err != nil {
				rows.Close()
				return 0, err
			}
			for _, b := range bs {
				if b.T >= from && b.T < to {
					n++
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, fmt.Errorf("telemetry: unable to count samples: %w", err)
		}
	}
	return n, nil
}
