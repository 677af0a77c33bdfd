package fleet

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// checkCutoffs compares every station's day-curve cutoff from the kept latest samples with
// the one read from telemetry_latest, for each kind, over the last day and the day before.
func checkCutoffs(t *testing.T, r *rig, label string) {
	t.Helper()
	ctx := context.Background()
	reader := telemetry.NewReader(r.db, telemetry.Options{Now: r.now})
	now := r.now().UnixMilli()
	day := (24 * time.Hour).Milliseconds()
	for _, id := range r.stations {
		for _, kind := range []string{"inverter", "meter:grid", "meter:load", "battery"} {
			for _, span := range [][2]int64{{now - day, now + time.Hour.Milliseconds()}, {now - 2*day, now - day}} {
				got, ok, err := r.s.CurveCutoff(ctx, id, kind, span[0], span[1])
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					continue // a deleted station
				}
				want, err := reader.CurveCutoff(ctx, id, kind, span[0], span[1])
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%s: station %d %s over [%d, %d): cutoff %d kept, %d from the latest rows", label, id, kind, span[0], span[1], got, want)
				}
			}
		}
	}
}

// The cutoff of a station's curve from the kept latest samples: the oldest latest sample of
// the top-level devices of the kind, of the station and its sub-stations, that report within
// the live window of the newest; a child device and one gone quiet do not hold it back; a
// finished day's cutoff is its end. Both databases, against telemetry_latest too.
func TestCurveCutoffFromKeptLatest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		T := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
		ms := T.UnixMilli()
		org := insert(t, db, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Org", ms)
		st := insert(t, db, `INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`, org, "S", "UTC", 50, ms, ms)
		sub := insert(t, db, `INSERT INTO stations (org_id, parent_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, org, st, "S-a", "UTC", 50, ms, ms)
		dev := func(station int64, parent any, typ, pos, sn string) int64 {
			return insert(t, db, `INSERT INTO devices (org_id, station_id, parent_id, name, sn, type, meter_position, rated_power_kw, collector_sn, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, org, station, parent, sn, sn, typ, pos, 10, "C", ms, ms)
		}
		inv1 := dev(st, nil, "inverter", "", "I1")
		inv2 := dev(sub, nil, "inverter", "", "I2")
		child := dev(st, inv1, "inverter", "", "I3")
		quiet := dev(sub, nil, "inverter", "", "I4")
		grid := dev(st, nil, "meter", "grid", "M1")
		now := T
		w := telemetry.NewWriter(db, telemetry.Options{Now: func() time.Time { return now }})
		s := New(db, w, func() time.Time { return now })
		if err := s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		at := func(id int64, ago time.Duration) telemetry.Sample {
			return telemetry.Sample{DeviceID: id, Time: T.Add(-ago), PowerKW: 1, EnergyKWh: 10, ACVoltageV: 230, FrequencyHz: 50, Status: telemetry.StatusRunning}
		}
		if _, err := w.Write(ctx, "test", []telemetry.Sample{at(inv1, 0), at(inv2, 10*time.Minute), at(child, 12*time.Minute),
			at(quiet, 16*time.Minute), at(grid, time.Minute)}); err != nil {
			t.Fatal(err)
		}
		reader := telemetry.NewReader(db, telemetry.Options{Now: func() time.Time { return now }})
		day := (24 * time.Hour).Milliseconds()
		for _, c := range []struct {
			kind       string
			start, end int64
			want       int64
		}{
			{"inverter", ms - day, ms + day, ms - (10 * time.Minute).Milliseconds()},
			{"meter:grid", ms - day, ms + day, ms - time.Minute.Milliseconds()},
			{"meter:load", ms - day, ms + day, ms + day},
			{"inverter", ms - 2*day, ms - day, ms - day},
		} {
			got, ok, err := s.CurveCutoff(ctx, st, c.kind, c.start, c.end)
			if err != nil || !ok {
				t.Fatalf("%s: %v (ok %v)", c.kind, err, ok)
			}
			sql, err := reader.CurveCutoff(ctx, st, c.kind, c.start, c.end)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || sql != c.want {
				t.Fatalf("%s over [%d, %d): kept %d, from the latest rows %d, want %d", c.kind, c.start, c.end, got, sql, c.want)
			}
		}
	})
}
