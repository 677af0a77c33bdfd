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
// blocks wholly past (a block straddling the cutoff stays until it is).
// Roll-ups and latest rows are kept for ever. It returns the number of samples deleted.
func (w *Writer) Prune(ctx context.Context) (int64, error) {
	cutoff := w.opt.Now().Add(-w.opt.RawRetention - pruneMargin).UnixMilli()
	ids, err := store.IDs(ctx, w.db, "SELECT device_id FROM telemetry_latest")
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to prune: %w", err)
	}
	var n int64
	for i, id := range ids {
		began := time.Now()
		res, err := w.db.Exec(ctx, "DELETE FROM telemetry_samples WHERE device_id = ? AND ts < ?", id, cutoff)
		if err != nil {
			return n, fmt.Errorf("telemetry: unable to prune: %w", err)
		}
		k, _ := res.RowsAffected()
		n += k
		// a block (or chunk) goes once all of it is past the cutoff
		for _, table := range []string{"telemetry_sample_blocks", "telemetry_sample_chunks"} {
			var inBlocks int64
			if err := w.db.QueryRow(ctx, "SELECT COALESCE(SUM(n), 0) FROM "+table+" WHERE device_id = ? AND end_ts <= ?", id, cutoff).Scan(&inBlocks); err != nil {
				return n, fmt.Errorf("telemetry: unable to prune: %w", err)
			}
			if inBlocks > 0 {
				if _, err := w.db.Exec(ctx, "DELETE FROM "+table+" WHERE device_id = ? AND end_ts <= ?", id, cutoff); err != nil {
					return n, fmt.Errorf("telemetry: unable to prune: %w", err)
				}
				n += inBlocks
			}
		}
		if i < len(ids)-1 {
			// keep to PruneShare of a core: a delete of d is followed by a rest of
			// d × (1 − share) ÷ share
			took := time.Since(began)
			w.rest(ctx, time.Duration(float64(took)*(1-w.opt.PruneShare)/w.opt.PruneShare))
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
	return n, nil
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
	if every <= 0 {
		every = time.Hour
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := w.Prune(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("telemetry prune failed", "err", err)
		} else if n > 0 {
			slog.Info("telemetry raw samples pruned", "rows", n)
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
