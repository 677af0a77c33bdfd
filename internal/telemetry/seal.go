package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Sealing. A device's raw rows of a UTC day are moved into one compressed block of
// telemetry_sample_blocks (block.go) once the day ended SealAge ago, past the time in
// which most late samples arrive. A day has rows or a block, never both at one instant:
//
//   - the sealer seals a day in one transaction (read the rows, write the block, delete
//     the rows), holding the device's writer lock on PostgreSQL;
//   - a write whose samples reach a day that may be sealed (sealedBefore) reads the blocks
//     beside the rows, and turns the blocks of the days it inserts into or updates back
//     into rows in its own transaction (unseal); the sealer seals them again later;
//   - an on-time sample lands in a day that cannot be sealed yet and never reads the
//     blocks table.

const (
	// SealAge is how long ago a UTC day must have ended to be sealed into blocks: the
	// rows of the current day and the last hours of the day before stay rows, which most
	// late samples (a collector's buffer after a night offline) reach without unsealing.
	// Longer keeps more rows, at about three times a block's bytes per sample
	// (docs/perf-storage.md).
	SealAge = 12 * time.Hour
	// sealSlack: the write path treats days that ended up to this much less than SealAge
	// ago as possibly sealed too (the sealer's clock may run ahead of a writer's).
	sealSlack = time.Hour
	// blockSpan is the span of a block (a UTC day), in ms.
	blockSpan = 24 * hourMs
)

// blockStart is the start of the UTC day holding t.
func blockStart(t int64) int64 {
	s := t - t%blockSpan
	if t%blockSpan < 0 {
		s -= blockSpan
	}
	return s
}

// sealedBefore is the write path's bound at now: a day that ends at or before it may be
// sealed.
func sealedBefore(now int64) int64 {
	return now - SealAge.Milliseconds() + sealSlack.Milliseconds()
}

// maySeal reports whether the day holding t may be sealed at now (write path and readers).
func maySeal(t, now int64) bool {
	return blockStart(t)+blockSpan <= sealedBefore(now)
}

type spanKey struct{ id, start int64 }

// unseal turns the blocks of the given device days back into rows (call it in the
// transaction that writes to those days, before the rows are written). One read finds
// which of the days have blocks; most have none.
func unseal(ctx context.Context, tx *store.Tx, keys []spanKey) error {
	if len(keys) == 0 {
		return nil
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].id != keys[j].id {
			return keys[i].id < keys[j].id
		}
		return keys[i].start < keys[j].start
	})
	var ids []int64
	lo, hi := keys[0].start, keys[0].start
	for i, k := range keys {
		if i == 0 || k.id != keys[i-1].id {
			ids = append(ids, k.id)
		}
		lo, hi = min(lo, k.start), max(hi, k.start)
	}
	sealed := map[spanKey]bool{}
	for _, chunk := range chunks(ids, 400) {
		rows, err := queryList(ctx, tx, "SELECT device_id, start_ts FROM telemetry_sample_blocks WHERE device_id IN (%s) AND start_ts >= ? AND start_ts <= ?", chunk, lo, hi)
		if err != nil {
			return fmt.Errorf("telemetry: unable to find sample blocks: %w", err)
		}
		for rows.Next() {
			var k spanKey
			if err := rows.Scan(&k.id, &k.start); err != nil {
				rows.Close()
				return fmt.Errorf("telemetry: unable to find sample blocks: %w", err)
			}
			sealed[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("telemetry: unable to find sample blocks: %w", err)
		}
	}
	for i, k := range keys {
		if (i > 0 && keys[i-1] == k) || !sealed[k] {
			continue
		}
		var data []byte
		if err := tx.QueryRow(ctx, "SELECT data FROM telemetry_sample_blocks WHERE device_id = ? AND start_ts = ?", k.id, k.start).Scan(&data); err != nil {
			return fmt.Errorf("telemetry: unable to read a sample block: %w", err)
		}
		rows, err := decodeBlock(data)
		if err != nil {
			return fmt.Errorf("telemetry: block of device %d at %d: %w", k.id, k.start, err)
		}
		if err := insertBlockRows(ctx, tx, k.id, rows); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM telemetry_sample_blocks WHERE device_id = ? AND start_ts = ?", k.id, k.start); err != nil {
			return fmt.Errorf("telemetry: unable to unseal a sample block: %w", err)
		}
	}
	return nil
}

// unsealFor unseals the days of rows that may be sealed at now.
func unsealFor(ctx context.Context, tx *store.Tx, now int64, rows ...[]*rawRow) error {
	var keys []spanKey
	for _, rs := range rows {
		for _, r := range rs {
			if !maySeal(r.T, now) {
				continue
			}
			// rows come in runs of one device and day: a key per run
			k := spanKey{r.DeviceID, blockStart(r.T)}
			if n := len(keys); n == 0 || keys[n-1] != k {
				keys = append(keys, k)
			}
		}
	}
	return unseal(ctx, tx, keys)
}

func insertBlockRows(ctx context.Context, tx *store.Tx, id int64, rows []blockRow) error {
	b := newBulk(ctx, tx, "INSERT INTO telemetry_samples (device_id, "+sampleCols+") VALUES ", "", 15, 64)
	for i := range rows {
		r := &rows[i]
		var cs any
		if !r.CStateNull {
			cs = r.CState
		}
		vals := make([]any, 0, 15)
		vals = append(vals, id, r.T)
		for _, f := range r.F {
			vals = append(vals, f)
		}
		vals = append(vals, r.Status, r.Strings, cs)
		if err := b.add(vals...); err != nil {
			b.flush()
			return fmt.Errorf("telemetry: unable to unseal a sample block: %w", err)
		}
	}
	if err := b.flush(); err != nil {
		return fmt.Errorf("telemetry: unable to unseal a sample block: %w", err)
	}
	return nil
}

// SealBlocks seals every device day that ended SealAge ago and still has rows or chunks, a device
// at a time, resting between devices so that it keeps to PruneShare of a core. It
// answers how many blocks it wrote.
func (w *Writer) SealBlocks(ctx context.Context) (int, error) {
	limit := blockStart(w.opt.Now().Add(-SealAge).UnixMilli())
	ids, err := store.IDs(ctx, w.db, "SELECT device_id FROM telemetry_latest ORDER BY device_id")
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	n := 0
	for i, id := range ids {
		began := time.Now()
		for ctx.Err() == nil {
			var first, chunk sql.NullInt64
			if err := w.db.QueryRow(ctx, "SELECT (SELECT MIN(ts) FROM telemetry_samples WHERE device_id = ? AND ts < ?), "+
				"(SELECT MIN(start_ts) FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts < ?)", id, limit, id, limit).Scan(&first, &chunk); err != nil {
				return n, fmt.Errorf("telemetry: unable to seal: %w", err)
			}
			if chunk.Valid && (!first.Valid || chunk.Int64 < first.Int64) {
				first = chunk
			}
			if !first.Valid {
				break
			}
			start := blockStart(first.Int64)
			if err := w.db.InTx(ctx, func(tx *store.Tx) error { return sealDay(ctx, tx, id, start) }); err != nil {
				return n, err
			}
			n++
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if i < len(ids)-1 {
			took := time.Since(began)
			w.rest(ctx, time.Duration(float64(took)*(1-w.opt.PruneShare)/w.opt.PruneShare))
		}
	}
	return n, nil
}

// sealDay moves a device day's rows and chunks into its block (merged with the block
// when one is there already).
func sealDay(ctx context.Context, tx *store.Tx, id, start int64) error {
	if tx.Dialect == store.Postgres {
		if err := advisoryLocks(ctx, tx, 7340002, []int64{id}); err != nil {
			return err
		}
	}
	end := start + blockSpan
	rows, err := tx.Query(ctx, "SELECT "+sampleCols+" FROM telemetry_samples WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts", id, start, end)
	if err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	var out []blockRow
	for rows.Next() {
		var b blockRow
		var cs sql.NullString
		if err := rows.Scan(&b.T, &b.F[0], &b.F[1], &b.F[2], &b.F[3], &b.F[4], &b.F[5], &b.F[6], &b.F[7], &b.F[8], &b.F[9],
			&b.Status, &b.Strings, &cs); err != nil {
			rows.Close()
			return fmt.Errorf("telemetry: unable to seal: %w", err)
		}
		b.CState, b.CStateNull = cs.String, !cs.Valid
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	// the day's chunks (never at an instant of a row)
	chunks, err := tx.Query(ctx, "SELECT data FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts >= ? AND start_ts < ?", id, start, end)
	if err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	nChunks := 0
	for chunks.Next() {
		var data []byte
		if err := chunks.Scan(&data); err != nil {
			chunks.Close()
			return fmt.Errorf("telemetry: unable to seal: %w", err)
		}
		if out, err = appendBlock(out, data); err != nil {
			chunks.Close()
			return fmt.Errorf("telemetry: chunk of device %d in the day %d: %w", id, start, err)
		}
		nChunks++
	}
	chunks.Close()
	if err := chunks.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if len(out) == 0 {
		return nil
	}
	if nChunks > 0 {
		sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	}
	var old []byte
	switch err := tx.QueryRow(ctx, "SELECT data FROM telemetry_sample_blocks WHERE device_id = ? AND start_ts = ?", id, start).Scan(&old); err {
	case nil:
		prev, err := decodeBlock(old)
		if err != nil {
			return fmt.Errorf("telemetry: block of device %d at %d: %w", id, start, err)
		}
		seen := make(map[int64]bool, len(out))
		for _, b := range out {
			seen[b.T] = true
		}
		for _, b := range prev {
			if !seen[b.T] {
				out = append(out, b)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	case sql.ErrNoRows:
	default:
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO telemetry_sample_blocks (device_id, start_ts, end_ts, n, data) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, start_ts) DO UPDATE SET end_ts = excluded.end_ts, n = excluded.n, data = excluded.data`,
		id, start, end, len(out), encodeBlock(out)); err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM telemetry_samples WHERE device_id = ? AND ts >= ? AND ts < ?", id, start, end); err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if nChunks > 0 {
		if _, err := tx.Exec(ctx, "DELETE FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts >= ? AND start_ts < ?", id, start, end); err != nil {
			return fmt.Errorf("telemetry: unable to seal: %w", err)
		}
	}
	return nil
}

// RunSealer seals now and then every interval (default an hour) until ctx ends.
func (w *Writer) RunSealer(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = time.Hour
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := w.SealBlocks(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("telemetry: sealing raw samples failed", "err", err)
		} else if n > 0 {
			slog.Info("telemetry: raw sample days sealed", "blocks", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
