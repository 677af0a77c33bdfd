package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// A device added, moved or deleted in the database (by this replica's API or another
// replica's) takes effect for the very next batch, without Refresh and without waiting
// for the periodic reload.
func TestRegistryFollowsDeviceChangesAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 7 * 24 * time.Hour})
		at := func(min int) time.Time { return now.Add(time.Duration(min-60) * time.Minute) }
		write := func(s Sample) Result {
			t.Helper()
			res, err := w.Write(ctx, "test-registry", []Sample{s})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if r := write(Sample{DeviceID: f.inv1, Time: at(0), PowerKW: 1, EnergyKWh: 10}); r.Accepted != 1 {
			t.Fatalf("first sample: %+v %v", r, r.Reasons)
		}
		// an unknown id was just asked for: before, the next miss waited a second
		if r := write(Sample{DeviceID: 987654, Time: at(1), PowerKW: 1}); r.Rejected != 1 {
			t.Fatalf("unknown device: %+v", r)
		}
		ms := time.Now().UnixMilli()
		added := insertID(t, db, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, collector_sn, created_at, updated_at)
			VALUES (?, ?, 'New', 'INV-NEW', 'inverter', 10, 'COLL-1', ?, ?)`, f.org, f.subA, ms, ms)
		if r := write(Sample{DeviceID: added, Time: at(2), PowerKW: 2, EnergyKWh: 1}); r.Accepted != 1 {
			t.Fatalf("a new device's first sample: %+v %v", r, r.Reasons)
		}
		d, ok, err := w.DeviceBySN(ctx, f.org, "INV-NEW")
		if err != nil || !ok || d.ID != added {
			t.Fatalf("by serial number: %+v %v %v", d, ok, err)
		}

		// moved to the other sub-station: the next sample feeds it
		if _, err := db.Exec(ctx, "UPDATE devices SET station_id = ? WHERE id = ?", f.subB, f.inv1); err != nil {
			t.Fatal(err)
		}
		if r := write(Sample{DeviceID: f.inv1, Time: at(10), PowerKW: 1, EnergyKWh: 11}); r.Accepted != 1 {
			t.Fatalf("after the move: %+v %v", r, r.Reasons)
		}
		var e float64
		if err := db.QueryRow(ctx, `SELECT COALESCE(SUM(energy_kwh), 0) FROM telemetry_station_rollups
			WHERE station_id = ? AND kind = 'inverter' AND res = (SELECT MIN(res) FROM telemetry_station_rollups)`, f.subB).Scan(&e); err != nil {
			t.Fatal(err)
		}
		if e < 0.999 || e > 1.001 {
			t.Fatalf("the new station got %.3f kWh from the moved inverter, want 1", e)
		}

		// deleted: refused from the next sample
		if _, err := db.Exec(ctx, "DELETE FROM devices WHERE id = ?", added); err != nil {
			t.Fatal(err)
		}
		if r := write(Sample{DeviceID: added, Time: at(11), PowerKW: 2, EnergyKWh: 2}); r.Rejected != 1 || r.Reasons[0] != ReasonUnknownDevice {
			t.Fatalf("a deleted device's sample: %+v %v", r, r.Reasons)
		}

		// nothing changed: no reload
		before := w.reg.reloads
		write(Sample{DeviceID: f.inv2, Time: at(12), PowerKW: 1, EnergyKWh: 1})
		write(Sample{DeviceID: f.inv2, Time: at(13), PowerKW: 1, EnergyKWh: 1.1})
		if w.reg.reloads != before {
			t.Fatalf("%d reloads without a change", w.reg.reloads-before)
		}
	})
}
