package telemetry

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/store"
)

// The write path's reads of stored samples (in its transaction, under the device's lock)
// read the sealed blocks beside the rows (seal.go): the rows and blocks of a device never
// hold the same instant, so a read merges the two by time. Reads outside a write are in
// rawread.go.

// lastBlockBefore decodes the newest block sample of a device before t and after
// after (nil when there is none).
func lastBlockBefore(ctx context.Context, q querier, id, after, t int64) (*blockRow, error) {
	rows, err := q.Query(ctx, "SELECT data, "+blockPower+" FROM telemetry_sample_blocks b WHERE device_id = ? AND start_ts < ? AND end_ts > ? ORDER BY start_ts DESC LIMIT 2",
		id, t, after)
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read sample blocks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var data, power []byte
		if err := rows.Scan(&data, &power); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read sample blocks: %w", err)
		}
		bs, err := decodeBlock(data, power)
		if err != nil {
			return nil, fmt.Errorf("telemetry: block of device %d: %w", id, err)
		}
		for i := len(bs) - 1; i >= 0; i-- {
			if bs[i].T < t {
				if bs[i].T > after {
					return &bs[i], nil
				}
				return nil, nil
			}
		}
	}
	return nil, rows.Err()
}

// loadBefore reads a device's last stored sample before t (nil when there is none): the
// last row or chunk sample, or a block sample after it when they leave a day that may be
// sealed in between.
func loadBefore(ctx context.Context, tx *store.Tx, deviceID, t, now int64) (*rawRow, error) {
	r, err := loadRowBefore(ctx, tx, deviceID, t)
	if err != nil {
		return nil, err
	}
	// or the last sample of a chunk after it (a day with a chunk has no block either)
	c, err := lastChunkBefore(ctx, tx, deviceID, t)
	if err != nil {
		return nil, err
	}
	if c != nil && (r == nil || c.T > r.T) {
		if r, err = c.rawRow(deviceID); err != nil {
			return nil, err
		}
	}
	after := int64(-1 << 63)
	if r != nil {
		// a day with rows has no block, and a day that cannot be sealed neither has
		// any later day
		if blockStart(r.T) == blockStart(t) || !maySeal(r.T, now) {
			return r, nil
		}
		after = r.T
	}
	b, err := lastBlockBefore(ctx, tx, deviceID, after, t)
	if err != nil || b == nil {
		return r, err
	}
	return b.rawRow(deviceID)
}

// nextBlock fills the pager's block buffer with the next block at or after its cursor.
func (p *rawPager) nextBlock() {
	for len(p.blk) == 0 && !p.blkDone && p.err == nil {
		var data, power []byte
		var start int64
		rows, err := p.tx.Query(p.ctx, "SELECT start_ts, data, "+blockPower+" FROM telemetry_sample_blocks b WHERE device_id = ? AND start_ts >= ? ORDER BY start_ts LIMIT 1",
			p.deviceID, p.blkFrom)
		if err != nil {
			p.err = fmt.Errorf("telemetry: unable to read sample blocks: %w", err)
			return
		}
		found := rows.Next()
		if found {
			err = rows.Scan(&start, &data, &power)
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
		if err != nil {
			p.err = fmt.Errorf("telemetry: unable to read sample blocks: %w", err)
			return
		}
		if !found {
			p.blkDone = true
			return
		}
		p.blkFrom = start + 1
		bs, err := decodeBlock(data, power)
		if err != nil {
			p.err = fmt.Errorf("telemetry: block of device %d: %w", p.deviceID, err)
			return
		}
		for i := range bs {
			if bs[i].T < p.start {
				continue
			}
			r, err := bs[i].rawRow(p.deviceID)
			if err != nil {
				p.err = err
				return
			}
			p.blk = append(p.blk, r)
		}
	}
}
