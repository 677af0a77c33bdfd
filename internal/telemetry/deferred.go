package telemetry

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Deferred roll-ups. A streaming write (a Batcher's: MQTT, HTTP ingest) commits its raw
// samples and latest rows, and leaves its roll-up changes waiting in memory, merged with
// those of the writes after it; they are written together at most RollupDelay later, or
// as soon as the writes pause. Most of a streaming write's cost was its roll-ups: a day
// row of a station (its hours and 5-minute slots) was read and written again by every
// batch that had one of the station's devices, where now it is written once per flush.
//
// What a reader sees: the raw samples at once (the write answers after their commit),
// the live figures at once (OnChange is told at the commit), the stored roll-ups within
// RollupDelay. Nothing is lost when the process dies meanwhile: telemetry_latest.rolled_ts
// says, per device, up to which sample the roll-ups hold its samples (NULL: all of them),
// and Recover adds the rest from the stored samples, as the writes would have.
//
// Only on SQLite, where this process is the one writer: on PostgreSQL several replicas may
// write the same device, and one replica's waiting changes could not be told apart from
// another's in rolled_ts, so every write writes its roll-ups. A write that changes stored
// samples (a late or out-of-order sample, one sent again) writes its own roll-ups and every
// change waiting in the same transaction, so that rolled_ts only ever describes appends.
// So do Write, Exclusive and Backfill: their callers expect the roll-ups to be written when
// they return.

const (
	// DefaultRollupDelay is how long a streaming write's roll-up changes wait at most.
	DefaultRollupDelay = 200 * time.Millisecond
	// rollupIdle: the waiting changes are written once no write has come for this long.
	rollupIdle = 20 * time.Millisecond
	// rolledNone is the rolled_ts of a device none of whose samples are rolled up yet.
	rolledNone = -1 << 62
)

// waiting holds the roll-up changes of committed writes not written yet.
type waiting struct {
	acc     *accum
	devices map[int64]bool // devices whose rolled_ts is not NULL because of these changes
	counted int            // days counted in daysWaiting
}

type rollupTimers struct {
	mu         sync.Mutex
	delay      *time.Timer // the oldest change's deadline
	idle       *time.Timer // the pause after the last write
	delayArmed bool
	failures   int // flushes from a timer failed in a row (wmu)
}

// deferring reports whether streaming writes leave their roll-ups waiting.
func (w *Writer) deferring() bool {
	return w.db.Dialect == store.SQLite && w.opt.RollupDelay >= 0
}

// committed takes the changes of a write just committed (wmu held): they wait unless
// the write wrote them, in which case every change waiting was written too.
func (w *Writer) committed(acc *accum, tails []*rawRow) {
	if acc.rolled {
		w.dropWaiting()
		return
	}
	if len(acc.order) == 0 {
		return
	}
	if w.waiting == nil {
		w.waiting = &waiting{acc: newAccum(acc.maxGap), devices: map[int64]bool{}}
	}
	wt := w.waiting
	for _, k := range acc.order {
		day := acc.days[k]
		if have := wt.acc.days[k]; have != nil {
			have.merge(day)
			continue
		}
		wt.acc.days[k] = day
		wt.acc.order = append(wt.acc.order, k)
	}
	for _, r := range tails {
		wt.devices[r.DeviceID] = true
	}
	daysWaiting.Add(int64(len(wt.acc.order) - wt.counted))
	wt.counted = len(wt.acc.order)
	w.armTimers()
}

// dropWaiting forgets the waiting changes once they are written (wmu held).
func (w *Writer) dropWaiting() {
	if w.waiting == nil {
		return
	}
	daysWaiting.Add(-int64(w.waiting.counted))
	w.waiting = nil
	t := &w.timers
	t.mu.Lock()
	t.delayArmed = false
	if t.delay != nil {
		t.delay.Stop()
	}
	t.mu.Unlock()
}

// RollupsWaiting reports whether roll-up changes of committed writes are waiting.
func (w *Writer) RollupsWaiting() bool {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	return w.waiting != nil
}

// armTimers schedules the flush of the waiting changes: at RollupDelay after the first,
// or once the writes pause.
func (w *Writer) armTimers() {
	t := &w.timers
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.delayArmed {
		t.delayArmed = true
		delay := w.opt.RollupDelay
		if delay == 0 {
			delay = DefaultRollupDelay
		}
		if t.delay == nil {
			t.delay = time.AfterFunc(delay, func() { w.flushFromTimer(false) })
		} else {
			t.delay.Reset(delay)
		}
	}
	if t.idle == nil {
		t.idle = time.AfterFunc(rollupIdle, func() { w.flushFromTimer(true) })
	} else {
		t.idle.Reset(rollupIdle)
	}
}

// flushRetries is how many times in a row a timer's failed flush is tried again; after
// that the changes wait for the next write (or a start's Recover).
const flushRetries = 5

func (w *Writer) flushFromTimer(idle bool) {
	if idle && w.writing.Load() > 0 {
		return // a write is under way: its end arms the idle timer again
	}
	err := w.Flush(context.Background())
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if err == nil || w.waiting == nil {
		w.timers.failures = 0
		return
	}
	if w.timers.failures++; w.timers.failures > flushRetries {
		slog.Error("telemetry: roll-ups not written; the next write or start adds them", "err", err)
		return
	}
	slog.Warn("telemetry: roll-ups not written, trying again", "err", err)
	w.timers.mu.Lock()
	w.timers.delayArmed = false
	w.timers.mu.Unlock()
	w.armTimers()
}

// Flush writes the roll-up changes waiting, if any.
func (w *Writer) Flush(ctx context.Context) error {
	if !w.deferring() {
		return nil
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.waiting == nil {
		return nil
	}
	now := w.opt.Now().UnixMilli()
	if err := w.db.InTx(ctx, func(tx *store.Tx) error { return w.writeWaiting(ctx, tx, now) }); err != nil {
		return err
	}
	w.dropWaiting()
	return nil
}

// writeWaiting writes the changes waiting in tx (wmu held) and marks their devices rolled
// up; the caller drops them once tx commits. A device deleted meanwhile keeps its share
// in its stations' roll-ups, as a write just before the deletion would have left it, and
// gets no device roll-ups back.
func (w *Writer) writeWaiting(ctx context.Context, tx *store.Tx, now int64) error {
	wt := w.waiting
	if wt == nil {
		return nil
	}
	ids := make([]int64, 0, len(wt.devices))
	for id := range wt.devices {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	alive := map[int64]bool{}
	for _, chunk := range chunks(ids, 500) {
		rows, err := queryList(ctx, tx, "SELECT device_id FROM telemetry_latest WHERE device_id IN (%s)", chunk)
		if err != nil {
			return fmt.Errorf("telemetry: unable to read latest samples: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("telemetry: unable to read latest samples: %w", err)
			}
			alive[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("telemetry: unable to read latest samples: %w", err)
		}
	}
	acc := wt.acc
	if len(alive) < len(ids) {
		acc = &accum{maxGap: wt.acc.maxGap, days: map[dayKey]*dayAcc{}}
		for _, k := range wt.acc.order {
			if k.kind == "" && !alive[k.id] {
				continue
			}
			acc.days[k] = wt.acc.days[k]
			acc.order = append(acc.order, k)
		}
	}
	if err := writeRollups(ctx, tx, acc, now); err != nil {
		return err
	}
	if err := markRolled(ctx, tx, ids); err != nil {
		return err
	}
	rollupFlushes.Inc()
	return nil
}

// writeRollups writes the day changes of acc and the months and years they add to.
func writeRollups(ctx context.Context, tx *store.Tx, acc *accum, now int64) error {
	per := newPeriods()
	if _, err := mergeDays(ctx, tx, acc, per, nil, now); err != nil {
		return err
	}
	_, err := writePeriods(ctx, tx, per)
	return err
}

// markRolled records that every stored sample of the devices is in their roll-ups.
func markRolled(ctx context.Context, tx *store.Tx, ids []int64) error {
	for _, chunk := range chunks(ids, 500) {
		if _, err := tx.Exec(ctx, "UPDATE telemetry_latest SET rolled_ts = NULL WHERE device_id IN ("+placeholders(len(chunk))+")",
			int64Args(chunk)...); err != nil {
			return fmt.Errorf("telemetry: unable to mark roll-ups written: %w", err)
		}
	}
	return nil
}

// Recover adds to the roll-ups the samples a process that stopped before writing them
// left out (telemetry_latest.rolled_ts), from the stored samples, as the writes would
// have. The server calls it before anything reads the roll-ups; the first write of a
// Writer calls it too (a write marks its devices' samples rolled up). It answers how many
// samples it added.
//
// It recovers once per Writer: once it has, a rolled_ts that is not NULL is this writer's
// own waiting changes (only a write after the recovery leaves some), which its next flush
// writes. Adding their samples from the stored ones as well would count them twice: the
// server's Recover at start runs beside the first ingest requests, whose writes recover
// first and may have committed with their changes waiting by the time it gets wmu.
func (w *Writer) Recover(ctx context.Context) (int, error) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.recovered.Load() {
		return 0, nil
	}
	n, err := w.recoverLocked(ctx)
	if err == nil {
		w.recovered.Store(true)
	}
	return n, err
}

// ensureRecovered runs Recover once, before the writer's first write.
func (w *Writer) ensureRecovered(ctx context.Context) error {
	if w.recovered.Load() {
		return nil
	}
	_, err := w.Recover(ctx)
	return err
}

func (w *Writer) recoverLocked(ctx context.Context) (int, error) {
	type behind struct{ id, rolled int64 }
	var devs []behind
	rows, err := w.db.Query(ctx, "SELECT device_id, rolled_ts FROM telemetry_latest WHERE rolled_ts IS NOT NULL ORDER BY device_id")
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to read latest samples: %w", err)
	}
	for rows.Next() {
		var b behind
		if err := rows.Scan(&b.id, &b.rolled); err != nil {
			rows.Close()
			return 0, fmt.Errorf("telemetry: unable to read latest samples: %w", err)
		}
		devs = append(devs, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(devs) == 0 {
		return 0, err
	}
	if err := w.reg.sync(ctx); err != nil {
		return 0, err
	}
	now := w.opt.Now().UnixMilli()
	added := 0
	err = w.db.InTx(ctx, func(tx *store.Tx) error {
		acc := newAccum(w.opt.MaxGap.Milliseconds())
		ids := make([]int64, 0, len(devs))
		for _, b := range devs {
			ids = append(ids, b.id)
			dev, err := w.reg.device(ctx, b.id)
			if err != nil {
				return err
			}
			if dev == nil {
				continue // gone: nothing to add to
			}
			var anchor *rawRow
			if b.rolled > rolledNone {
				if anchor, err = loadBefore(ctx, tx, b.id, b.rolled+1, now); err != nil {
					return err
				}
			}
			bs, err := rawUnion(ctx, w.db, b.id, "ts > ?", "", []any{b.rolled}, "end_ts > ?", []any{b.rolled})
			if err != nil {
				return err
			}
			sort.Slice(bs, func(i, j int) bool { return bs[i].T < bs[j].T })
			news := make([]*rawRow, 0, len(bs))
			for i := range bs {
				if bs[i].T <= b.rolled {
					continue // the rest of a block or chunk
				}
				r, err := bs[i].rawRow(b.id)
				if err != nil {
					return err
				}
				r.idx = len(news)
				news = append(news, r)
			}
			if len(news) == 0 {
				continue
			}
			res := newResult(len(news))
			if _, err := runDevice(dev, anchor, emptySource{}, news, acc, &res); err != nil {
				return err
			}
			added += len(news)
		}
		if err := writeRollups(ctx, tx, acc, now); err != nil {
			return err
		}
		return markRolled(ctx, tx, ids)
	})
	if err != nil {
		return 0, err
	}
	if added > 0 {
		slog.Info("telemetry: roll-ups completed after a stop", "devices", len(devs), "samples", added)
	}
	return added, nil
}
