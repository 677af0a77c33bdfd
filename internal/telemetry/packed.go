package telemetry

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Packed station months. A chart or report of a past month reads each station's day
// roll-ups, one row per station, kind and day: about 6,000 rows for a month of 100 stations,
// tens of milliseconds of decoding. Once a month can no longer change through ingest, the
// packer copies its day rows, every kind, into one row of telemetry_station_month_days, and
// a read of days reads one row per station and month instead.
//
// The packed row is a copy, never the only record: the day rows stay, and a write that
// reaches a station day older than packGuard (a late sample, a back-fill) deletes that
// month's packed row in the same transaction, so a read falls back to the day rows until
// the packer packs the month again. As the packer only packs months that ended PackAge
// ago, which is more than packGuard, a packed month never differs from its day rows.

const (
	// PackAge is how long ago a station month must have ended to be packed.
	PackAge = 45 * 24 * time.Hour
	// packGuard: a write to a station day that started longer ago than this drops the
	// packed row of its month.
	packGuard = 40 * 24 * time.Hour
	// monthPackVersion is the first byte of a packed row.
	monthPackVersion = 1
	// packStats is the number of float fields of a packed entry (Stats minus Samples).
	packStats = 16
)

// packedEntry is one station day of one kind.
type packedEntry struct {
	kind       string
	start, end int64
	s          Stats
}

func statFloats(s *Stats) [packStats]*float64 {
	return [packStats]*float64{&s.EnergyKWh, &s.Energy2KWh, &s.PowerKWh, &s.MaxPowerKW, &s.MinPowerKW,
		&s.IrradianceSum, &s.IrradiationKWhM2, &s.RefEnergyKWh, &s.FaultMin, &s.OnlineMin,
		&s.DCVoltageSum, &s.DCCurrentSum, &s.ACVoltageSum, &s.FrequencySum, &s.TempSum, &s.SOCSum}
}

// packDays encodes entries: version, count, then per entry its kind, start, end, samples
// and the float fields, exactly (float64 bits; NaN extremes stay NaN).
func packDays(entries []packedEntry) []byte {
	b := make([]byte, 0, 1+binary.MaxVarintLen64+len(entries)*(8*(3+packStats)+12))
	b = append(b, monthPackVersion)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for i := range entries {
		e := &entries[i]
		b = binary.AppendUvarint(b, uint64(len(e.kind)))
		b = append(b, e.kind...)
		b = binary.LittleEndian.AppendUint64(b, uint64(e.start))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.end))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.s.Samples))
		for _, f := range statFloats(&e.s) {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*f))
		}
	}
	return b
}

var errMonthPacked = errors.New("telemetry: damaged packed month")

// unpackDays decodes what packDays wrote.
func unpackDays(b []byte) ([]packedEntry, error) {
	if len(b) < 1 || b[0] != monthPackVersion {
		return nil, errMonthPacked
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errMonthPacked
	}
	b = b[k:]
	out := make([]packedEntry, n)
	for i := range out {
		e := &out[i]
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l+8*(3+packStats) {
			return nil, errMonthPacked
		}
		e.kind = string(b[k : k+int(l)])
		b = b[k+int(l):]
		e.start = int64(binary.LittleEndian.Uint64(b))
		e.end = int64(binary.LittleEndian.Uint64(b[8:]))
		e.s.Samples = int64(binary.LittleEndian.Uint64(b[16:]))
		b = b[24:]
		for _, f := range statFloats(&e.s) {
			*f = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
	}
	return out, nil
}

// forgetPacked deletes the packed months of the station days in acc that started before
// now − packGuard (call it in the transaction that writes those days).
func forgetPacked(ctx context.Context, tx *store.Tx, acc *accum, now int64) error {
	type monthKey struct{ id, start int64 }
	seen := map[monthKey]bool{}
	limit := now - packGuard.Milliseconds()
	for _, k := range acc.order {
		if k.kind == "" || k.start >= limit {
			continue
		}
		ms, _ := acc.days[k].cal.Month(k.start)
		mk := monthKey{k.id, ms}
		if seen[mk] {
			continue
		}
		seen[mk] = true
		if _, err := tx.Exec(ctx, "DELETE FROM telemetry_station_month_days WHERE station_id = ? AND bucket = ?", k.id, ms); err != nil {
			return fmt.Errorf("telemetry: unable to drop a packed month: %w", err)
		}
	}
	return nil
}

// PackMonths packs at most limit station months that ended more than PackAge ago and have
// no packed row yet, oldest first; it answers how many it packed.
func (w *Writer) PackMonths(ctx context.Context, limit int) (int, error) {
	before := w.opt.Now().Add(-PackAge).UnixMilli()
	rows, err := w.db.Query(ctx, `SELECT m.station_id, m.bucket FROM telemetry_station_rollups m
		WHERE m.res = ? AND m.bucket_end < ? AND NOT EXISTS (SELECT 1 FROM telemetry_station_month_days p
			WHERE p.station_id = m.station_id AND p.bucket = m.bucket)
		GROUP BY m.station_id, m.bucket ORDER BY m.bucket, m.station_id LIMIT ?`, int(Month), before, limit)
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to find months to pack: %w", err)
	}
	type month struct{ id, start int64 }
	var todo []month
	for rows.Next() {
		var m month
		if err := rows.Scan(&m.id, &m.start); err != nil {
			rows.Close()
			return 0, fmt.Errorf("telemetry: unable to find months to pack: %w", err)
		}
		todo = append(todo, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(todo) == 0 {
		return 0, err
	}
	err = w.db.InTx(ctx, func(tx *store.Tx) error {
		if tx.Dialect == store.Postgres {
			// the writers' lock on the stations' day rows: a write either committed
			// before this read or drops the packed row after it
			ids := make([]int64, 0, len(todo))
			for _, m := range todo {
				ids = append(ids, m.id)
			}
			if err := advisoryLocks(ctx, tx, 7340003, dedupeIDs(ids)); err != nil {
				return err
			}
		}
		for _, m := range todo {
			if err := packMonth(ctx, tx, m.id, m.start); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(todo), nil
}

// packMonth reads a station month's day rows and stores them as one packed row.
func packMonth(ctx context.Context, tx *store.Tx, id, start int64) error {
	var end int64
	if err := tx.QueryRow(ctx, "SELECT MAX(bucket_end) FROM telemetry_station_rollups WHERE station_id = ? AND res = ? AND bucket = ?",
		id, int(Month), start).Scan(&end); err != nil {
		return fmt.Errorf("telemetry: unable to pack a month: %w", err)
	}
	rows, err := tx.Query(ctx, "SELECT kind, bucket, bucket_end, "+statCols+" FROM telemetry_station_rollups WHERE station_id = ? AND res = ? AND bucket >= ? AND bucket < ?",
		id, int(Day), start, end)
	if err != nil {
		return fmt.Errorf("telemetry: unable to pack a month: %w", err)
	}
	var entries []packedEntry
	for rows.Next() {
		var e packedEntry
		dest, finish := statScan(&e.s)
		if err := rows.Scan(append([]any{&e.kind, &e.start, &e.end}, dest...)...); err != nil {
			rows.Close()
			return fmt.Errorf("telemetry: unable to pack a month: %w", err)
		}
		finish()
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to pack a month: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].start != entries[j].start {
			return entries[i].start < entries[j].start
		}
		return entries[i].kind < entries[j].kind
	})
	if _, err := tx.Exec(ctx, `INSERT INTO telemetry_station_month_days (station_id, bucket, bucket_end, days) VALUES (?, ?, ?, ?)
		ON CONFLICT (station_id, bucket) DO UPDATE SET bucket_end = excluded.bucket_end, days = excluded.days`, id, start, end, packDays(entries)); err != nil {
		return fmt.Errorf("telemetry: unable to pack a month: %w", err)
	}
	return nil
}

// RunPacker packs finished station months now and every interval until ctx ends, in
// batches, resting between them so that it keeps to PruneShare of a core.
func (w *Writer) RunPacker(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = 10 * time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		total := 0
		for ctx.Err() == nil {
			start := time.Now()
			n, err := w.PackMonths(ctx, 100)
			if err != nil {
				if ctx.Err() == nil {
					slog.Warn("telemetry: packing months failed", "err", err)
				}
				break
			}
			total += n
			if n == 0 {
				break
			}
			w.restAfter(ctx, start)
		}
		if total > 0 {
			slog.Info("telemetry: station months packed", "months", total)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func dedupeIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// stationDays reads the stations' day buckets in [from, to): from the packed months where
// they cover the range, from the day rows for the stations where they do not.
func (r *Reader) stationDays(ctx context.Context, ids []int64, from, to time.Time) (map[ownerKey][]Point, error) {
	lo, hi := from.UnixMilli(), to.UnixMilli()
	type span struct{ start, end int64 }
	covered := map[int64][]span{}
	out := map[ownerKey][]Point{}
	for _, chunk := range chunks(ids, 400) {
		// a month starts at most 31 days before a day of it
		rows, err := r.db.Query(ctx, "SELECT station_id, bucket, bucket_end, days FROM telemetry_station_month_days WHERE station_id IN ("+
			placeholders(len(chunk))+") AND bucket > ? AND bucket < ? AND bucket_end > ?",
			append(int64Args(chunk), lo-32*24*hourMs, hi, lo)...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read packed months: %w", err)
		}
		for rows.Next() {
			var id, start, end int64
			var days []byte
			if err := rows.Scan(&id, &start, &end, &days); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read packed months: %w", err)
			}
			entries, err := unpackDays(days)
			if err != nil {
				rows.Close()
				return nil, err
			}
			covered[id] = append(covered[id], span{start, end})
			for i := range entries {
				e := &entries[i]
				if e.start < lo || e.start >= hi {
					continue
				}
				k := ownerKey{id, e.kind}
				out[k] = append(out[k], Point{Start: time.UnixMilli(e.start).UTC(), End: time.UnixMilli(e.end).UTC(), Stats: e.s})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read packed months: %w", err)
		}
	}
	// stations whose packed months leave part of the range uncovered read their day rows
	var rest []int64
	for _, id := range ids {
		spans := covered[id]
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		at := lo
		for _, s := range spans {
			if s.start <= at && s.end > at {
				at = s.end
			}
		}
		if at < hi {
			rest = append(rest, id)
		}
	}
	if len(rest) == 0 {
		for _, pts := range out {
			sortPoints(pts)
		}
		return out, nil
	}
	restSet := make(map[int64]bool, len(rest))
	for _, id := range rest {
		restSet[id] = true
	}
	for k := range out {
		if restSet[k.id] {
			delete(out, k)
		}
	}
	days, err := r.rollups(ctx, true, rest, Day, from, to)
	if err != nil {
		return nil, err
	}
	for k, pts := range days {
		out[k] = pts
	}
	for _, pts := range out {
		sortPoints(pts)
	}
	return out, nil
}

// sortPoints orders points by start (a check when they already are).
func sortPoints(pts []Point) {
	less := func(i, j int) bool { return pts[i].Start.Before(pts[j].Start) }
	if !sort.SliceIsSorted(pts, less) {
		sort.SliceStable(pts, less)
	}
}
