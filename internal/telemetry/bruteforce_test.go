package telemetry

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The roll-ups kept incrementally (random order, duplicates, conflicts, late samples,
// batches of any size) must equal a brute-force computation over the final raw samples.

type bfBucket struct {
	id    int64
	kind  string
	res   Resolution
	start int64
}

// bruteForce computes every bucket of every device and station from scratch, walking
// buckets rather than samples.
func bruteForce(devs []*deviceInfo, kept map[int64][]Sample, maxGap int64) map[bfBucket]*Stats {
	out := map[bfBucket]*Stats{}
	get := func(k bfBucket) *Stats {
		s := out[k]
		if s == nil {
			e := emptyStats()
			s = &e
			out[k] = s
		}
		return s
	}
	type owner struct {
		id      int64
		kind    string
		cal     *Calendar
		station bool
	}
	// buckets overlapping [a, b) of an owner at a resolution
	buckets := func(o owner, res Resolution, a, b int64) [][2]int64 {
		var list [][2]int64
		if b <= a {
			s, e := o.cal.Bucket(res, b-1)
			return append(list, [2]int64{s, e})
		}
		for t := a; t < b; {
			s, e := o.cal.Bucket(res, t)
			list = append(list, [2]int64{s, e})
			t = e
		}
		return list
	}
	lerp := func(p, c *Sample, f func(*Sample) float64, t int64) float64 {
		return f(p) + (f(c)-f(p))*float64(t-p.Time.UnixMilli())/float64(c.Time.UnixMilli()-p.Time.UnixMilli())
	}
	integral := func(p, c *Sample, f func(*Sample) float64, a, b int64) float64 {
		return (lerp(p, c, f, a) + lerp(p, c, f, b)) / 2 * float64(b-a) / 3.6e6
	}
	power := func(s *Sample) float64 { return s.PowerKW }
	irr := func(s *Sample) float64 { return s.IrradianceWm2 }
	slots := map[bfBucket]float64{} // station 5-minute slots (res Raw), kWh

	for _, d := range devs {
		samples := kept[d.ID]
		owners := []owner{{id: d.ID, cal: d.cal}}
		for _, s := range d.stations {
			owners = append(owners, owner{id: s.id, kind: d.Kind, cal: s.cal, station: true})
		}
		var c1, c2 CounterState
		for i := range samples {
			c := &samples[i]
			ct := c.Time.UnixMilli()
			for _, o := range owners {
				for res := Hour; res <= Year; res++ {
					s, _ := o.cal.Bucket(res, ct)
					st := get(bfBucket{o.id, o.kind, res, s})
					st.Samples++
					st.IrradianceSum += c.IrradianceWm2
					st.TempSum += c.TempC
					if !o.station {
						st.extremes(c.PowerKW, c.PowerKW)
					}
				}
			}
			if i == 0 {
				c1 = CounterState{Ref: c.EnergyKWh, RefT: ct}
				c2 = CounterState{Ref: c.Energy2KWh, RefT: ct}
				continue
			}
			p := &samples[i-1]
			pt := p.Time.UnixMilli()
			var s1, s2 CounterStep
			c1, s1 = StepCounter(c1, c.EnergyKWh, ct, d.BoundKW, d.cal.Midnight)
			c2, s2 = StepCounter(c2, c.Energy2KWh, ct, d.BoundKW, d.cal.Midnight)
			for _, o := range owners {
				for res := Hour; res <= Year; res++ {
					for n, step := range []CounterStep{s1, s2} {
						if step.EnergyKWh == 0 {
							continue
						}
						for _, b := range buckets(o, res, step.From, ct) {
							share := 1.0
							if ct > step.From {
								share = float64(min(ct, b[1])-max(step.From, b[0])) / float64(ct-step.From)
							}
							st := get(bfBucket{o.id, o.kind, res, b[0]})
							if n == 0 {
								st.EnergyKWh += step.EnergyKWh * share
							} else {
								st.Energy2KWh += step.EnergyKWh * share
							}
						}
					}
					if ct-pt > maxGap {
						continue
					}
					for _, b := range buckets(o, res, pt, ct) {
						a, z := max(pt, b[0]), min(ct, b[1])
						st := get(bfBucket{o.id, o.kind, res, b[0]})
						st.PowerKWh += integral(p, c, power, a, z)
						h := integral(p, c, irr, a, z) / 1000
						st.IrradiationKWhM2 += h
						st.RefEnergyKWh += h * d.KWp
						st.OnlineMin += float64(z-a) / 60000
						if isFault(p.Status) {
							st.FaultMin += float64(z-a) / 60000
						}
					}
				}
				if o.station && ct-pt <= maxGap {
					for t := pt; t < ct; {
						ds, _ := o.cal.Day(t)
						ss := ds + (t-ds)/slotMs*slotMs
						z := min(ct, ss+slotMs)
						slots[bfBucket{o.id, o.kind, Raw, ss}] += integral(p, c, power, t, z)
						t = z
					}
				}
			}
		}
	}
	// station extremes: the 5-minute average power of the slots in the bucket
	cals := map[int64]*Calendar{}
	for _, d := range devs {
		for _, s := range d.stations {
			cals[s.id] = s.cal
		}
	}
	for k, kwh := range slots {
		kw := kwh * 12
		for res := Hour; res <= Year; res++ {
			s, _ := cals[k.id].Bucket(res, k.start)
			get(bfBucket{k.id, k.kind, res, s}).extremes(kw, kw)
		}
	}
	return out
}

func near(a, b float64) bool { return within(a, b, 1e-9) }

// within compares with an absolute tolerance of 1e-6 and a relative one of rel.
func within(a, b, rel float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-6+rel*math.Max(math.Abs(a), math.Abs(b))
}

func diffStats(got, want *Stats) string {
	g, w := got.fields(), want.fields()
	names := []string{"energy", "energy2", "powerKWh", "max", "min", "samples", "irrSum", "irradiation", "ref", "fault", "online",
		"dcV", "dcA", "acV", "freq", "temp", "soc"}
	for i := range g {
		if i >= 11 && i != 15 {
			continue // the brute force tracks only temperature among the sums
		}
		// float32 in storage: the average-only sums, and a station's slots (its extremes)
		rel := 1e-9
		if fieldWidth[i] == 4 || i == 3 || i == 4 {
			rel = 1e-6
		}
		if !within(g[i], w[i], rel) {
			return fmt.Sprintf("%s = %v, want %v", names[i], g[i], w[i])
		}
	}
	return ""
}

// randomSamples makes a device's samples every ~5 minutes with gaps, glitches, faults
// and (for daily counters) midnight resets.
func randomSamples(rng *rand.Rand, d *deviceInfo, from, to time.Time, daily bool) []Sample {
	var out []Sample
	e1, e2 := rng.Float64()*1000, rng.Float64()*100
	if daily {
		e1 = 0
	}
	prevDay := int64(0)
	for at := from; at.Before(to); at = at.Add(5 * time.Minute) {
		if rng.IntN(10) == 0 {
			continue // missing sample
		}
		if rng.IntN(150) == 0 {
			at = at.Add(time.Duration(30+rng.IntN(180)) * time.Minute) // outage
		}
		ts := at.Add(time.Duration(rng.IntN(60)-30) * time.Second).Truncate(time.Millisecond)
		if !ts.Before(to) {
			break
		}
		rated := d.RatedKW
		if rated == 0 {
			rated = 20
		}
		p := rng.Float64() * rated
		if d.Type == "meter" {
			p = (rng.Float64()*2 - 1) * rated
		}
		if ms := d.cal.Midnight(ts.UnixMilli()); daily && ms != prevDay {
			e1, prevDay = 0, ms
		}
		e1 += max(p, 0) * 5 / 60 * rng.Float64()
		e2 += max(-p, 0) * 5 / 60 * rng.Float64()
		s := Sample{Time: ts, PowerKW: p, EnergyKWh: e1, Energy2KWh: e2, IrradianceWm2: rng.Float64() * 1000,
			TempC: 20 + rng.Float64()*30, Status: StatusRunning}
		if rng.IntN(40) == 0 {
			s.Status = StatusFault
		}
		if rng.IntN(60) == 0 {
			s.EnergyKWh = 0 // glitch to zero
		}
		if rng.IntN(80) == 0 {
			s.EnergyKWh = e1 * 0.5 // glitch backwards
		}
		out = append(out, s)
	}
	return out
}

func TestRollupsMatchBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2024, 3, 29, 20, 0, 0, 0, time.UTC)
		to := time.Date(2024, 4, 2, 4, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(to.Add(time.Hour)), RawRetention: 40 * 24 * time.Hour})
		rng := rand.New(rand.NewPCG(7, 11))

		var devs []*deviceInfo
		type item struct {
			s     Sample
			order float64
		}
		var items []item
		for _, id := range []int64{f.inv1, f.inv2, f.meter, f.pack} {
			d, err := w.reg.device(ctx, id)
			if err != nil || d == nil {
				t.Fatalf("device %d: %v", id, err)
			}
			devs = append(devs, d)
			for _, s := range randomSamples(rng, d, from, to, id == f.inv2) {
				s.DeviceID = id
				// mostly in order, a fifth of them late by up to a day
				order := float64(s.Time.Unix())
				if rng.IntN(5) == 0 {
					order += rng.Float64() * 86400
				}
				items = append(items, item{s, order})
				switch rng.IntN(25) {
				case 0: // re-sent as is
					items = append(items, item{s, order + rng.Float64()*7200})
				case 1: // re-sent with another value
					c := s
					c.PowerKW += 1
					items = append(items, item{c, order + rng.Float64()*7200})
				}
			}
		}
		sort.SliceStable(items, func(i, j int) bool { return items[i].order < items[j].order })

		// write in random-sized batches; the first write of each instant is kept
		type key struct {
			dev int64
			ts  int64
		}
		first := map[key]Sample{}
		var wantAcc, wantDup, wantConf int
		for i := 0; i < len(items); {
			n := 1 + rng.IntN(300)
			if i+n > len(items) {
				n = len(items) - i
			}
			batch := make([]Sample, n)
			for j := range batch {
				batch[j] = items[i+j].s
			}
			i += n
			res, err := w.Write(ctx, "test", batch)
			if err != nil {
				t.Fatal(err)
			}
			for j, s := range batch {
				k := key{s.DeviceID, s.Time.UnixMilli()}
				want := Accepted
				if f, ok := first[k]; !ok {
					first[k] = s
					wantAcc++
				} else if sameValues(&f, &s) {
					want = Duplicate
					wantDup++
				} else {
					want = Conflict
					wantConf++
				}
				if res.Outcomes[j] != want {
					t.Fatalf("sample %v at %v: %v, want %v (%s)", s.DeviceID, s.Time, res.Outcomes[j], want, res.Reasons[j])
				}
			}
		}
		if wantDup == 0 || wantConf == 0 {
			t.Fatal("the scenario has no duplicates or conflicts")
		}
		kept := map[int64][]Sample{}
		for k, s := range first {
			kept[k.dev] = append(kept[k.dev], s)
		}
		for id := range kept {
			sort.Slice(kept[id], func(i, j int) bool { return kept[id][i].Time.Before(kept[id][j].Time) })
		}
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_samples").Scan(&n); err != nil || n != wantAcc {
			t.Fatalf("raw rows %d (%v), want %d", n, err, wantAcc)
		}

		checkAgainstBruteForce(t, db, w, f, devs, kept)
		t.Logf("%d samples kept, %d duplicates, %d conflicts", wantAcc, wantDup, wantConf)

		// the latest row is the last kept sample
		latest, err := NewReader(db, w.opt).Latest(ctx, []int64{f.inv1, f.meter})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{f.inv1, f.meter} {
			last := kept[id][len(kept[id])-1]
			if !latest[id].Time.Equal(last.Time) || latest[id].PowerKW != last.PowerKW {
				t.Errorf("latest of %d: %+v, want %+v", id, latest[id], last)
			}
		}
	})
}

// checkAgainstBruteForce compares every stored roll-up (all resolutions, devices and
// stations) with the brute-force computation over the kept samples.
func checkAgainstBruteForce(t *testing.T, db *store.DB, w *Writer, f *fixture, devs []*deviceInfo, kept map[int64][]Sample) {
	t.Helper()
	ctx := context.Background()
	want := bruteForce(devs, kept, w.opt.MaxGap.Milliseconds())
	r := NewReader(db, w.opt)
	lo := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	hi := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	got := map[bfBucket]Stats{}
	for res := Hour; res <= Year; res++ {
		dr, err := r.DeviceRollups(ctx, []int64{f.inv1, f.inv2, f.meter, f.pack}, res, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		for id, pts := range dr {
			for _, p := range pts {
				got[bfBucket{id, "", res, p.Start.UnixMilli()}] = p.Stats
			}
		}
		sr, err := r.StationRollups(ctx, []int64{f.parent, f.subA, f.subB}, res, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		for id, kinds := range sr {
			for kind, pts := range kinds {
				for _, p := range pts {
					got[bfBucket{id, kind, res, p.Start.UnixMilli()}] = p.Stats
				}
			}
		}
	}
	checked := map[Resolution]int{}
	for k, ws := range want {
		gs, ok := got[k]
		if !ok {
			gs = emptyStats()
		}
		if d := diffStats(&gs, ws); d != "" {
			t.Errorf("%s %d %q %s: %s", k.res, k.id, k.kind, time.UnixMilli(k.start).UTC().Format(time.RFC3339), d)
		}
		checked[k.res]++
	}
	for k, gs := range got {
		if _, ok := want[k]; !ok && gs.Samples != 0 {
			t.Errorf("unexpected bucket %v", k)
		}
	}
	// the pack (inside another device) has its own roll-ups but no station ones
	for k := range got {
		if k.kind == "battery" {
			t.Errorf("a device inside another device reached station roll-ups: %v", k)
			break
		}
	}
	t.Logf("buckets checked %v", checked)
}
