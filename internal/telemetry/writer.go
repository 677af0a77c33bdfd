package telemetry

import (
	"context"
	"errors"
	"math"
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
	xids        atomic.Bool  // Changes carry their transaction (RecordTransactionIDs)
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
	return w.validate(ctx, samples, false)
}

// ValidateHistory is Validate for samples meant for Backfill, which takes any age (no
// too_old): an import's dry run and its rows' checks.
func (w *Writer) ValidateHistory(ctx context.Context, samples []Sample) ([]string, error) {
	return w.validate(ctx, samples, true)
}

func (w *Writer) validate(ctx context.Context, samples []Sample, history bool) ([]string, error) {
	if err := w.reg.sync(ctx); err != nil {
		return nil, err
	}
	now := w.opt.Now().UnixMilli()
	out := make([]string, len(samples))
	// one registry look-up per device of the call, not per sample (a look-up takes the
	// registry's lock and reads the clock twice)
	var last *deviceInfo
	lastID := int64(-1)
	seen := map[int64]*deviceInfo{}
	for i := range samples {
		id := samples[i].DeviceID
		d, ok := last, id == lastID
		if !ok {
			if d, ok = seen[id]; !ok {
				var err error
				if d, err = w.reg.device(ctx, id); err != nil {
					return nil, err
				}
				seen[id] = d
			}
			last, lastID = d, id
		}
		out[i] = w.check(d, &samples[i], now, history)
	}
	return out, nil
}
