package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Writes next to sealed days: back-fills, rows left in a sealed day, and the writes that
// must not read the blocks at all.

// mixedDays counts the device days that have rows and a block.
func mixedDays(t *testing.T, db *store.DB) int {
	t.Helper()
	return count(t, db, `SELECT COUNT(*) FROM telemetry_sample_blocks b WHERE EXISTS (SELECT 1 FROM telemetry_samples s
		WHERE s.device_id = b.device_id AND s.ts >= b.start_ts AND s.ts < b.end_ts)`)
}

// A back-fill that continues a device's history into a sealed day unseals it, and the
// sealer merges rows that reached a sealed day into its block.
func TestBackfillIntoSealedDay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		day := time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC)
		now := day.Add(3 * 24 * time.Hour)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour})
		w.pause = func(context.Context, time.Duration) {}
		at := func(h float64) time.Time { return day.Add(time.Duration(h * float64(time.Hour))) }
		var first, rest []Sample
		for h := 0.0; h < 30; h += 0.25 {
			s := Sample{DeviceID: f.inv1, Time: at(h), EnergyKWh: 10 + h, PowerKW: 4}
			if h < 12 {
				first = append(first, s)
			} else {
				rest = append(rest, s)
			}
		}
		if _, err := w.Write(ctx, "test", first); err != nil {
			t.Fatal(err)
		}
		if n, err := w.SealBlocks(ctx); err != nil || n != 1 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		res, err := w.Backfill(ctx, func(yield func([]Sample) bool) { yield(rest) })
		if err != nil || res.Accepted != int64(len(rest)) {
			t.Fatalf("back-fill: %+v, %v", res, err)
		}
		if m := mixedDays(t, db); m != 0 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks") != 0 {
			t.Fatalf("%d days with rows and a block after the back-fill", m)
		}
		if n, err := w.SealBlocks(ctx); err != nil || n != 2 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		// a row in a sealed day (as a writer whose clock lags the sealer's would leave)
		err = db.InTx(ctx, func(tx *store.Tx) error {
			return insertRaw(ctx, tx, []*rawRow{newRawRow(Sample{DeviceID: f.inv1, Time: at(12.1), EnergyKWh: 22.05, PowerKW: 4}, -1)})
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := w.SealBlocks(ctx); err != nil || n != 1 || mixedDays(t, db) != 0 {
			t.Fatalf("sealed %d (%v)", n, err)
		}
		s, err := NewReader(db, w.opt).DeviceSeries(ctx, f.inv1, "energyCounter", day, day.Add(48*time.Hour), Raw)
		if err != nil || len(s.Points) != len(first)+len(rest)+1 || count(t, db, "SELECT SUM(n) FROM telemetry_sample_blocks") != len(s.Points) {
			t.Fatalf("series: %d points (%v), want %d", len(s.Points), err, len(first)+len(rest)+1)
		}
		for i := 1; i < len(s.Points); i++ {
			if s.Points[i][0] <= s.Points[i-1][0] {
				t.Fatalf("series out of order at %d", i)
			}
		}
	})
}

// On-time samples, and samples late by less than the seal age, never touch the blocks
// table: with it renamed away they are written all the same, while a sample late into a
// day that may be sealed is not.
func TestRecentWritesSkipBlocks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		// at 08:00 yesterday cannot be sealed yet (it ended 8 hours ago)
		now := time.Date(2024, 5, 10, 8, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour})
		write := func(ss ...Sample) error {
			_, err := w.Write(ctx, "test", ss)
			return err
		}
		// a device reporting every 5 minutes since yesterday morning
		var history []Sample
		for at := now.Add(-30 * time.Hour); at.Before(now.Add(-2 * time.Hour)); at = at.Add(5 * time.Minute) {
			history = append(history, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: float64(at.Sub(now).Hours()) + 100})
		}
		if err := write(history...); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, "ALTER TABLE telemetry_sample_blocks RENAME TO sample_blocks_away"); err != nil {
			t.Fatal(err)
		}
		defer db.Exec(ctx, "ALTER TABLE sample_blocks_away RENAME TO telemetry_sample_blocks")
		for _, s := range []Sample{
			{DeviceID: f.inv1, Time: now.Add(-time.Hour), EnergyKWh: 99},                      // on time
			{DeviceID: f.inv1, Time: now, EnergyKWh: 100},                                     // on time
			{DeviceID: f.inv1, Time: now.Add(-10*time.Hour + time.Minute), EnergyKWh: 90},     // late, yesterday evening
			{DeviceID: f.inv2, Time: now.Add(-2 * time.Minute), EnergyKWh: 1},                 // a first sample
			{DeviceID: f.inv1, Time: now.Add(-20*time.Hour + time.Minute), EnergyKWh: 80},     // late, yesterday
			{DeviceID: f.inv1, Time: now.Add(-30*time.Hour + 2*time.Minute), EnergyKWh: 70.1}, // late, yesterday's first
		} {
			if err := write(s); err != nil {
				t.Fatalf("sample at %v: %v", s.Time, err)
			}
		}
		if err := write(Sample{DeviceID: f.inv1, Time: now.Add(-50 * time.Hour), EnergyKWh: 2}); err == nil {
			t.Fatal("a sample late into a day that may be sealed did not read the blocks")
		}
	})
}

// Reads outside a write see every sample once while the sealer seals and writes unseal
// the same days beside them.
func TestReadsDuringSealing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		day := time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(day.Add(3 * 24 * time.Hour)), RawRetention: 10 * 24 * time.Hour})
		var ss []Sample
		for at := day; at.Before(day.Add(48 * time.Hour)); at = at.Add(5 * time.Minute) {
			ss = append(ss, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: float64(at.Sub(day).Hours()), PowerKW: float64(len(ss)%50) / 7})
		}
		if _, err := w.Write(ctx, "test", ss); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			var err error
			for i := 0; i < 40 && err == nil; i++ {
				start := day.UnixMilli() + int64(i%2)*blockSpan
				err = db.InTx(ctx, func(tx *store.Tx) error { return sealDay(ctx, tx, f.inv1, start) })
				if err == nil {
					err = db.InTx(ctx, func(tx *store.Tx) error { return unseal(ctx, tx, []spanKey{{f.inv1, start}}) })
				}
			}
			done <- err
		}()
		r := NewReader(db, w.opt)
		for reads := 0; ; reads++ {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d reads", reads)
				return
			default:
			}
			got, err := StoredSamples(ctx, db, f.inv1)
			if err != nil || len(got) != len(ss) {
				t.Fatalf("read %d: %d samples (%v), want %d", reads, len(got), err, len(ss))
			}
			s, err := r.DeviceSeries(ctx, f.inv1, "energyCounter", day, day.Add(48*time.Hour), Raw)
			if err != nil || len(s.Points) != len(ss) {
				t.Fatalf("read %d: %d points (%v), want %d", reads, len(s.Points), err, len(ss))
			}
			// power from the power rows of the sealed day, the other's rows
			p, err := r.DeviceSeries(ctx, f.inv1, "power", day, day.Add(48*time.Hour), Raw)
			if err != nil || len(p.Points) != len(ss) {
				t.Fatalf("read %d: %d points of power (%v), want %d", reads, len(p.Points), err, len(ss))
			}
			for i := range ss {
				if p.Points[i][1] != ss[i].PowerKW {
					t.Fatalf("read %d: power %v at %d, want %v", reads, p.Points[i][1], i, ss[i].PowerKW)
				}
			}
		}
	})
}
