package telemetry

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestPackDaysRoundTrip(t *testing.T) {
	in := []packedEntry{
		{kind: "inverter", start: 1, end: 2, s: Stats{EnergyKWh: 1.5, Samples: 3, MaxPowerKW: math.NaN(), MinPowerKW: -2, SOCSum: 7}},
		{kind: "meter:grid", start: 5, end: 9, s: Stats{Energy2KWh: 0.1, TempSum: 1e9, MaxPowerKW: 4, MinPowerKW: math.NaN()}},
	}
	out, err := unpackDays(packDays(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].kind != "inverter" || out[1].end != 9 || out[0].s.Samples != 3 || out[1].s.TempSum != 1e9 ||
		!math.IsNaN(out[0].s.MaxPowerKW) || out[0].s.MinPowerKW != -2 || diffStats(&out[1].s, &in[1].s) != "" {
		t.Fatalf("round trip: %+v", out)
	}
	b := packDays(in)
	for _, cut := range []int{0, 1, 2, len(b) - 1} {
		if _, err := unpackDays(b[:cut]); err == nil {
			t.Errorf("a row cut at %d bytes decoded", cut)
		}
	}
}

// Packed months are read instead of the day rows, equal to them, dropped by a late write
// to their month and packed again.
func TestPackedMonthsMatchDayRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2024, 3, 29, 20, 0, 0, 0, time.UTC)
		to := time.Date(2024, 4, 2, 4, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(to.Add(time.Hour)), RawRetention: 400 * 24 * time.Hour})
		rng := rand.New(rand.NewPCG(3, 5))
		var devs []*deviceInfo
		kept := map[int64][]Sample{}
		for _, id := range []int64{f.inv1, f.inv2, f.meter} {
			d, err := w.reg.device(ctx, id)
			if err != nil || d == nil {
				t.Fatalf("device %d: %v", id, err)
			}
			devs = append(devs, d)
			ss := randomSamples(rng, d, from, to, id == f.inv2)
			for i := range ss {
				ss[i].DeviceID = id
			}
			for i := 0; i < len(ss); i += 200 {
				if _, err := w.Write(ctx, "test", ss[i:min(i+200, len(ss))]); err != nil {
					t.Fatal(err)
				}
			}
			kept[id] = ss
		}
		packed := func() int {
			var n int
			if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_station_month_days").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		// the months are too recent for the writer's own clock
		if n, err := w.PackMonths(ctx, 100); err != nil || n != 0 {
			t.Fatalf("packed %d months (%v) that can still change", n, err)
		}
		later := NewWriter(db, Options{Now: clock(time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)), RawRetention: 400 * 24 * time.Hour})
		// March and April of the plant and its two sub-stations, one at a time
		total := 0
		for {
			n, err := later.PackMonths(ctx, 4)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
			total += n
		}
		if total != 6 || packed() != 6 {
			t.Fatalf("packed %d months, %d rows; want 6", total, packed())
		}
		checkAgainstBruteForce(t, db, later, f, devs, kept)

		// the packed rows are what is read: day rows changed behind their back do not show
		r := NewReader(db, later.opt)
		ids := []int64{f.parent, f.subA, f.subB}
		lo, hi := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 4, 30, 0, 0, 0, 0, time.UTC)
		before, err := r.StationRollups(ctx, ids, Day, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if len(before[f.subA]["inverter"]) < 4 {
			t.Fatalf("subA days: %+v", before[f.subA])
		}
		// and they equal the brute force over the samples
		want := bruteForce(devs, kept, later.opt.MaxGap.Milliseconds())
		checked := 0
		for k, ws := range want {
			if k.res != Day || k.kind == "" || k.start < lo.UnixMilli() || k.start >= hi.UnixMilli() {
				continue
			}
			var got *Stats
			for _, p := range before[k.id][k.kind] {
				if p.Start.UnixMilli() == k.start {
					got = &p.Stats
				}
			}
			if got == nil {
				if ws.Samples != 0 {
					t.Errorf("station %d %s day %d missing", k.id, k.kind, k.start)
				}
				continue
			}
			if d := diffStats(got, ws); d != "" {
				t.Errorf("station %d %s day %d: %s", k.id, k.kind, k.start, d)
			}
			checked++
		}
		if checked < 10 {
			t.Fatalf("%d packed days checked", checked)
		}
		if _, err := db.Exec(ctx, "UPDATE telemetry_station_rollups SET energy_kwh = energy_kwh + 1000 WHERE res = ?", int(Day)); err != nil {
			t.Fatal(err)
		}
		after, err := r.StationRollups(ctx, ids, Day, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fmtPoints(before), fmtPoints(after)) {
			t.Fatal("a read of packed months read the day rows")
		}
		if _, err := db.Exec(ctx, "UPDATE telemetry_station_rollups SET energy_kwh = energy_kwh - 1000 WHERE res = ?", int(Day)); err != nil {
			t.Fatal(err)
		}

		// a late sample into March drops the packed March of inv1's station and the plant
		late := kept[f.inv1][3]
		late.Time = late.Time.Add(time.Minute)
		if res, err := later.Write(ctx, "test", []Sample{late}); err != nil || res.Outcomes[0] != Accepted {
			t.Fatalf("late sample: %+v %v", res, err)
		}
		kept[f.inv1] = append(kept[f.inv1], late)
		sort.Slice(kept[f.inv1], func(i, j int) bool { return kept[f.inv1][i].Time.Before(kept[f.inv1][j].Time) })
		if packed() != 4 {
			t.Fatalf("%d packed rows after a late write, want 4", packed())
		}
		checkAgainstBruteForce(t, db, later, f, devs, kept)
		if n, err := later.PackMonths(ctx, 100); err != nil || n != 2 {
			t.Fatalf("packed again %d (%v), want 2", n, err)
		}
		checkAgainstBruteForce(t, db, later, f, devs, kept)
	})
}

func fmtPoints(m map[int64]map[string][]Point) map[int64]map[string][]Stats {
	out := map[int64]map[string][]Stats{}
	for id, kinds := range m {
		out[id] = map[string][]Stats{}
		for k, pts := range kinds {
			for _, p := range pts {
				s := p.Stats
				// NaN never equals itself: compare the extremes as present or not
				if math.IsNaN(s.MaxPowerKW) {
					s.MaxPowerKW = -1e300
				}
				if math.IsNaN(s.MinPowerKW) {
					s.MinPowerKW = -1e300
				}
				out[id][k] = append(out[id][k], s)
			}
		}
	}
	return out
}
