package telemetry

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestBackfillMatchesBruteForce(t *testing.T) {
	defer func(n int) { backfillFlushEvery = n }(backfillFlushEvery)
	backfillFlushEvery = 3000
	for _, order := range []string{"time", "device"} {
		t.Run(order, func(t *testing.T) { testBackfill(t, order) })
	}
}

func testBackfill(t *testing.T, order string) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2023, 12, 20, 0, 0, 0, 0, time.UTC)
		to := time.Date(2024, 1, 12, 0, 0, 0, 0, time.UTC) // across a month and a year
		now := to.Add(time.Hour)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 5 * 24 * time.Hour})
		rng := rand.New(rand.NewPCG(3, 5))
		var devs []*deviceInfo
		var all []Sample
		kept := map[int64][]Sample{}
		for _, id := range []int64{f.inv1, f.inv2, f.meter, f.pack} {
			d, _ := w.reg.device(ctx, id)
			devs = append(devs, d)
			for _, s := range randomSamples(rng, d, from, to, id == f.inv2) {
				s.DeviceID = id
				all = append(all, s)
				kept[id] = append(kept[id], s)
			}
		}
		// time-major, the way a simulator produces them, in batches of 1000 — or device by
		// device, so that station days handed over early are touched again
		if order == "time" {
			sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
		}
		res, err := w.Backfill(ctx, slices.Chunk(all, 1000))
		if err != nil {
			t.Fatal(err)
		}
		if res.Accepted != int64(len(all)) || res.Rejected != 0 {
			t.Fatalf("back-fill: %+v, want %d accepted", res, len(all))
		}
		var raw int64
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_samples").Scan(&raw); err != nil {
			t.Fatal(err)
		}
		wantRaw := 0
		for _, s := range all {
			if !s.Time.Before(now.Add(-5 * 24 * time.Hour)) {
				wantRaw++
			}
		}
		if raw != int64(wantRaw) || res.RawRows != raw {
			t.Fatalf("raw rows %d (reported %d), want %d: only the retention window", raw, res.RawRows, wantRaw)
		}
		checkAgainstBruteForce(t, db, w, f, devs, kept)

		// live samples continue from the back-filled tail, and a late one is corrected
		var live []Sample
		for _, id := range []int64{f.inv1, f.inv2, f.meter} {
			last := kept[id][len(kept[id])-1]
			next := last
			next.Time = last.Time.Add(5 * time.Minute)
			next.EnergyKWh += 0.25
			live = append(live, next)
			kept[id] = append(kept[id], next)
		}
		if r, err := w.Write(ctx, "test", live); err != nil || r.Accepted != len(live) {
			t.Fatalf("live write: %+v %v", r, err)
		}
		checkAgainstBruteForce(t, db, w, f, devs, kept)
	})
}

func TestBackfillOutOfOrderAndInvalid(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 24 * time.Hour})
		at := func(h float64) time.Time { return now.Add(time.Duration(-h * float64(time.Hour))) }
		batches := [][]Sample{
			{{DeviceID: f.inv1, Time: at(60), EnergyKWh: 10}, {DeviceID: f.inv1, Time: at(59), EnergyKWh: 11}},
			{{DeviceID: f.inv1, Time: at(2), EnergyKWh: 20}, {DeviceID: f.inv1, Time: at(1), EnergyKWh: 21}},
			{
				{DeviceID: f.inv1, Time: at(50), EnergyKWh: 12},    // before the tail, beyond the raw window
				{DeviceID: f.inv1, Time: at(1.5), EnergyKWh: 20.5}, // before the tail, inside it: via Write
				{DeviceID: 99999, Time: at(1), EnergyKWh: 1},       // unknown device
				{DeviceID: f.inv2, Time: now.Add(time.Hour)},       // future
			},
		}
		res, err := w.Backfill(ctx, slices.Values(batches))
		if err != nil {
			t.Fatal(err)
		}
		if res.Accepted != 5 || res.Rejected != 3 {
			t.Fatalf("%+v: want 5 accepted, 3 rejected", res)
		}
		day, err := NewReader(db, w.opt).DeviceRollups(ctx, []int64{f.inv1}, Year, at(24*400), now)
		if err != nil {
			t.Fatal(err)
		}
		if got := day[f.inv1][0].Stats.EnergyKWh; !near(got, 11) {
			t.Fatalf("year energy %v, want 11 (1 + 9 over the gap + 1)", got)
		}
	})
}
