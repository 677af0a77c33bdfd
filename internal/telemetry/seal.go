package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Sealing. A device's raw rows of a UTC day are moved into one compressed block of
// telemetry_sample_blocks (block.go) and the day's power row of telemetry_sample_power
// (powerrow.go) once the day ended SealAge ago, past the time in which most late samples
// arrive. A day has rows or a block, never both at one instant, and a block sealed since
// power rows has its power row (one sealed before has its power in it, and may have one):
//
//   - the sealer seals a day in one transaction (read the rows, write the block and the
//     power row, delete the rows), holding the device's writer lock on PostgreSQL;
//   - a write whose samples reach a day that may be sealed (sealedBefore) reads the blocks
//     beside the rows, and turns the blocks of the days it inserts into or updates back
//     into rows in its own transaction (unseal), deleting the blocks and their power rows;
//     the sealer seals them again later;
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
		rows, found, err := readBlock(ctx, tx, k.id, k.start)
		if err != nil {
			return fmt.Errorf("telemetry: unable to read a sample block: %w", err)
		}
		if !found {
			continue
		}
		if err := insertBlockRows(ctx, tx, k.id, rows); err != nil {
			return err
		}
		if err := deleteBlock(ctx, tx, k.id, k.start); err != nil {
			return fmt.Errorf("telemetry: unable to unseal a sample block: %w", err)
		}
	}
	return nil
}

// blockPower is a column of a query of telemetry_sample_blocks named b: the block's power
// row (NULL for a block sealed before power rows that has none yet).
const blockPower = "(SELECT p.data FROM telemetry_sample_power p WHERE p.device_id = b.device_id AND p.start_ts = b.start_ts)"

// readBlock decodes a device day's block with its power (found false when there is none).
func readBlock(ctx context.Context, tx *store.Tx, id, start int64) (rows []blockRow, found bool, err error) {
	var data, power []byte
	switch err := tx.QueryRow(ctx, "SELECT data, "+blockPower+" FROM telemetry_sample_blocks b WHERE device_id = ? AND start_ts = ?",
		id, start).Scan(&data, &power); err {
	case nil:
	case sql.ErrNoRows:
		return nil, false, nil
	default:
		return nil, false, err
	}
	if rows, err = decodeBlock(data, power); err != nil {
		return nil, true, fmt.Errorf("telemetry: block of device %d at %d: %w", id, start, err)
	}
	return rows, true, nil
}

// deleteBlock deletes a device day's block and its power row.
func deleteBlock(ctx context.Context, tx *store.Tx, id, start int64) error {
	for _, table := range []string{"telemetry_sample_blocks", "telemetry_sample_power"} {
		if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE device_id = ? AND start_ts = ?", id, start); err != nil {
			return err
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
		if out, err = appendBlock(out, data, nil); err != nil {
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
	prev, found, err := readBlock(ctx, tx, id, start)
	if err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if found {
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
	}
	block, power := encodeBlock(out)
	if _, err := tx.Exec(ctx, `INSERT INTO telemetry_sample_blocks (device_id, start_ts, end_ts, n, data) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, start_ts) DO UPDATE SET end_ts = excluded.end_ts, n = excluded.n, data = excluded.data`,
		id, start, end, len(out), block); err != nil {
		return fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO telemetry_sample_power (device_id, start_ts, data) VALUES (?, ?, ?)
		ON CONFLICT (device_id, start_ts) DO UPDATE SET data = excluded.data`, id, start, power); err != nil {
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
