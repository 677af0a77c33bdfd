package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// The sealer's pass (seal.go has the sealing of a day). It finds the days to seal for
// passBatch devices at a time in one statement, so that a pass with nothing to do costs a
// few hundred statements at 200,000 devices, not one per device.

// passBatch is how many devices the sealer and the retention pass look at in one
// statement.
const passBatch = 512

// SealBlocks seals every device day that ended SealAge ago and still has rows or chunks,
// passBatch devices at a time, resting between batches so that it keeps to PruneShare of
// a core; then it writes the power rows of blocks sealed before them (fillPowerRows). It
// answers how many blocks it wrote.
func (w *Writer) SealBlocks(ctx context.Context) (int, error) {
	limit := blockStart(w.opt.Now().Add(-SealAge).UnixMilli())
	ids, err := store.IDs(ctx, w.db, "SELECT device_id FROM telemetry_latest ORDER BY device_id")
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	n := 0
	batches := chunks(ids, passBatch)
	for i, batch := range batches {
		began := time.Now()
		due, err := daysToSeal(ctx, w.db, batch, limit)
		if err != nil {
			return n, err
		}
		for _, id := range batch {
			first, ok := due[id]
			for ok && ctx.Err() == nil {
				start := blockStart(first)
				if err := w.db.InTx(ctx, func(tx *store.Tx) error { return sealDay(ctx, tx, id, start) }); err != nil {
					return n, err
				}
				n++
				if first, ok, err = firstToSeal(ctx, w.db, id, limit); err != nil {
					return n, err
				}
			}
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if i < len(batches)-1 {
			w.restAfter(ctx, began)
		}
	}
	if _, err := w.fillPowerRows(ctx); err != nil {
		return n, err
	}
	return n, nil
}

// restAfter rests after a piece of background work that began at began so long that the
// work keeps to PruneShare of a core: work of d is followed by a rest of
// d × (1 − share) ÷ share.
func (w *Writer) restAfter(ctx context.Context, began time.Time) {
	took := time.Since(began)
	w.rest(ctx, time.Duration(float64(took)*(1-w.opt.PruneShare)/w.opt.PruneShare))
}

// daysToSeal finds, in one statement, the devices of ids with rows or chunks before limit,
// and the first instant of each. Each device's first instant is its own subquery, which
// reads one index entry whatever the planner knows of the table: a MIN over all the
// devices' rows grouped by device would be priced from the table's statistics, and
// without them (a fresh bulk load, autovacuum off) PostgreSQL reads the whole table.
func daysToSeal(ctx context.Context, db *store.DB, ids []int64, limit int64) (map[int64]int64, error) {
	list, args := paddedList(ids)
	rows, err := db.Query(ctx, "SELECT l.device_id, "+
		"(SELECT MIN(ts) FROM telemetry_samples s WHERE s.device_id = l.device_id AND s.ts < ?), "+
		"(SELECT MIN(start_ts) FROM telemetry_sample_chunks c WHERE c.device_id = l.device_id AND c.start_ts < ?) "+
		"FROM telemetry_latest l WHERE l.device_id IN ("+list+")",
		append([]any{limit, limit}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	defer rows.Close()
	due := map[int64]int64{}
	for rows.Next() {
		var id int64
		var row, chunk sql.NullInt64
		if err := rows.Scan(&id, &row, &chunk); err != nil {
			return nil, fmt.Errorf("telemetry: unable to seal: %w", err)
		}
		if chunk.Valid && (!row.Valid || chunk.Int64 < row.Int64) {
			row = chunk
		}
		if row.Valid {
			due[id] = row.Int64
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	return due, nil
}

// firstToSeal is a device's first instant of a row or chunk before limit (ok false when
// there is none).
func firstToSeal(ctx context.Context, db *store.DB, id, limit int64) (first int64, ok bool, err error) {
	var row, chunk sql.NullInt64
	if err := db.QueryRow(ctx, "SELECT (SELECT MIN(ts) FROM telemetry_samples WHERE device_id = ? AND ts < ?), "+
		"(SELECT MIN(start_ts) FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts < ?)", id, limit, id, limit).Scan(&row, &chunk); err != nil {
		return 0, false, fmt.Errorf("telemetry: unable to seal: %w", err)
	}
	if chunk.Valid && (!row.Valid || chunk.Int64 < row.Int64) {
		row = chunk
	}
	return row.Int64, row.Valid, nil
}

// fillPowerRows writes the power rows of the blocks sealed before power rows, which hold
// their power: those of the devices migration 0190 listed in telemetry_sample_power_todo,
// powerFillBatch devices at a time, each in its own transaction, resting between batches
// as the sealer does. A device leaves the list with its last power row; once the list is
// empty a pass costs one read. It answers how many power rows it wrote.
func (w *Writer) fillPowerRows(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		began := time.Now()
		ids, err := store.IDs(ctx, w.db, "SELECT device_id FROM telemetry_sample_power_todo ORDER BY device_id LIMIT ?", powerFillBatch)
		if err != nil {
			return n, fmt.Errorf("telemetry: unable to write power rows: %w", err)
		}
		for _, id := range ids {
			var k int
			err := w.db.InTx(ctx, func(tx *store.Tx) error {
				var err error
				k, err = fillDevicePower(ctx, tx, id)
				return err
			})
			if err != nil {
				return n, err
			}
			n += k
		}
		if len(ids) < powerFillBatch {
			return n, nil
		}
		w.restAfter(ctx, began)
	}
	return n, ctx.Err()
}

// powerFillBatch is how many devices fillPowerRows takes between two rests: a device has
// a block a day of the raw retention.
const powerFillBatch = 16

// fillDevicePower writes the power rows a device's blocks lack and takes the device off
// the list (on PostgreSQL under the device's writer lock, as sealing).
func fillDevicePower(ctx context.Context, tx *store.Tx, id int64) (int, error) {
	if tx.Dialect == store.Postgres {
		if err := advisoryLocks(ctx, tx, 7340002, []int64{id}); err != nil {
			return 0, err
		}
	}
	rows, err := tx.Query(ctx, "SELECT start_ts, data FROM telemetry_sample_blocks b WHERE device_id = ? AND "+blockPower+" IS NULL", id)
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to write power rows: %w", err)
	}
	type day struct {
		start int64
		power []byte
	}
	var days []day
	for rows.Next() {
		var start int64
		var data []byte
		if err := rows.Scan(&start, &data); err != nil {
			rows.Close()
			return 0, fmt.Errorf("telemetry: unable to write power rows: %w", err)
		}
		bs, err := decodeBlock(data, nil)
		if err != nil {
			rows.Close()
			return 0, fmt.Errorf("telemetry: block of device %d at %d: %w", id, start, err)
		}
		days = append(days, day{start, encodePower(bs)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("telemetry: unable to write power rows: %w", err)
	}
	for _, d := range days {
		if _, err := tx.Exec(ctx, "INSERT INTO telemetry_sample_power (device_id, start_ts, data) VALUES (?, ?, ?)", id, d.start, d.power); err != nil {
			return 0, fmt.Errorf("telemetry: unable to write power rows: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, "DELETE FROM telemetry_sample_power_todo WHERE device_id = ?", id); err != nil {
		return 0, fmt.Errorf("telemetry: unable to write power rows: %w", err)
	}
	return len(days), nil
}

// RunSealer seals now and then every interval (default an hour) until ctx ends.
func (w *Writer) RunSealer(ctx context.Context, every time.Duration) {
	runPass(ctx, every, w.SealBlocks, "telemetry: sealing raw samples failed", "telemetry: raw sample days sealed", "blocks")
}
