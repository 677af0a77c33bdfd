// Package fleet keeps the figures the dashboards read in memory: per device its latest
// sample and its energy of recent days and of every year, per station (sub-stations
// included, as in the station roll-ups) its flows of recent days, recent months and every
// year, and the stations' device membership. The state is built from the roll-ups once,
// then kept by the write path's committed changes (telemetry.Writer.OnChange); a ticker
// drops what time has made too old to be read. A call reads the entries of the stations
// it shows, so its cost follows what it shows, not what the fleet holds.
package fleet

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Kept windows: days and months this recent are kept per owner (a read needs today and
// yesterday, this month and last month, in any time zone, the charts the days of this
// month and the months of this year, seen from any zone, and the fleet summary's compared
// stretches the days of last month, from its first, and the months of last year, from
// January); years are kept for ever.
const (
	keepDays   = 64 * 24 * time.Hour
	keepMonths = 760 * 24 * time.Hour
	// a device's days are read for today only; hours for the fleet's chart of today
	keepDeviceDays = 4 * 24 * time.Hour
	keepHours      = 4 * 24 * time.Hour
)

// period is what a station's roll-ups of one bucket add up to.
type period struct {
	telemetry.Flows
	RefKWh float64 // inverters' reference energy (PR = PV ÷ Ref)
	// The inverters' samples and sum of their temperatures (÷ = the bucket's mean), and
	// their online and fault minutes: what analysis's temperature-corrected PR and
	// availability read.
	Samples             int64
	TempSum             float64
	OnlineMin, FaultMin float64
	// GridMeter and LoadMeter say a grid or load meter reported in the bucket.
	GridMeter, LoadMeter bool
}

// stationFig is a station's kept roll-ups by bucket start.
type stationFig struct {
	hours, days, months, years map[int64]*period
	slots                      *[hourSlots]hourSlot // in front of hours (hours.go)
	newestHour                 int64                // the newest hour ever kept (with slots)
	total                      telemetry.Flows      // every year's
	// past changes whenever a bucket before the station's current day does (pastVersions)
	past     uint64
	firstDay int64 // start of its first day roll-up (when hasFirst)
	hasFirst bool
}

func newStationFig() *stationFig {
	return &stationFig{hours: map[int64]*period{}, days: map[int64]*period{}, months: map[int64]*period{}, years: map[int64]*period{}}
}

// deviceFig is a device's latest sample and kept energy roll-ups by bucket start.
type deviceFig struct {
	latest    telemetry.Sample
	hasLatest bool
	days      map[int64]float64
	total     float64 // every year roll-up
	// lastDay is the start of its newest day and lastKWh that day's energy: today's
	// energy without a map lookup (today is nearly always its newest day).
	lastDay int64
	lastKWh float64
}

func newDeviceFig() *deviceFig {
	return &deviceFig{days: map[int64]float64{}, lastDay: math.MinInt64}
}

// addDay adds energy to the day starting at start.
func (d *deviceFig) addDay(start int64, kwh float64) {
	d.days[start] += kwh
	if start >= d.lastDay {
		d.lastDay, d.lastKWh = start, d.days[start]
	}
}

// dayKWh is the energy of the day starting at start.
func (d *deviceFig) dayKWh(start int64) float64 {
	switch {
	case start == d.lastDay:
		return d.lastKWh
	case start > d.lastDay:
		return 0
	}
	return d.days[start]
}

// stationInfo is a station's place in the fleet.
type stationInfo struct {
	id, parent int64
	cal        *telemetry.Calendar
	kids       []*stationInfo  // its sub-stations
	devs       []*deviceInfo   // its own devices
	opening    telemetry.Flows // opening counters of its devices and its sub-stations'
	tally      atomic.Pointer[kept]
	// ver changes whenever a sample or roll-up of the station or of a sub-station does
	// (Versions); written under the state's lock
	ver   uint64
	up    *stationInfo              // its parent
	ranks atomic.Pointer[keptRanks] // its inverters in a ranking's order (rank.go)
}

// deviceInfo is a device's place in the fleet.
type deviceInfo struct {
	id, station   int64
	typ, meterPos string
	top           bool    // at the top of its station's device tree (no parent device)
	opening       float64 // main opening counter, kWh
	name, sn      string
	kwp           float64        // PV array behind an inverter
	rank          int            // place in the database's order of (type, name, id)
	fig           *deviceFig     // its figures (link keeps it): read without a map lookup
	row           *device.Device // as stored, with its station's name (not to be changed)
	place         int            // place in the device list's order (station name, type, name, id)
}

// State is the in-memory fleet. Its zero value is not usable: use New.
type State struct {
	db     *store.DB
	writer *telemetry.Writer
	now    func() time.Time

	mu       sync.RWMutex
	built    bool
	st       map[int64]*stationFig
	dev      map[int64]*deviceFig
	stations map[int64]*stationInfo
	devices  map[int64]*deviceInfo
	list     []*station.Station // every station, by name then id
	byID     map[int64]*station.Station
	grants   map[int64]map[int64]bool // department → granted stations
	pick     *picker                  // the stations by organisation and department
	loadedAt time.Time                // when the structure was last read, or found unchanged
	readAt   time.Time                // when it was last read
	mark     string                   // structureMark as of that read

	// changes counts Changed calls; loaded is the count a finished structure read had
	// seen before it began: a reader waits for a read that began after its caller's write
	changes, loaded atomic.Uint64
	buildMu         sync.Mutex // one rebuild at a time

	pastSeq      atomic.Uint64 // stationFig.past's numbers, never reused
	verSeq       uint64        // stationInfo.ver's numbers (under mu)
	j            journal       // the stations touched, in order (under mu; journal.go)
	structGen    uint64        // moves with every membership read (under mu)
	rebuildEvery time.Duration // with replicas: a full build this often (Replicate; 0: only when asked)
	builtAt      time.Time
	pending      *pendingChanges // while a build reads: the changes told meanwhile (under mu)
	rebuild      atomic.Bool     // a change may have been missed: Run builds again
	beatEvery    time.Duration   // Replicate's beats (0: BeatEvery)
	afterSnap    func()          // tests: run by Build once its snapshot is taken

	alarms   alarmIndex                          // the occurring and recent alarms per station (alarms.go)
	alarmPub atomic.Pointer[func([]AlarmChange)] // publishes this process's alarm changes (Replicate)
}

// StructureMaxAge is how long the stations' and devices' membership is trusted without
// a change being signalled (Changed): changes made outside the API show within it.
const StructureMaxAge = 30 * time.Second

// structureReadEvery is how often the membership is read again even when structureMark
// finds nothing different (a change it cannot see: a tag renamed to one as long).
const structureReadEvery = 10 * time.Minute

// structureMark is a fingerprint of what loadStructure reads, cheap beside reading it:
// counts, sums of ids and newest updates of the stations, devices, grants, tags and
// opening counters. A change made outside this process (another replica, or SQL by
// hand) moves it, unless it keeps every count, id and update time.
func structureMark(ctx context.Context, db *store.DB) (string, error) {
	var m string
	err := db.QueryRow(ctx, `SELECT
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(MAX(updated_at), 0) AS TEXT) || ':' ||
			CAST(COALESCE(SUM(id + COALESCE(parent_id, 0) * 3), 0) AS TEXT) FROM stations) || '|' ||
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(MAX(updated_at), 0) AS TEXT) || ':' ||
			CAST(COALESCE(SUM(id + station_id * 3), 0) AS TEXT) FROM devices) || '|' ||
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(SUM(station_id * 7919 + dept_id), 0) AS TEXT) FROM station_grants) || '|' ||
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(SUM(station_id * 7919 + tag_id), 0) AS TEXT) FROM station_tag_links) || '|' ||
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(SUM(id + LENGTH(name) * 7 + LENGTH(color)), 0) AS TEXT) FROM station_tags) || '|' ||
		(SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(SUM(energy_kwh + energy2_kwh + as_of), 0) AS TEXT) FROM device_openings)`).Scan(&m)
	return m, err
}

// New returns a state kept by w's changes (now nil: time.Now). It is built on first
// use, or by Build.
func New(db *store.DB, w *telemetry.Writer, now func() time.Time) *State {
	if now == nil {
		now = time.Now
	}
	s := &State{db: db, writer: w, now: now}
	w.OnChange(s.apply)
	return s
}

// Changed says stations or devices were added, edited, moved or deleted: the membership
// is read again before the next answer.
func (s *State) Changed() { s.changes.Add(1) }

// Ensure builds the state unless it is built (a back-fill's reload may have done it) and
// re-reads a membership that changed: the server calls it before reporting ready.
func (s *State) Ensure(ctx context.Context) error { return s.ensure(ctx) }

// ensure builds the state on first use and re-reads a membership that changed.
func (s *State) ensure(ctx context.Context) error {
	s.mu.RLock()
	built, age := s.built, time.Since(s.loadedAt)
	s.mu.RUnlock()
	if !built {
		return s.Build(ctx)
	}
	if s.loaded.Load() < s.changes.Load() || age > StructureMaxAge {
		return s.reloadStructure(ctx)
	}
	return nil
}

func (s *State) reloadStructure(ctx context.Context) error {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	// a read that finished while this one waited, and began after every change this
	// caller may have made, will do
	seen := s.changes.Load()
	if s.loaded.Load() >= seen {
		s.mu.RLock()
		fresh := time.Since(s.loadedAt) <= StructureMaxAge
		s.mu.RUnlock()
		if fresh {
			return nil // another reader did it
		}
	}
	mark, err := structureMark(ctx, s.db) // before the read: a change after it is seen next time
	if err != nil {
		return fmt.Errorf("fleet: unable to read stations and devices: %w", err)
	}
	if s.loaded.Load() >= seen { // only the age asks for this read: is anything different?
		s.mu.RLock()
		same := mark == s.mark && time.Since(s.readAt) < structureReadEvery
		s.mu.RUnlock()
		if same {
			s.mu.Lock()
			s.loadedAt = time.Now()
			s.mu.Unlock()
			return nil
		}
	}
	str, err := loadStructure(ctx, s.db)
	if err != nil {
		return fmt.Errorf("fleet: unable to read stations and devices: %w", err)
	}
	reads.Inc("membership")
	s.mu.Lock()
	s.setStructure(str)
	s.loadedAt, s.readAt, s.mark = time.Now(), time.Now(), mark
	// a deleted device's roll-ups are deleted with it
	for id := range s.dev {
		if _, ok := s.devices[id]; !ok {
			delete(s.dev, id)
		}
	}
	s.link()
	s.mu.Unlock()
	s.markLoaded(seen)
	// and a deleted station's alarms
	s.trimAlarms(s.now(), func(id int64) bool { return str.stations[id] != nil })
	return nil
}

// markLoaded records that a structure read which began once seen changes had been made
// is in place.
func (s *State) markLoaded(seen uint64) {
	for {
		old := s.loaded.Load()
		if old >= seen || s.loaded.CompareAndSwap(old, seen) {
			return
		}
	}
}

// link gives every device entry its figures (new, empty ones where it has none yet), so
// that the reads that walk a station's devices need no map lookup. s.mu is held.
func (s *State) link() {
	for id, d := range s.devices {
		f := s.dev[id]
		if f == nil {
			f = newDeviceFig()
			s.dev[id] = f
		}
		d.fig = f
	}
}

// figOf returns device id's figures, created (and linked) when it has none. s.mu is held.
func (s *State) figOf(id int64) *deviceFig {
	d := s.dev[id]
	if d == nil {
		d = newDeviceFig()
		s.dev[id] = d
		if info := s.devices[id]; info != nil {
			info.fig = d
		}
	}
	return d
}

// touch gives a station and its parents new versions. s.mu is held.
func (s *State) touch(st *stationInfo) {
	if st != nil {
		s.j.add(st.id) // its parents are named when read (ChangedSince)
	}
	for depth := 0; st != nil && depth < 8; st, depth = st.up, depth+1 { // 8: a loop in bad data ends
		s.verSeq++
		st.ver = s.verSeq
	}
}

// structGens numbers every membership read of every state (structGen), never reused.
var structGens atomic.Uint64

func (s *State) setStructure(str *structure) {
	s.structGen = structGens.Add(1)
	s.stations, s.devices, s.list, s.grants = str.stations, str.devices, str.list, str.grants
	s.byID = make(map[int64]*station.Station, len(str.list))
	for _, st := range str.list {
		s.byID[st.ID] = st
	}
	s.pick = newPicker(str.list, str.grants)
}
