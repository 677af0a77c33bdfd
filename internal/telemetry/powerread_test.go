package telemetry

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// solarDays makes a device's samples every 5 minutes from from to to: power and the
// readings that follow it by day, noisy at every bit of a float as the simulator's are,
// nothing at night.
func solarDays(rng *rand.Rand, id int64, from, to time.Time, rated float64) []Sample {
	var out []Sample
	e := rng.Float64() * 1000
	for at := from; at.Before(to); at = at.Add(5 * time.Minute) {
		h := float64(at.Hour()) + float64(at.Minute())/60
		sun := max(0, math.Sin(math.Pi*(h-6)/12))
		s := Sample{DeviceID: id, Time: at, ACVoltageV: 230 + rng.NormFloat64(), FrequencyHz: 50 + rng.NormFloat64()*0.02,
			TempC: 15 + 20*sun + rng.NormFloat64(), Status: StatusStandby}
		if sun > 0 {
			s.PowerKW = rated * sun * (0.85 + 0.15*rng.Float64())
			s.DCVoltageV = 600 + rng.NormFloat64()*5
			s.DCCurrentA = s.PowerKW * 1000 / s.DCVoltageV
			s.IrradianceWm2 = 1000 * sun * (0.85 + 0.15*rng.Float64())
			s.Status, s.StringsActive = StatusRunning, 4
		}
		e += s.PowerKW * 5 / 60
		s.EnergyKWh = e
		out = append(out, s)
	}
	return out
}

// ageBlocks turns every block into one sealed before power rows (version 2 with its power,
// no power row, its device on the list of migration 0190) and answers how many there are.
func ageBlocks(t testing.TB, db *store.DB) int {
	t.Helper()
	ctx := context.Background()
	type block struct {
		id, start int64
		data      []byte
	}
	var blocks []block
	rows, err := db.Query(ctx, "SELECT device_id, start_ts, data, "+blockPower+" FROM telemetry_sample_blocks b")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var b block
		var power []byte
		if err := rows.Scan(&b.id, &b.start, &b.data, &power); err != nil {
			t.Fatal(err)
		}
		bs, err := decodeBlock(b.data, power)
		if err != nil {
			t.Fatal(err)
		}
		b.data = encodeBlockV2(bs, deflateTo)
		blocks = append(blocks, b)
	}
	rows.Close()
	err = db.InTx(ctx, func(tx *store.Tx) error {
		for _, b := range blocks {
			if _, err := tx.Exec(ctx, "UPDATE telemetry_sample_blocks SET data = ? WHERE device_id = ? AND start_ts = ?", b.data, b.id, b.start); err != nil {
				return err
			}
		}
		for _, q := range []string{"DELETE FROM telemetry_sample_power", "DELETE FROM telemetry_sample_power_todo",
			"INSERT INTO telemetry_sample_power_todo (device_id) SELECT DISTINCT device_id FROM telemetry_sample_blocks"} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return len(blocks)
}

// checkPowerRows fails unless every power row has its block, and every block has its
// power row or is one sealed before power rows (version 1 or 2) of a listed device.
func checkPowerRows(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	if n := count(t, db, `SELECT COUNT(*) FROM telemetry_sample_power p WHERE NOT EXISTS (SELECT 1 FROM telemetry_sample_blocks b
		WHERE b.device_id = p.device_id AND b.start_ts = p.start_ts)`); n != 0 {
		t.Fatalf("%d power rows without their block", n)
	}
	rows, err := db.Query(ctx, "SELECT device_id, start_ts, data, "+blockPower+
		", (SELECT COUNT(*) FROM telemetry_sample_power_todo t WHERE t.device_id = b.device_id) FROM telemetry_sample_blocks b")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, start, listed int64
		var data, power []byte
		if err := rows.Scan(&id, &start, &data, &power, &listed); err != nil {
			t.Fatal(err)
		}
		if power == nil && (data[0] == blockVersion || listed == 0) {
			t.Fatalf("the block of device %d at %v (version %d, listed %d) has no power row", id, time.UnixMilli(start).UTC(), data[0], listed)
		}
	}
}

// A sealed day's power row is written, deleted and read with its block: the power read
// from the rows equals the samples written across sealing, a late sample's unsealing,
// blocks sealed before power rows and the sealer writing theirs, retention and a device's
// deletion.
func TestPowerRowsFollowBlocks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		day := time.Date(2024, 6, 20, 0, 0, 0, 0, time.UTC)
		now := day.Add(6*24*time.Hour + 11*time.Hour) // days 0 to 4 may be sealed, not 5
		opt := Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour}
		w := f.writer(opt, 1<<30)
		rng := rand.New(rand.NewPCG(9, 10))
		ss := solarDays(rng, f.inv1, day, day.Add(6*24*time.Hour), 12)
		if _, err := w.Write(ctx, "test", ss); err != nil {
			t.Fatal(err)
		}
		r := NewReader(db, opt)
		same := func(when string, want []Sample) {
			t.Helper()
			checkPowerRows(t, db)
			s, err := r.DeviceSeries(ctx, f.inv1, "power", day, day.Add(6*24*time.Hour), Raw)
			if err != nil || len(s.Points) != len(want) {
				t.Fatalf("%s: %d points (%v), want %d", when, len(s.Points), err, len(want))
			}
			for i, p := range s.Points {
				if int64(p[0]) != want[i].Time.UnixMilli() || p[1] != want[i].PowerKW {
					t.Fatalf("%s: point %d is %v, want %v at %v", when, i, p, want[i].PowerKW, want[i].Time)
				}
			}
			stored, err := StoredSamples(ctx, db, f.inv1)
			if err != nil || len(stored) != len(want) || stored[len(want)/2].PowerKW != want[len(want)/2].PowerKW {
				t.Fatalf("%s: %d stored samples (%v)", when, len(stored), err)
			}
		}
		if n, err := w.SealBlocks(ctx); err != nil || n != 5 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		if count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power") != 5 {
			t.Fatal("a sealed day without its power row")
		}
		same("sealed", ss)

		// a late sample unseals its day: the block and its power row go, and come back
		late := Sample{DeviceID: f.inv1, Time: day.Add(2*24*time.Hour + 7*time.Minute), PowerKW: 3.25, EnergyKWh: ss[2*288+1].EnergyKWh}
		if _, err := w.Write(ctx, "test", []Sample{late}); err != nil {
			t.Fatal(err)
		}
		withLate := append(append(append([]Sample(nil), ss[:2*288+2]...), late), ss[2*288+2:]...)
		if count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks") != 4 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power") != 4 {
			t.Fatal("the late sample's day kept its block or its power row")
		}
		same("unsealed", withLate)
		if n, err := w.SealBlocks(ctx); err != nil || n != 1 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		same("sealed again", withLate)

		// blocks sealed before power rows read their power from the block until the
		// sealer writes their rows; a late sample unseals one as any other
		ageBlocks(t, db)
		same("old blocks", withLate)
		late2 := Sample{DeviceID: f.inv1, Time: day.Add(3*24*time.Hour + 7*time.Minute), PowerKW: 4.5, EnergyKWh: ss[3*288+1].EnergyKWh}
		if _, err := w.Write(ctx, "test", []Sample{late2}); err != nil {
			t.Fatal(err)
		}
		withLate = append(append(append([]Sample(nil), withLate[:3*288+3]...), late2), withLate[3*288+3:]...)
		same("an old block unsealed", withLate)
		if n, err := w.SealBlocks(ctx); err != nil || n != 1 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		if count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power") != 5 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power_todo") != 0 {
			t.Fatal("the sealer left blocks without power rows")
		}
		same("power rows written for old blocks", withLate)

		// retention takes a block's power row with it: the cutoff is day 3, 11:00
		later := f.writer(Options{Now: clock(now.Add(8 * 24 * time.Hour)), RawRetention: 10 * 24 * time.Hour}, 1<<30)
		if _, err := later.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if b := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks"); b != 2 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power") != b {
			t.Fatalf("%d blocks left after the prune", b)
		}
		checkPowerRows(t, db)

		ageBlocks(t, db)
		if err := db.InTx(ctx, func(tx *store.Tx) error { return DeleteDeviceData(ctx, tx, f.inv1) }); err != nil {
			t.Fatal(err)
		}
		if count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power")+count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power_todo") != 0 {
			t.Fatal("a deleted device's power rows or listing were left")
		}
	})
}

// BenchmarkRawSeriesPowerSealed reads a day of power over two sealed days (the dashboard
// bench's device history call): from the power rows, and from blocks sealed before them.
func BenchmarkRawSeriesPowerSealed(b *testing.B) {
	ctx := context.Background()
	db := storetest.SQLite(b)
	f := newFixture(b, db)
	now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
	w := f.writer(Options{Now: clock(now), RawRetention: 30 * 24 * time.Hour}, 1<<30)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, id := range []int64{f.inv1, f.inv2, f.meter, f.pack} {
		if _, err := w.Write(ctx, "test", solarDays(rng, id, now.Truncate(24*time.Hour).Add(-10*24*time.Hour), now, 10)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := w.SealBlocks(ctx); err != nil {
		b.Fatal(err)
	}
	r := NewReader(db, w.opt)
	from := now.Add(-3 * 24 * time.Hour).UnixMilli()
	run := func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			s, err := r.rawSeries(ctx, f.inv1, "power_kw", from, from+blockSpan, Series{})
			if err != nil || len(s.Points) != 288 {
				b.Fatalf("%d points: %v", len(s.Points), err)
			}
		}
	}
	b.Run("power rows", run)
	ageBlocks(b, db)
	b.Run("blocks sealed before power rows", run)
}
