package telemetry

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Writing a batch: validation, grouping by device, one transaction that runs each device's
// samples through the counter and bucket code (rundevice.go) and stores what they change.

// Write validates and stores a batch in one transaction: raw samples, the latest row and
// every roll-up they change. Invalid samples are rejected whole and counted; the others
// are stored. It returns only after the commit.
func (w *Writer) Write(ctx context.Context, source string, samples []Sample) (Result, error) {
	return w.write(ctx, source, samples, false, false)
}

// WriteStrict is Write for callers that want all or nothing: if any sample is invalid,
// nothing is stored and the error is ErrInvalidBatch (Result says which and why).
func (w *Writer) WriteStrict(ctx context.Context, source string, samples []Sample) (Result, error) {
	return w.write(ctx, source, samples, true, false)
}

type deviceBatch struct {
	dev  *deviceInfo
	news []*rawRow
}

func (w *Writer) write(ctx context.Context, source string, samples []Sample, strict, deferrable bool) (Result, error) {
	w.writing.Add(1)
	defer w.writing.Add(-1)
	res := newResult(len(samples))
	if err := w.ensureRecovered(ctx); err != nil {
		return res, err
	}
	if err := w.reg.sync(ctx); err != nil {
		return res, err
	}
	now := w.opt.Now().UnixMilli()
	byDev := map[int64]*deviceBatch{}
	var ids []int64
	// a message holds one device's readings: look its device up once, not per sample
	var d *deviceInfo
	slab := make([]rawRow, len(samples)) // the new rows, allocated at once
	var b *deviceBatch
	for i := range samples {
		s := &samples[i]
		if d == nil || d.ID != s.DeviceID {
			var err error
			if d, err = w.reg.device(ctx, s.DeviceID); err != nil {
				return res, err
			}
			b = nil
		}
		if reason := w.check(d, s, now, false); reason != "" {
			res.set(i, Rejected, reason)
			continue
		}
		if b == nil {
			if b = byDev[s.DeviceID]; b == nil {
				b = &deviceBatch{dev: d}
				byDev[s.DeviceID] = b
				ids = append(ids, s.DeviceID)
			}
		}
		r := &slab[i]
		r.setSample(*s, i)
		b.news = append(b.news, r)
	}
	if strict {
		for _, o := range res.Outcomes {
			if o == Rejected {
				res.count()
				countResult(source, &res, nil)
				return res, ErrInvalidBatch
			}
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		news := byDev[id].news
		sort.SliceStable(news, func(i, j int) bool { return news[i].T < news[j].T })
	}
	if len(ids) == 0 {
		res.count()
		countResult(source, &res, nil)
		return res, nil
	}
	start := time.Now()
	var events eventCounts
	var change Change
	listening := w.listening()
	w.gate.RLock()
	deferring := w.deferring()
	if deferring {
		// no other write nor flush of this process between this one's transaction and
		// its changes joining the waiting ones
		w.wmu.Lock()
	}
	var acc *accum
	var tails []*rawRow
	err := w.db.InTx(ctx, func(tx *store.Tx) error {
		events = eventCounts{}
		var err error
		acc, tails, err = w.apply(ctx, tx, ids, byDev, &res, &events, now, deferrable && deferring)
		if err == nil && listening {
			change = changeOf(acc, tails)
			change.Xid, err = w.transactionID(ctx, tx)
		}
		return err
	})
	if deferring {
		if err == nil {
			w.committed(acc, tails)
		}
		w.wmu.Unlock()
	}
	if err != nil {
		w.gate.RUnlock()
		return res, err
	}
	if listening {
		w.emit(change)
	}
	w.gate.RUnlock()
	commitSeconds.Observe(time.Since(start).Seconds(), source)
	res.count()
	countResult(source, &res, &events)
	if hook := w.afterCommit.Load(); hook != nil && res.Accepted > 0 {
		accepted := make([]Sample, 0, res.Accepted)
		for i, o := range res.Outcomes {
			if o == Accepted {
				accepted = append(accepted, samples[i])
			}
		}
		(*hook)(ctx, accepted)
	}
	return res, nil
}

// AfterCommit registers fn to be told, after every committed Write, which samples were
// accepted (the alarm engine watches the stream this way). It is not called for the
// history a Backfill loads.
func (w *Writer) AfterCommit(fn func(ctx context.Context, accepted []Sample)) {
	w.afterCommit.Store(&fn)
}

// apply runs inside the transaction: it locks the devices (PostgreSQL), reads their
// latest rows, runs each device's samples through the counter and bucket code, and writes
// raw rows, latest rows and roll-ups (when deferrable and no sample reached back into the
// stored ones, the roll-up changes are left to the caller to merge with later writes':
// the accum returned is not rolled).
func (w *Writer) apply(ctx context.Context, tx *store.Tx, ids []int64, byDev map[int64]*deviceBatch, res *Result, ev *eventCounts, now int64, deferrable bool) (*accum, []*rawRow, error) {
	if tx.Dialect == store.Postgres {
		// Serialise writers of the same device, and of the same station's day rows, across
		// replicas (SQLite has one writer at a time anyway).
		stations := map[int64]bool{}
		for _, id := range ids {
			for _, s := range byDev[id].dev.stations {
				stations[s.id] = true
			}
		}
		st := make([]int64, 0, len(stations))
		for id := range stations {
			st = append(st, id)
		}
		if err := advisoryLocks(ctx, tx, 7340002, ids); err != nil {
			return nil, nil, err
		}
		if err := advisoryLocks(ctx, tx, 7340003, st); err != nil {
			return nil, nil, err
		}
	}
	latest, err := loadLatest(ctx, tx, ids)
	if err != nil {
		return nil, nil, err
	}
	acc := newAccum(w.opt.MaxGap.Milliseconds())
	var inserts, updates, tails []*rawRow
	var toUnseal [][]*rawRow // rows of the devices whose samples reach days that may be sealed
	var runs []chunkRun      // runs appended after a device's stored samples, written as chunks
	anyLate := false
	for _, id := range ids {
		b := byDev[id]
		news := uniq(b.news, res)
		if len(news) == 0 {
			continue
		}
		anchor := latest[id]
		var src rowSource = emptySource{}
		// a day that may be sealed is read from the blocks too, and unsealed where written
		sealed := maySeal(news[0].T, now)
		late := anchor != nil && news[0].T <= anchor.T
		anyLate = anyLate || late
		if late {
			// late or out-of-order: the chunks it reaches become rows, then the run
			// starts again from the stored sample before the earliest new one
			if err := unchunk(ctx, tx, id, news[0].T); err != nil {
				return nil, nil, err
			}
			if anchor, err = loadBefore(ctx, tx, id, news[0].T, now); err != nil {
				return nil, nil, err
			}
			src = newRawPager(ctx, tx, id, news[0].T, sealed)
			ev.late += len(news)
		}
		out, err := runDevice(b.dev, anchor, src, news, acc, res)
		if err != nil {
			return nil, nil, err
		}
		if sealed {
			toUnseal = append(toUnseal, out.inserts, out.updates)
		}
		ev.add(&out.events)
		rows := out.inserts
		if !late {
			least := w.chunkMin
			if least <= 0 {
				least = chunkMin
			}
			rows, runs = splitChunks(rows, least, runs)
		}
		inserts = append(inserts, rows...)
		updates = append(updates, out.updates...)
		if out.tail != nil {
			tails = append(tails, out.tail)
		}
	}
	if err := unsealFor(ctx, tx, now, toUnseal...); err != nil {
		return nil, nil, err
	}
	if err := insertRaw(ctx, tx, inserts); err != nil {
		return nil, nil, err
	}
	if err := insertChunks(ctx, tx, runs); err != nil {
		return nil, nil, err
	}
	if err := updateRawStates(ctx, tx, updates); err != nil {
		return nil, nil, err
	}
	// the roll-ups now, or merged with later writes' (deferred.go): a write that changed
	// stored samples (late, out of order) writes them now, with every change waiting
	rolled := !deferrable || anyLate
	if rolled {
		if err := w.writeWaiting(ctx, tx, now); err != nil {
			return nil, nil, err
		}
	}
	if err := upsertLatest(ctx, tx, tails, now, rolled); err != nil {
		return nil, nil, err
	}
	if rolled {
		if err := writeRollups(ctx, tx, acc, now); err != nil {
			return nil, nil, err
		}
		acc.rolled = true
	}
	return acc, tails, nil
}

// advisoryLocks takes PostgreSQL transaction locks on ids in one order, so that two
// batches never deadlock.
func advisoryLocks(ctx context.Context, tx *store.Tx, space int, ids []int64) error {
	keys := make([]int64, len(ids))
	for i, id := range ids {
		keys[i] = id % math.MaxInt32
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, chunk := range chunks(keys, 500) {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SELECT pg_advisory_xact_lock(%d, k) FROM (SELECT CAST(k AS INTEGER) AS k FROM (VALUES ", space)+
			valuesList(len(chunk))+") AS v(k) ORDER BY 1) AS s", int64Args(chunk)...); err != nil {
			return fmt.Errorf("telemetry: unable to lock devices: %w", err)
		}
	}
	return nil
}

func valuesList(n int) string {
	s := make([]byte, 0, n*4)
	for i := 0; i < n; i++ {
		if i > 0 {
			s = append(s, ',')
		}
		s = append(s, "(CAST(? AS BIGINT))"...)
	}
	return string(s)
}

// uniq keeps the first sample of each instant (news sorted by time, stable) and marks the
// others as duplicates or conflicts of it.
func uniq(news []*rawRow, res *Result) []*rawRow {
	out := news[:0:0]
	for _, r := range news {
		if n := len(out); n > 0 && out[n-1].T == r.T {
			markRepeat(res, r.idx, &out[n-1].Sample, &r.Sample)
			continue
		}
		out = append(out, r)
	}
	return out
}

func markRepeat(res *Result, idx int, first, again *Sample) {
	if idx < 0 {
		return
	}
	if sameValues(first, again) {
		res.set(idx, Duplicate, "")
	} else {
		res.set(idx, Conflict, "")
	}
}
