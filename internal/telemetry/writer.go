package telemetry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Options tune the write path. Zero values take the defaults.
type Options struct {
	// RawRetention is how long raw samples are kept (default 30 days). Samples older than
	// this are rejected by Write (Backfill takes them for the roll-ups only).
	RawRetention time.Duration
	// MaxFuture is how far ahead of the clock a sample may be (default 5 minutes).
	MaxFuture time.Duration
	// MaxGap is the longest interval between two samples over which power, irradiance and
	// status are interpolated (default 30 minutes). Counter energy spans any gap.
	MaxGap time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// RollupDelay is how long the roll-up changes of a streaming write (a Batcher's) may
	// wait to be written with those of the writes after it (default DefaultRollupDelay;
	// negative: written with the samples). SQLite only: on PostgreSQL every write writes
	// its roll-ups (deferred.go).
	RollupDelay time.Duration
	// PruneShare is the largest share of one core the raw-sample pruner takes (default 0.5):
	// after each device's delete it waits so long that deleting keeps to this share, so a
	// first prune of a large history does not starve the requests beside it.
	PruneShare float64
}

// Defaults.
const (
	DefaultRawRetention = 30 * 24 * time.Hour
	DefaultMaxFuture    = 5 * time.Minute
	DefaultMaxGap       = 30 * time.Minute
	// pruneMargin keeps raw samples a day beyond the retention window, so a late sample at
	// the window's edge still finds its neighbours.
	pruneMargin = 24 * time.Hour
)

// Writer is the one validated write path for telemetry: every source (simulator, MQTT,
// HTTP, CSV import) hands its samples to Write, a Batcher or Backfill.
type Writer struct {
	afterCommit atomic.Pointer[func(ctx context.Context, accepted []Sample)]
	hooks       changeHooks
	gate        sync.RWMutex // held shared from a write's transaction to its OnChange calls
	db          *store.DB
	opt         Options
	reg         *registry
	// pause waits between two devices' prunes (a test records it instead)
	pause func(ctx context.Context, d time.Duration)
	// chunkMin is the shortest run written as a chunk (0: the package's chunkMin)
	chunkMin int

	// deferred roll-ups (deferred.go)
	wmu       sync.Mutex // held by a write from before its transaction until its changes wait
	waiting   *waiting   // the roll-up changes of committed writes not written yet (wmu)
	writing   atomic.Int64
	timers    rollupTimers
	recovered atomic.Bool
}

// NewWriter returns a Writer on a migrated database.
func NewWriter(db *store.DB, opt Options) *Writer {
	return &Writer{db: db, opt: opt.withDefaults(), reg: newRegistry(db)}
}

func (opt Options) withDefaults() Options {
	if opt.RawRetention <= 0 {
		opt.RawRetention = DefaultRawRetention
	}
	if opt.MaxFuture <= 0 {
		opt.MaxFuture = DefaultMaxFuture
	}
	if opt.MaxGap <= 0 {
		opt.MaxGap = DefaultMaxGap
	}
	if opt.PruneShare <= 0 || opt.PruneShare > 1 {
		opt.PruneShare = 0.5
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return opt
}

// Options returns the writer's effective options.
func (w *Writer) Options() Options { return w.opt }

// Refresh makes the writer reload devices and stations on next use. Changes made in the
// database are picked up without it: every batch first checks the registry version the
// database moves on for any device or station change (Sync).
func (w *Writer) Refresh() { w.reg.invalidate() }

// Sync brings the writer's devices and stations up to date with the database when
// anything changed (one single-row read when nothing did). Write, WriteStrict and
// Validate call it; callers that look devices up first (MQTT) call it per message.
func (w *Writer) Sync(ctx context.Context) error { return w.reg.sync(ctx) }

// Device returns what the write path knows about a device (ok false when unknown).
func (w *Writer) Device(ctx context.Context, id int64) (DeviceInfo, bool, error) {
	d, err := w.reg.device(ctx, id)
	if err != nil || d == nil {
		return DeviceInfo{}, false, err
	}
	return d.DeviceInfo, true, nil
}

// DeviceBySN finds a device by organisation and serial number.
func (w *Writer) DeviceBySN(ctx context.Context, orgID int64, sn string) (DeviceInfo, bool, error) {
	d, err := w.reg.deviceBySN(ctx, orgID, sn)
	if err != nil || d == nil {
		return DeviceInfo{}, false, err
	}
	return d.DeviceInfo, true, nil
}

// Outcome is what became of one sample.
type Outcome uint8

const (
	Accepted  Outcome = iota // stored
	Duplicate                // the same reading was already stored: ignored
	Conflict                 // a different reading at the same instant was stored first: ignored
	Rejected                 // invalid: not stored (see Result.Reasons)
)

var outcomeNames = [...]string{"accepted", "duplicate", "conflict", "rejected"}

func (o Outcome) String() string { return outcomeNames[o] }

// Rejection reasons.
const (
	ReasonUnknownDevice = "unknown_device"
	ReasonMissingTime   = "missing_time"
	ReasonNotFinite     = "not_finite"
	ReasonNegative      = "negative_counter"
	ReasonPower         = "power_out_of_range"
	ReasonAbsurd        = "value_out_of_range"
	ReasonFuture        = "future_time"
	ReasonTooOld        = "too_old"
	ReasonOutOfOrder    = "out_of_order" // Backfill: before the device's last sample and beyond the raw window
)

// Result tells what became of a batch.
type Result struct {
	Accepted   int `json:"accepted"`
	Duplicates int `json:"duplicates"`
	Conflicts  int `json:"conflicts"`
	Rejected   int `json:"rejected"`
	// Outcomes has one entry per sample, in the caller's order; Reasons one per sample
	// ("" unless rejected).
	Outcomes []Outcome `json:"-"`
	Reasons  []string  `json:"-"`
}

func newResult(n int) Result {
	return Result{Outcomes: make([]Outcome, n), Reasons: make([]string, n)}
}

func (r *Result) set(i int, o Outcome, reason string) {
	r.Outcomes[i], r.Reasons[i] = o, reason
}

func (r *Result) count() {
	r.Accepted, r.Duplicates, r.Conflicts, r.Rejected = 0, 0, 0, 0
	for _, o := range r.Outcomes {
		switch o {
		case Accepted:
			r.Accepted++
		case Duplicate:
			r.Duplicates++
		case Conflict:
			r.Conflicts++
		case Rejected:
			r.Rejected++
		}
	}
}

// ErrInvalidBatch is returned by WriteStrict when a sample is invalid: nothing was stored.
var ErrInvalidBatch = errors.New("telemetry: batch has invalid samples")

// check validates one sample (d nil = unknown device). backfill skips the age limit.
func (w *Writer) check(d *deviceInfo, s *Sample, now int64, backfill bool) string {
	switch {
	case d == nil:
		return ReasonUnknownDevice
	case s.Time.IsZero():
		return ReasonMissingTime
	case !finite(s.PowerKW, s.EnergyKWh, s.Energy2KWh, s.DCVoltageV, s.DCCurrentA, s.ACVoltageV, s.FrequencyHz,
		s.TempC, s.SOC, s.IrradianceWm2):
		return ReasonNotFinite
	case s.EnergyKWh < 0 || s.Energy2KWh < 0:
		return ReasonNegative
	case math.Abs(s.PowerKW) > 1e6 || d.RatedKW > 0 && math.Abs(s.PowerKW) > 1.5*d.RatedKW+1:
		return ReasonPower
	case s.EnergyKWh > 1e12 || s.Energy2KWh > 1e12 || s.SOC < 0 || s.SOC > 100 || s.TempC < -60 || s.TempC > 150 ||
		s.IrradianceWm2 < -50 || s.IrradianceWm2 > 2000 || s.DCVoltageV < 0 || s.DCVoltageV > 1e5 ||
		s.ACVoltageV < 0 || s.ACVoltageV > 1e5 || math.Abs(s.DCCurrentA) > 1e5 || s.FrequencyHz < 0 ||
		s.FrequencyHz > 1000 || s.StringsActive < 0:
		return ReasonAbsurd
	}
	t := s.Time.UnixMilli()
	if t > now+w.opt.MaxFuture.Milliseconds() {
		return ReasonFuture
	}
	if !backfill && t < now-w.opt.RawRetention.Milliseconds() {
		return ReasonTooOld
	}
	return ""
}

// Validate checks samples without storing anything: one reason per sample, "" when valid.
func (w *Writer) Validate(ctx context.Context, samples []Sample) ([]string, error) {
	if err := w.reg.sync(ctx); err != nil {
		return nil, err
	}
	now := w.opt.Now().UnixMilli()
	out := make([]string, len(samples))
	for i := range samples {
		d, err := w.reg.device(ctx, samples[i].DeviceID)
		if err != nil {
			return nil, err
		}
		out[i] = w.check(d, &samples[i], now, false)
	}
	return out, nil
}

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

// rowSource yields a device's stored raw rows in time order.
type rowSource interface{ next() *rawRow }

type emptySource struct{}

func (emptySource) next() *rawRow { return nil }

type sourceErr interface{ error() error }

func (p *rawPager) error() error { return p.err }

type runOutput struct {
	inserts, updates []*rawRow
	tail             *rawRow // the device's new last row, when it changed
	events           eventCounts
}

// runDevice merges a device's new samples (sorted, one per instant) into its stored
// sequence: from anchor (the stored row before the first new sample, nil when none) it
// walks the stored rows (src) and the new ones in time order, recomputing the counter
// state, taking back the segments that changed and adding the new ones, until nothing
// new is left and the recomputed state matches the stored one.
func runDevice(dev *deviceInfo, anchor *rawRow, src rowSource, news []*rawRow, into *accum, res *Result) (runOutput, error) {
	var out runOutput
	acc := newAccum(into.maxGap)
	defer into.absorb(dev, acc)
	tgs := acc.targets(dev)
	mid := dev.cal.Midnight
	step := func(p *rawRow, x *rawRow) (CounterState, CounterState, CounterStep, CounterStep) {
		c1, s1 := StepCounter(p.C1, x.EnergyKWh, x.T, dev.BoundKW, mid)
		c2, s2 := StepCounter(p.C2, x.Energy2KWh, x.T, dev.BoundKW, mid)
		return c1, c2, s1, s2
	}
	prev, dbPrev := anchor, anchor
	prevChanged := false
	e := src.next()
	i := 0
	for {
		if i == len(news) && (!prevChanged || e == nil) {
			break
		}
		if e != nil && (i == len(news) || e.T < news[i].T) {
			old := *e
			switch {
			case !prevChanged:
				// nothing before e changed: it stays as stored
			case dbPrev == nil && !e.First:
				// e's predecessor was pruned: its segment cannot be taken back, so it stays
			default:
				if dbPrev != nil {
					_, _, o1, o2 := step(dbPrev, e)
					acc.addSegment(tgs, dev.KWp, dbPrev, e, o1, o2, -1)
				}
				c1, c2, s1, s2 := step(prev, e)
				acc.addSegment(tgs, dev.KWp, prev, e, s1, s2, 1)
				e.C1, e.C2, e.First = c1, c2, false
				if changed := e.C1 != old.C1 || e.C2 != old.C2 || old.First; changed {
					out.updates = append(out.updates, e)
					prev, dbPrev, prevChanged = e, &old, true
					e = src.next()
					continue
				}
			}
			prev, dbPrev, prevChanged = e, &old, false
			e = src.next()
			continue
		}
		n := news[i]
		i++
		if e != nil && e.T == n.T {
			markRepeat(res, n.idx, &e.Sample, &n.Sample)
			continue
		}
		if prev == nil {
			n.C1 = CounterState{Ref: n.EnergyKWh, RefT: n.T}
			n.C2 = CounterState{Ref: n.Energy2KWh, RefT: n.T}
			n.First = true
		} else {
			c1, c2, s1, s2 := step(prev, n)
			n.C1, n.C2 = c1, c2
			acc.addSegment(tgs, dev.KWp, prev, n, s1, s2, 1)
			out.events.count(s1.Event)
			out.events.count(s2.Event)
		}
		acc.addSample(tgs, n)
		out.inserts = append(out.inserts, n)
		res.set(n.idx, Accepted, "")
		prev, prevChanged = n, true
	}
	if se, ok := src.(sourceErr); ok && se.error() != nil {
		return out, se.error()
	}
	if e == nil && prevChanged {
		out.tail = prev
	}
	return out, nil
}
