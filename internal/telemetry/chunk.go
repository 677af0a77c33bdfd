package telemetry

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/store"
)

// Chunks (telemetry_sample_chunks, migration 0170). A write that appends a run of at least
// chunkMin samples of one device and one UTC day after the device's latest sample stores
// the run as one chunk: the sealed blocks' plain form (block.go) behind its own version
// byte, not deflated. One row and one b-tree insert instead of one per sample: a
// collector's buffered message or an HTTP request of many readings costs a few rows.
// Shorter runs and late samples are written as rows, as before.
//
// An instant of a device is in a row, a chunk or a sealed block, never in two, and a day
// of a device has rows and chunks, or a block:
//
//   - a chunk holds only samples after every sample stored before it, so no row or chunk
//     lies inside it when it is written;
//   - a write to a day that may be sealed turns the day's block back into rows first
//     (seal.go), chunks as rows;
//   - a write whose samples reach back to or before a chunk's end (a late sample, a
//     message delivered again) first turns the device's chunks from that instant on back
//     into rows (unchunk), in its own transaction, and then runs as before;
//   - the sealer folds a day's rows and chunks into the day's block in one transaction.
//
// A chunk lies within one UTC day, so a reader finds every chunk reaching [from, to) among
// those starting in (from − a day, to).

const (
	// chunkVersion is the first byte of a chunk: the plain form follows as it is.
	chunkVersion = 3
	// chunkMin is the shortest run stored as a chunk (Writer.chunkMin, a test's, else this).
	chunkMin = 8
)

// chunkRun is a run of one device's new rows stored as one chunk.
type chunkRun struct {
	id   int64
	rows []*rawRow
}

// blockRowOf is a stored row in a block's shape (its counter state encoded).
func blockRowOf(r *rawRow) blockRow {
	b := blockRow{T: r.T, Status: r.Status, Strings: r.StringsActive,
		F: [blockFloats]float64{r.PowerKW, r.EnergyKWh, r.Energy2KWh, r.DCVoltageV, r.DCCurrentA, r.ACVoltageV,
			r.FrequencyHz, r.TempC, r.SOC, r.IrradianceWm2}}
	if cs, ok := r.cstate().(string); ok {
		b.CState = cs
	} else {
		b.CStateNull = true
	}
	return b
}

// encodeChunk encodes rows (sorted by T, distinct instants) as a chunk.
func encodeChunk(rows []*rawRow) []byte {
	bs := make([]blockRow, len(rows))
	for i, r := range rows {
		bs[i] = blockRowOf(r)
	}
	raw, _ := appendPlainForm([]byte{chunkVersion}, bs, true)
	return raw
}

// splitChunks takes from a device's new rows (sorted by time, all after its stored
// samples) the runs that become chunks and appends them to runs; the rows left are
// written as rows.
func splitChunks(rows []*rawRow, least int, runs []chunkRun) (rest []*rawRow, out []chunkRun) {
	if len(rows) < least {
		return rows, runs
	}
	rest = rows[:0:0]
	for i := 0; i < len(rows); {
		day := blockStart(rows[i].T)
		j := i + 1
		for j < len(rows) && blockStart(rows[j].T) == day {
			j++
		}
		if j-i >= least {
			runs = append(runs, chunkRun{id: rows[i].DeviceID, rows: rows[i:j]})
		} else {
			rest = append(rest, rows[i:j]...)
		}
		i = j
	}
	return rest, runs
}

// insertChunks writes runs as chunks.
func insertChunks(ctx context.Context, tx *store.Tx, runs []chunkRun) error {
	if len(runs) == 0 {
		return nil
	}
	b := newBulk(ctx, tx, "INSERT INTO telemetry_sample_chunks (device_id, start_ts, end_ts, n, data) VALUES ", "", 5, 16)
	for _, r := range runs {
		if err := b.add(r.id, r.rows[0].T, r.rows[len(r.rows)-1].T+1, len(r.rows), encodeChunk(r.rows)); err != nil {
			b.flush()
			return fmt.Errorf("telemetry: unable to store samples: %w", err)
		}
	}
	if err := b.flush(); err != nil {
		return fmt.Errorf("telemetry: unable to store samples: %w", err)
	}
	return nil
}

// unchunk turns a device's chunks that end after from (hold an instant at or after it)
// back into rows (call it in the write's transaction, before the device's stored samples
// are read).
func unchunk(ctx context.Context, tx *store.Tx, id, from int64) error {
	rows, err := tx.Query(ctx, "SELECT start_ts, data FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts > ? AND end_ts > ? ORDER BY start_ts",
		id, from-blockSpan, from)
	if err != nil {
		return fmt.Errorf("telemetry: unable to read sample chunks: %w", err)
	}
	var starts []int64
	var samples []blockRow
	for rows.Next() {
		var start int64
		var data []byte
		if err := rows.Scan(&start, &data); err != nil {
			rows.Close()
			return fmt.Errorf("telemetry: unable to read sample chunks: %w", err)
		}
		if samples, err = appendBlock(samples, data, nil); err != nil {
			rows.Close()
			return fmt.Errorf("telemetry: chunk of device %d at %d: %w", id, start, err)
		}
		starts = append(starts, start)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to read sample chunks: %w", err)
	}
	if len(starts) == 0 {
		return nil
	}
	if err := insertBlockRows(ctx, tx, id, samples); err != nil {
		return err
	}
	for _, start := range starts {
		if _, err := tx.Exec(ctx, "DELETE FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts = ?", id, start); err != nil {
			return fmt.Errorf("telemetry: unable to turn a sample chunk into rows: %w", err)
		}
	}
	return nil
}

// lastChunkBefore decodes the newest chunk sample of a device before t (nil when none).
func lastChunkBefore(ctx context.Context, q querier, id, t int64) (*blockRow, error) {
	rows, err := q.Query(ctx, "SELECT data FROM telemetry_sample_chunks WHERE device_id = ? AND start_ts < ? ORDER BY start_ts DESC LIMIT 1", id, t)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read sample chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read sample chunks: %w", err)
		}
		bs, err := decodeBlock(data, nil)
		if err != nil {
			return nil, fmt.Errorf("telemetry: chunk of device %d: %w", id, err)
		}
		for i := len(bs) - 1; i >= 0; i-- {
			if bs[i].T < t {
				return &bs[i], nil
			}
		}
	}
	return nil, rows.Err()
}
