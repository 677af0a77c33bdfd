package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Prune deletes raw samples older than the raw retention window (and a day's margin, so
// that a late sample at the window's edge still finds its neighbours): rows, and chunks and sealed
// blocks wholly past (a block straddling the cutoff stays until it is), with their power rows.
// Roll-ups and latest rows are kept for ever. It looks at passBatch devices at a time, one
// read finding what they hold past the cutoff, and rests between batches so that it keeps
// to PruneShare of a core. It returns the number of samples deleted.
func (w *Writer) Prune(ctx context.Context) (int64, error) {
	cutoff := w.opt.Now().Add(-w.opt.RawRetention - pruneMargin).UnixMilli()
	ids, err := store.IDs(ctx, w.db, "SELECT device_id FROM telemetry_latest ORDER BY device_id")
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to prune: %w", err)
	}
	var n int64
	batches := chunks(ids, passBatch)
	for i, batch := range batches {
		began := time.Now()
		k, err := w.pruneBatch(ctx, batch, cutoff)
		n += k
		if err != nil {
			return n, fmt.Errorf("telemetry: unable to prune: %w", err)
		}
		if i < len(batches)-1 {
			w.restAfter(ctx, began)
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
	return n, nil
}

// pruneBatch prunes a batch of devices: one read finds which of them hold rows, chunks or
// blocks past the cutoff, each device by subqueries that read one index entry whatever
// the planner knows of the tables (without statistics, a count over all the batch's rows
// grouped by device makes PostgreSQL read the whole table). Only the devices found are
// then counted and deleted: their rows a device per statement, their chunks and blocks
// with the blocks' power rows in one transaction.
func (w *Writer) pruneBatch(ctx context.Context, ids []int64, cutoff int64) (int64, error) {
	list, args := paddedList(ids)
	rows, err := w.db.Query(ctx, "SELECT l.device_id, "+
		"(SELECT MIN(ts) FROM telemetry_samples s WHERE s.device_id = l.device_id AND s.ts < ?), "+
		"(SELECT MIN(start_ts) FROM telemetry_sample_chunks c WHERE c.device_id = l.device_id AND c.start_ts < ? AND c.end_ts <= ?), "+
		"(SELECT MIN(start_ts) FROM telemetry_sample_blocks b WHERE b.device_id = l.device_id AND b.start_ts < ? AND b.end_ts <= ?) "+
		"FROM telemetry_latest l WHERE l.device_id IN ("+list+")",
		append([]any{cutoff, cutoff, cutoff, cutoff, cutoff}, args...)...)
	if err != nil {
		return 0, err
	}
	var withRows, withParts []int64
	for rows.Next() {
		var id int64
		var row, chunk, block sql.NullInt64
		if err := rows.Scan(&id, &row, &chunk, &block); err != nil {
			rows.Close()
			return 0, err
		}
		if row.Valid {
			withRows = append(withRows, id)
		}
		if chunk.Valid || block.Valid {
			withParts = append(withParts, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var n int64
	for _, id := range withRows {
		res, err := w.db.Exec(ctx, "DELETE FROM telemetry_samples WHERE device_id = ? AND ts < ?", id, cutoff)
		if err != nil {
			return n, err
		}
		d, _ := res.RowsAffected()
		n += d
	}
	if len(withParts) == 0 {
		return n, nil
	}
	// a block (or chunk) goes once all of it is past the cutoff; a block's power row with it
	list, args = paddedList(withParts)
	var sealed int64 // samples in the chunks and blocks deleted
	err = w.db.InTx(ctx, func(tx *store.Tx) error {
		for _, table := range []string{"telemetry_sample_chunks", "telemetry_sample_blocks"} {
			var k int64
			where := " WHERE device_id IN (" + list + ") AND start_ts < ? AND end_ts <= ?"
			if err := tx.QueryRow(ctx, "SELECT COALESCE(SUM(n), 0) FROM "+table+where, append(args, cutoff, cutoff)...).Scan(&k); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+where, append(args, cutoff, cutoff)...); err != nil {
				return err
			}
			sealed += k
		}
		_, err := tx.Exec(ctx, "DELETE FROM telemetry_sample_power WHERE device_id IN ("+list+") AND start_ts <= ?", append(args, cutoff-blockSpan)...)
		return err
	})
	if err != nil {
		return n, err
	}
	return n + sealed, nil
}

func (w *Writer) rest(ctx context.Context, d time.Duration) {
	if w.pause != nil {
		w.pause(ctx, d)
		return
	}
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// RunPruner prunes now and then every interval (default an hour) until ctx ends.
func (w *Writer) RunPruner(ctx context.Context, every time.Duration) {
	runPass(ctx, every, w.Prune, "telemetry prune failed", "telemetry raw samples pruned", "rows")
}

// runPass runs a background pass now and then every interval (default an hour) until ctx
// ends, logging a failure as failed and a pass that did something as done, with its count.
func runPass[N int | int64](ctx context.Context, every time.Duration, pass func(context.Context) (N, error), failed, done, count string) {
	if every <= 0 {
		every = time.Hour
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := pass(ctx); err != nil && ctx.Err() == nil {
			slog.Warn(failed, "err", err)
		} else if n > 0 {
			slog.Info(done, count, n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// DeleteDeviceData removes a device's raw samples, latest row and device roll-ups (call
// it in the transaction that deletes the device). Station roll-ups keep its history.
func DeleteDeviceData(ctx context.Context, tx *store.Tx, deviceID int64) error {
	for _, q := range []string{
		"DELETE FROM telemetry_samples WHERE device_id = ?",
		"DELETE FROM telemetry_sample_blocks WHERE device_id = ?",
		"DELETE FROM telemetry_sample_power WHERE device_id = ?",
		"DELETE FROM telemetry_sample_power_todo WHERE device_id = ?",
		"DELETE FROM telemetry_sample_chunks WHERE device_id = ?",
		"DELETE FROM telemetry_latest WHERE device_id = ?",
		"DELETE FROM telemetry_device_rollups WHERE device_id = ?",
		"DELETE FROM device_openings WHERE device_id = ?",
	} {
		if _, err := tx.Exec(ctx, q, deviceID); err != nil {
			return fmt.Errorf("telemetry: unable to delete device data: %w", err)
		}
	}
	return nil
}
