package telemetry

import (
	"context"
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

// pruneRows is the most rows one statement of the retention pass deletes (a first pass
// over a long history, or after a shorter retention, would otherwise hold SQLite's write
// lock for seconds).
const pruneRows = 20_000

// pruneBatch prunes a batch of devices: one read counts what they hold past the cutoff;
// their rows go in statements of about pruneRows rows at most, and their chunks and
// blocks with the blocks' power rows in one transaction.
func (w *Writer) pruneBatch(ctx context.Context, ids []int64, cutoff int64) (int64, error) {
	list, args := paddedList(ids)
	q := "SELECT 0, device_id, COUNT(*) FROM telemetry_samples WHERE device_id IN (" + list + ") AND ts < ? GROUP BY device_id"
	var all []any
	all = append(append(all, args...), cutoff)
	for i, table := range []string{"telemetry_sample_chunks", "telemetry_sample_blocks"} {
		q += fmt.Sprintf(" UNION ALL SELECT %d, 0, COALESCE(SUM(n), 0) FROM %s WHERE device_id IN (%s) AND start_ts < ? AND end_ts <= ?", i+1, table, list)
		all = append(append(all, args...), cutoff, cutoff)
	}
	rows, err := w.db.Query(ctx, q, all...)
	if err != nil {
		return 0, err
	}
	var rowIDs []int64
	var rowCounts []int64
	var sealed int64 // samples in chunks and blocks past the cutoff
	for rows.Next() {
		var src, id, k int64
		if err := rows.Scan(&src, &id, &k); err != nil {
			rows.Close()
			return 0, err
		}
		if src == 0 {
			rowIDs, rowCounts = append(rowIDs, id), append(rowCounts, k)
		} else {
			sealed += k
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var n int64
	for len(rowIDs) > 0 {
		// as many devices as keep the statement within pruneRows (one at least)
		k, rowsIn := 1, rowCounts[0]
		for k < len(rowIDs) && rowsIn+rowCounts[k] <= pruneRows {
			rowsIn += rowCounts[k]
			k++
		}
		list, args := paddedList(rowIDs[:k])
		res, err := w.db.Exec(ctx, "DELETE FROM telemetry_samples WHERE device_id IN ("+list+") AND ts < ?", append(args, cutoff)...)
		if err != nil {
			return n, err
		}
		d, _ := res.RowsAffected()
		n += d
		rowIDs, rowCounts = rowIDs[k:], rowCounts[k:]
	}
	if sealed == 0 {
		return n, nil
	}
	// a block (or chunk) goes once all of it is past the cutoff; a block's power row with it
	err = w.db.InTx(ctx, func(tx *store.Tx) error {
		for _, table := range []string{"telemetry_sample_chunks", "telemetry_sample_blocks"} {
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE device_id IN ("+list+") AND start_ts < ? AND end_ts <= ?", append(args, cutoff, cutoff)...); err != nil {
				return err
			}
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
