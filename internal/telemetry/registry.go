package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// DeviceInfo is what the write path knows about a device.
type DeviceInfo struct {
	ID          int64
	OrgID       int64
	StationID   int64
	SN          string
	CollectorSN string
	Type        string // inverter, battery, storage or meter
	// Kind groups a station's devices in station roll-ups: the type, and for meters with a
	// position "meter:grid", "meter:load", ….
	Kind string
	// RatedKW is devices.rated_power_kw (0 = unknown).
	RatedKW float64
	// BoundKW is the power used for the counter plausibility bound: the rated power, or
	// the station's installed capacity when the device has no rating (meters).
	BoundKW float64
	// KWp is the device's installed DC capacity (component_capacity_kwp).
	KWp float64
	// InStations is false for a device inside another device (a battery pack in an
	// all-in-one unit): its unit reports the flow, so station roll-ups skip it.
	InStations bool
}

type stationRef struct {
	id  int64
	cal *Calendar
}

type deviceInfo struct {
	DeviceInfo
	cal      *Calendar    // the device's station's calendar
	stations []stationRef // own station, then its ancestors; empty when !InStations
	derived  []stationRef // those on the device's calendar (fed from its day changes)
	direct   []stationRef // the others (fed sample by sample)
}

// split sorts the device's stations into those on its calendar (derived) and the others.
func (d *deviceInfo) split() {
	if len(d.derived)+len(d.direct) == len(d.stations) {
		return
	}
	d.derived, d.direct = nil, nil
	for _, s := range d.stations {
		if s.cal == d.cal {
			d.derived = append(d.derived, s)
		} else {
			d.direct = append(d.direct, s)
		}
	}
}

type snKey struct {
	org int64
	sn  string
}

// registry caches the devices and stations the write path needs. sync, called before
// every batch, reloads it when ingest_registry_version has moved on (database triggers
// move it on any change of a device or station that matters here, on any replica), so a
// device added, moved or deleted takes effect from the next batch. Lookups outside a
// batch also check the version every refreshEvery, and at most once a second for an
// unknown device.
type registry struct {
	db           *store.DB
	refreshEvery time.Duration

	mu       sync.RWMutex
	byID     map[int64]*deviceInfo
	bySN     map[snKey]*deviceInfo
	loadedAt time.Time
	missAt   time.Time
	version  int64 // ingest_registry_version when loaded (-1: unknown)
	reloads  uint64
}

// sync reloads the registry when a device or station changed since it was loaded.
func (r *registry) sync(ctx context.Context) error {
	var v int64
	if err := r.db.QueryRow(ctx, "SELECT version FROM ingest_registry_version WHERE id = 1").Scan(&v); err != nil {
		return fmt.Errorf("telemetry: unable to read the device registry version: %w", err)
	}
	r.mu.Lock()
	same := r.byID != nil && r.version == v
	if same {
		r.loadedAt = time.Now()
	}
	r.mu.Unlock()
	if same {
		return nil
	}
	return r.loadAt(ctx, false, v)
}

func newRegistry(db *store.DB) *registry {
	return &registry{db: db, refreshEvery: 30 * time.Second}
}

// device returns the device with the given id, or nil when there is none.
func (r *registry) device(ctx context.Context, id int64) (*deviceInfo, error) {
	return r.lookup(ctx, func() *deviceInfo { return r.byID[id] })
}

func (r *registry) deviceBySN(ctx context.Context, org int64, sn string) (*deviceInfo, error) {
	return r.lookup(ctx, func() *deviceInfo { return r.bySN[snKey{org, sn}] })
}

func (r *registry) lookup(ctx context.Context, find func() *deviceInfo) (*deviceInfo, error) {
	r.mu.RLock()
	d, stale, canRetry := find(), time.Since(r.loadedAt) > r.refreshEvery, time.Since(r.missAt) > time.Second
	r.mu.RUnlock()
	if d != nil && !stale {
		return d, nil
	}
	if d == nil && !stale && !canRetry {
		return nil, nil
	}
	// reloaded only when the registry moved on: a reload reads every device (seconds of
	// CPU at 200,000 devices), and an unknown device may send every few seconds
	if err := r.sync(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if d = find(); d == nil {
		r.missAt = time.Now()
	}
	return d, nil
}

// invalidate makes the next lookup reload.
func (r *registry) invalidate() {
	r.mu.Lock()
	r.loadedAt, r.missAt, r.version = time.Time{}, time.Time{}, -1
	r.mu.Unlock()
}

type stationRow struct {
	parent   int64
	cal      *Calendar
	capacity float64
}

// loadAt loads every device and station; version is the registry version read before
// (-1: not read, so the next sync reloads).
func (r *registry) loadAt(ctx context.Context, miss bool, version int64) error {
	stations := map[int64]stationRow{}
	rows, err := r.db.Query(ctx, "SELECT id, parent_id, timezone, capacity_kwp FROM stations")
	if err != nil {
		return fmt.Errorf("telemetry: unable to load stations: %w", err)
	}
	for rows.Next() {
		var id int64
		var parent sql.NullInt64
		var tz string
		var capKWp float64
		if err := rows.Scan(&id, &parent, &tz, &capKWp); err != nil {
			rows.Close()
			return fmt.Errorf("telemetry: unable to load stations: %w", err)
		}
		stations[id] = stationRow{parent: parent.Int64, cal: CalendarFor(tz), capacity: capKWp}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to load stations: %w", err)
	}

	byID, bySN := map[int64]*deviceInfo{}, map[snKey]*deviceInfo{}
	rows, err = r.db.Query(ctx, `SELECT id, org_id, station_id, parent_id, sn, collector_sn, type, meter_position,
		rated_power_kw, component_capacity_kwp FROM devices`)
	if err != nil {
		return fmt.Errorf("telemetry: unable to load devices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		d := &deviceInfo{}
		var parent sql.NullInt64
		var pos string
		if err := rows.Scan(&d.ID, &d.OrgID, &d.StationID, &parent, &d.SN, &d.CollectorSN, &d.Type, &pos,
			&d.RatedKW, &d.KWp); err != nil {
			return fmt.Errorf("telemetry: unable to load devices: %w", err)
		}
		st, ok := stations[d.StationID]
		if !ok {
			continue
		}
		d.Kind = d.Type
		if d.Type == "meter" && pos != "" {
			d.Kind = "meter:" + pos
		}
		d.BoundKW = d.RatedKW
		if d.BoundKW <= 0 {
			d.BoundKW = st.capacity
		}
		d.cal = st.cal
		d.InStations = !parent.Valid
		if d.InStations {
			// own station, then ancestors (guarding against a cycle)
			for id, n := d.StationID, 0; id != 0 && n < 16; n++ {
				s, ok := stations[id]
				if !ok {
					break
				}
				d.stations = append(d.stations, stationRef{id: id, cal: s.cal})
				id = s.parent
			}
			d.split()
		}
		byID[d.ID] = d
		bySN[snKey{d.OrgID, d.SN}] = d
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("telemetry: unable to load devices: %w", err)
	}
	r.mu.Lock()
	r.byID, r.bySN, r.loadedAt, r.version = byID, bySN, time.Now(), version
	r.reloads++
	if miss {
		r.missAt = time.Now()
	}
	r.mu.Unlock()
	return nil
}
