package fleet

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// rig is a small fleet in several time zones, a writer and a state on one clock.
type rig struct {
	db       *store.DB
	w        *telemetry.Writer
	s        *State
	clock    atomic.Int64
	org      int64
	stations []int64
	devices  []int64
	counters map[int64][2]float64 // device → its two counters as last reported
	kinds    map[int64]string
}

func (r *rig) now() time.Time { return time.UnixMilli(r.clock.Load()).UTC() }

func insert(t testing.TB, db *store.DB, q string, args ...any) int64 {
	t.Helper()
	id, err := db.Insert(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func newRig(t testing.TB, db *store.DB, start time.Time) *rig {
	r := &rig{db: db, counters: map[int64][2]float64{}, kinds: map[int64]string{}}
	r.clock.Store(start.UnixMilli())
	now := start.UnixMilli()
	r.org = insert(t, db, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Org", now)
	station := func(parent any, name, zone string) int64 {
		id := insert(t, db, `INSERT INTO stations (org_id, parent_id, name, timezone, capacity_kwp, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, r.org, parent, name, zone, 50, now, now)
		r.stations = append(r.stations, id)
		return id
	}
	zones := []string{"Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata", "UTC", "Europe/Berlin"}
	for i, z := range zones {
		top := station(nil, fmt.Sprintf("S%d", i), z)
		subs := []int64{top}
		if i%2 == 0 { // sub-stations in another zone
			subs = append(subs, station(top, fmt.Sprintf("S%d-a", i), zones[(i+1)%len(zones)]), station(top, fmt.Sprintf("S%d-b", i), z))
		}
		for j, st := range subs {
			for k, typ := range []string{"inverter", "inverter", "meter", "battery"} {
				pos := ""
				if typ == "meter" {
					pos = []string{"grid", "load"}[(j+k)%2]
				}
				sn := fmt.Sprintf("D%d-%d-%d", i, j, k)
				id := insert(t, db, `INSERT INTO devices (org_id, station_id, name, sn, type, meter_position, rated_power_kw,
					component_capacity_kwp, collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
					r.org, st, sn, sn, typ, pos, 10, 12, "C", now, now)
				r.devices = append(r.devices, id)
				r.kinds[id] = typ
			}
		}
	}
	// half the devices came with a history: their opening counters
	var open []telemetry.Opening
	for i, id := range r.devices {
		if i%2 == 0 {
			open = append(open, telemetry.Opening{DeviceID: id, EnergyKWh: float64(1000 + 37*i), Energy2KWh: float64(11 * i), AsOf: start, Basis: "test"})
		}
	}
	if _, err := telemetry.SetOpenings(context.Background(), db, open); err != nil {
		t.Fatal(err)
	}
	r.w = telemetry.NewWriter(db, telemetry.Options{Now: r.now})
	r.s = New(db, r.w, r.now)
	return r
}

// step writes one round of samples at the clock's now: most devices report, some stay
// silent (gaps), some counters reset, some samples come late or out of order.
func (r *rig) step(t testing.TB, rng *rand.Rand) { r.stepThrough(t, rng, r.w) }

// stepThrough is step through the given writer.
func (r *rig) stepThrough(t testing.TB, rng *rand.Rand, w *telemetry.Writer) {
	t.Helper()
	now := r.now()
	var batch []telemetry.Sample
	for _, id := range r.devices {
		if rng.IntN(6) == 0 {
			continue // offline for this round
		}
		c := r.counters[id]
		at := now.Add(-time.Duration(rng.IntN(300)) * time.Second)
		if rng.IntN(8) == 0 {
			at = now.Add(-time.Duration(1+rng.IntN(40)) * time.Hour) // late
		}
		if rng.IntN(15) == 0 {
			c = [2]float64{rng.Float64(), rng.Float64()} // counter reset
		} else {
			c[0] += rng.Float64() * 8
			c[1] += rng.Float64() * 3
		}
		r.counters[id] = c
		status := telemetry.StatusRunning
		if rng.IntN(10) == 0 {
			status = telemetry.StatusFault
		}
		batch = append(batch, telemetry.Sample{DeviceID: id, Time: at, PowerKW: rng.Float64() * 10, EnergyKWh: c[0], Energy2KWh: c[1],
			IrradianceWm2: rng.Float64() * 900, ACVoltageV: 230, FrequencyHz: 50, Status: status})
	}
	rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
	for len(batch) > 0 {
		n := min(len(batch), 1+rng.IntN(20))
		if _, err := w.Write(context.Background(), "test", batch[:n]); err != nil {
			t.Fatal(err)
		}
		batch = batch[n:]
	}
}

// moveDevice puts a random device under another station.
func (r *rig) moveDevice(t testing.TB, rng *rand.Rand) {
	ctx := context.Background()
	id := r.devices[rng.IntN(len(r.devices))]
	st := r.stations[rng.IntN(len(r.stations))]
	if _, err := r.db.Exec(ctx, "UPDATE devices SET station_id = ?, parent_id = NULL WHERE id = ?", st, id); err != nil {
		t.Fatal(err)
	}
	r.w.Refresh()
	r.s.Changed()
}

// deleteStation deletes a station without sub-stations, with its devices.
func (r *rig) deleteStation(t testing.TB, rng *rand.Rand) {
	ctx := context.Background()
	for _, i := range rng.Perm(len(r.stations)) {
		st := r.stations[i]
		var children int
		if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM stations WHERE parent_id = ?", st).Scan(&children); err != nil {
			t.Fatal(err)
		}
		if children > 0 {
			continue
		}
		err := r.db.InTx(ctx, func(tx *store.Tx) error {
			rows, err := tx.Query(ctx, "SELECT id FROM devices WHERE station_id = ?", st)
			if err != nil {
				return err
			}
			var gone []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return err
				}
				gone = append(gone, id)
			}
			rows.Close()
			for _, id := range gone {
				if err := telemetry.DeleteDeviceData(ctx, tx, id); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, "DELETE FROM devices WHERE id = ?", id); err != nil {
					return err
				}
			}
			_, err = tx.Exec(ctx, "DELETE FROM stations WHERE id = ?", st)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		r.stations = append(r.stations[:i], r.stations[i+1:]...)
		left := r.devices[:0]
		for _, id := range r.devices {
			var n int
			if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM devices WHERE id = ?", id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				left = append(left, id)
			}
		}
		r.devices = left
		r.w.Refresh()
		r.s.Changed()
		return
	}
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func nearFlows(a, b telemetry.Flows) bool {
	return near(a.PVKWh, b.PVKWh) && near(a.DischargeKWh, b.DischargeKWh) && near(a.ChargeKWh, b.ChargeKWh) &&
		near(a.ImportKWh, b.ImportKWh) && near(a.ExportKWh, b.ExportKWh) && near(a.LoadKWh, b.LoadKWh)
}

func TestStateMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(testing.TB) *store.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { runProperty(t, tc.db(t), seed) })
			}
		})
	}
}

// runProperty drives random ingest over a year end (every zone's midnight, month end and
// year end pass) and checks the state against the brute force as it goes, then after a
// restart.
func runProperty(t *testing.T, db *store.DB, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	start := time.Date(2025, 12, 30, 5, 0, 0, 0, time.UTC)
	r := newRig(t, db, start)
	ctx := context.Background()
	if err := r.s.Build(ctx); err != nil {
		t.Fatal(err)
	}
	step := 97 * time.Minute // not a divisor of an hour: samples land everywhere
	for i := 0; r.now().Before(start.Add(76 * time.Hour)); i++ {
		r.step(t, rng)
		switch rng.IntN(12) {
		case 0:
			r.moveDevice(t, rng)
		case 1:
			if i > 10 && len(r.stations) > 6 {
				r.deleteStation(t, rng)
			}
		case 2: // a device's opening counters are stored
			id := r.devices[rng.IntN(len(r.devices))]
			if _, err := telemetry.SetOpenings(ctx, db, []telemetry.Opening{{DeviceID: id, EnergyKWh: rng.Float64() * 5e4,
				Energy2KWh: rng.Float64() * 100, AsOf: r.now(), Basis: "test"}}); err != nil {
				t.Fatal(err)
			}
			r.s.Changed()
		}
		r.clock.Add(step.Milliseconds())
		if i%3 == 0 {
			r.s.Trim()
		}
		checkState(t, db, r.s, r.now(), fmt.Sprintf("step %d at %s", i, r.now().Format(time.RFC3339)))
		checkCutoffs(t, r, fmt.Sprintf("step %d", i))
		if i%4 == 0 { // the device list's read in place gives what Latest and DeviceEnergy give
			devs, err := r.s.Devices(ctx, r.stations)
			if err != nil {
				t.Fatal(err)
			}
			checkEachDevice(t, r.s, r.stations, devs)
		}
	}
	// a restart: the state built afresh from the roll-ups answers the same
	again := New(db, r.w, r.now)
	if err := again.Build(ctx); err != nil {
		t.Fatal(err)
	}
	checkState(t, db, again, r.now(), "after a restart")
	checkState(t, db, r.s, r.now(), "kept state at the end")
}
