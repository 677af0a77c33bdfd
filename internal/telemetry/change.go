package telemetry

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/helio-energy/helio/internal/store"
)

// Change is what one committed write did to the figures the dashboards read: the devices'
// new latest samples and, per device and per station kind, how much each day roll-up
// grew. Month and year roll-ups grow by the same amounts (a day's month and year are
// those of its start in the owner's calendar). In-memory figures kept from Changes
// therefore match the stored roll-ups without reading them back.
type Change struct {
	Latest []Sample
	Days   []DayChange
	// Reload says the change was too broad to list (a back-fill): a listener reloads
	// what it keeps from the database.
	Reload bool
	// Xid is the PostgreSQL transaction that committed the change, when the writer records
	// them (RecordTransactionIDs); 0 otherwise. A reader holding a snapshot tells by it
	// whether the change is already in what it read (SnapshotSees).
	Xid uint64
}

// DayChange is the increment of one day roll-up.
type DayChange struct {
	ID int64
	// Kind is "" for a device's own roll-up, else the device kind of a station's.
	Kind       string
	Start, End int64 // the day's bounds, unix ms
	// Month and Year are the starts of the month and year roll-ups the day adds to.
	Month, Year int64
	Delta       Stats // additive fields only (extremes are not increments)
	// Hours are the increments of the day's hours that changed (station days only).
	Hours []HourChange
}

// HourChange is the increment of one hour of a day roll-up: its energies.
type HourChange struct {
	Start                 int64
	EnergyKWh, Energy2KWh float64
}

// changeHooks are the OnChange listeners.
type changeHooks struct {
	mu  sync.RWMutex
	fns []func(Change)
}

// OnChange registers fn to be told, after every commit of the write path and before the
// writer returns, what changed. Calls for one write never overlap a Writer.Exclusive.
// fn must be quick and must not write telemetry.
func (w *Writer) OnChange(fn func(Change)) {
	w.hooks.mu.Lock()
	w.hooks.fns = append(w.hooks.fns, fn)
	w.hooks.mu.Unlock()
}

func (w *Writer) emit(c Change) {
	w.hooks.mu.RLock()
	fns := w.hooks.fns
	w.hooks.mu.RUnlock()
	for _, fn := range fns {
		fn(c)
	}
}

func (w *Writer) listening() bool {
	w.hooks.mu.RLock()
	defer w.hooks.mu.RUnlock()
	return len(w.hooks.fns) > 0
}

// Exclusive runs fn while no write of this process is between its commit and its
// OnChange calls, and holds further writes back until fn returns: a listener reloading
// from the database sees every change it was told about, and is told of none it read.
func (w *Writer) Exclusive(fn func() error) error {
	w.gate.Lock()
	defer w.gate.Unlock()
	// the roll-ups hold every change told before fn reads them
	if err := w.Flush(context.Background()); err != nil {
		return err
	}
	return fn()
}

// RecordTransactionIDs makes every Change told from now on carry the PostgreSQL transaction
// that committed it (one more statement per write; nothing on SQLite, where one process
// writes). Replicas need it to build beside a live state (internal/fleet).
func (w *Writer) RecordTransactionIDs() { w.xids.Store(true) }

// transactionID is the id of tx's PostgreSQL transaction, 0 on SQLite or when not recorded.
func (w *Writer) transactionID(ctx context.Context, tx *store.Tx) (uint64, error) {
	if !w.xids.Load() || tx.Dialect != store.Postgres {
		return 0, nil
	}
	var s string
	if err := tx.QueryRow(ctx, "SELECT CAST(pg_current_xact_id() AS TEXT)").Scan(&s); err != nil {
		return 0, fmt.Errorf("telemetry: unable to read the transaction id: %w", err)
	}
	return strconv.ParseUint(s, 10, 64)
}

// Snapshot is what a PostgreSQL snapshot (pg_current_snapshot()) holds: transactions
// before Xmin are finished, those from Xmax on had not begun, and InProgress were running.
type Snapshot struct {
	Xmin, Xmax uint64
	InProgress []uint64
}

// ParseSnapshot reads the text form of pg_snapshot, "xmin:xmax:xip,xip,…".
func ParseSnapshot(s string) (Snapshot, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	if len(parts) != 3 {
		return Snapshot{}, fmt.Errorf("telemetry: not a snapshot: %q", s)
	}
	var sn Snapshot
	var err error
	if sn.Xmin, err = strconv.ParseUint(parts[0], 10, 64); err != nil {
		return Snapshot{}, fmt.Errorf("telemetry: not a snapshot: %q", s)
	}
	if sn.Xmax, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
		return Snapshot{}, fmt.Errorf("telemetry: not a snapshot: %q", s)
	}
	if parts[2] != "" {
		for _, x := range strings.Split(parts[2], ",") {
			v, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return Snapshot{}, fmt.Errorf("telemetry: not a snapshot: %q", s)
			}
			sn.InProgress = append(sn.InProgress, v)
		}
	}
	return sn, nil
}

// Sees reports whether the committed transaction xid is visible in the snapshot (as
// pg_visible_in_snapshot does for a committed one).
func (sn Snapshot) Sees(xid uint64) bool {
	if xid < sn.Xmin {
		return true
	}
	if xid >= sn.Xmax {
		return false
	}
	for _, x := range sn.InProgress {
		if x == xid {
			return false
		}
	}
	return true
}

// LatestIn reads the devices' latest samples through q (a transaction, for a read
// consistent with others in it).
func LatestIn(ctx context.Context, q querier, ids []int64) (map[int64]Sample, error) {
	rows, err := loadLatest(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]Sample, len(rows))
	for id, row := range rows {
		out[id] = row.Sample
	}
	return out, nil
}

// Within returns a reader whose roll-up reads (DeviceRollups, StationRollups) go through q,
// a transaction: a snapshot's reads agree with each other.
func (r *Reader) Within(q querier) *Reader {
	c := *r
	c.tx = q
	return &c
}

// changeOf lists the accepted day increments of acc and the new latest rows.
func changeOf(acc *accum, tails []*rawRow) Change {
	c := Change{Latest: make([]Sample, 0, len(tails)), Days: make([]DayChange, 0, len(acc.order))}
	for _, r := range tails {
		c.Latest = append(c.Latest, r.Sample)
	}
	for _, k := range acc.order {
		d := acc.days[k]
		ms, _ := d.cal.Month(k.start)
		ys, _ := d.cal.Year(k.start)
		dc := DayChange{ID: k.id, Kind: k.kind, Start: d.start, End: d.end, Month: ms, Year: ys, Delta: d.total()}
		if k.kind != "" {
			for i := range d.hours {
				if h := &d.hours[i]; h.EnergyKWh != 0 || h.Energy2KWh != 0 {
					dc.Hours = append(dc.Hours, HourChange{Start: d.start + int64(i)*hourMs, EnergyKWh: h.EnergyKWh, Energy2KWh: h.Energy2KWh})
				}
			}
		}
		c.Days = append(c.Days, dc)
	}
	return c
}

// Add adds a roll-up of the given device kind to the flows (see Flows).
func (f *Flows) Add(kind string, s *Stats) { f.add(kind, s) }

// Sum adds other flows.
func (f *Flows) Sum(o Flows) { f.sum(o) }
