package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// fixture is a small fleet: a parent station with two sub-stations in different zones.
type fixture struct {
	db                 *store.DB
	org                int64
	parent, subA, subB int64
	inv1, inv2, meter  int64 // inv1 and inv2 in subA, meter in subB
	pack               int64 // a battery pack inside inv2's station, under a parent device
}

func insertID(t testing.TB, db *store.DB, q string, args ...any) int64 {
	t.Helper()
	id, err := db.Insert(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func newFixture(t testing.TB, db *store.DB) *fixture {
	t.Helper()
	now := time.Now().UnixMilli()
	f := &fixture{db: db}
	f.org = insertID(t, db, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Solar Org", now)
	station := func(parent any, name, zone string, kwp float64) int64 {
		return insertID(t, db, `INSERT INTO stations (org_id, parent_id, name, timezone, capacity_kwp, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, f.org, parent, name, zone, kwp, now, now)
	}
	f.parent = station(nil, "Plant", "Europe/Berlin", 0)
	f.subA = station(f.parent, "Plant A", "Europe/Berlin", 18)
	f.subB = station(f.parent, "Plant B", "Asia/Kolkata", 40)
	device := func(st int64, parent any, sn, typ, pos string, rated, kwp float64) int64 {
		return insertID(t, db, `INSERT INTO devices (org_id, station_id, parent_id, name, sn, type, meter_position, rated_power_kw,
			component_capacity_kwp, collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			f.org, st, parent, sn, sn, typ, pos, rated, kwp, "COLL-1", now, now)
	}
	f.inv1 = device(f.subA, nil, "INV-1", "inverter", "", 10, 12)
	f.inv2 = device(f.subA, nil, "INV-2", "inverter", "", 5, 6)
	f.meter = device(f.subB, nil, "MTR-1", "meter", "grid", 0, 0)
	f.pack = device(f.subA, f.inv2, "PACK-1", "battery", "", 5, 0)
	return f
}

// clock returns a fixed clock.
func clock(t time.Time) func() time.Time { return func() time.Time { return t } }

// reset deletes every telemetry row, so that a test can write the same stream again.
func (f *fixture) reset(t testing.TB) {
	t.Helper()
	for _, table := range []string{"telemetry_samples", "telemetry_sample_chunks", "telemetry_sample_blocks", "telemetry_sample_power", "telemetry_sample_power_todo", "telemetry_latest",
		"telemetry_device_rollups", "telemetry_station_rollups", "telemetry_station_month_days", "device_openings"} {
		if _, err := f.db.Exec(context.Background(), "DELETE FROM "+table); err != nil {
			t.Fatal(err)
		}
	}
}

// writer is a writer on the fixture's database that does not rest between devices, with
// runs of chunkMin samples or more written as chunks (0: the package's default).
func (f *fixture) writer(opt Options, chunkMin int) *Writer {
	w := NewWriter(f.db, opt)
	w.pause = func(context.Context, time.Duration) {}
	w.chunkMin = chunkMin
	return w
}

// devices are the fixture's devices as w's registry has them.
func (f *fixture) devices(t testing.TB, w *Writer) []*deviceInfo {
	t.Helper()
	var devs []*deviceInfo
	for _, id := range []int64{f.inv1, f.inv2, f.meter, f.pack} {
		d, err := w.reg.device(context.Background(), id)
		if err != nil || d == nil {
			t.Fatalf("device %d: %v", id, err)
		}
		devs = append(devs, d)
	}
	return devs
}
