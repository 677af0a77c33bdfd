package telemetry

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func count(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWriteRejectsBadInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 7 * 24 * time.Hour})
		ok := Sample{DeviceID: f.inv1, Time: now.Add(-time.Minute), PowerKW: 5, EnergyKWh: 100}
		cases := []struct {
			name   string
			mutate func(s *Sample)
			reason string
		}{
			{"NaN power", func(s *Sample) { s.PowerKW = math.NaN() }, ReasonNotFinite},
			{"Inf counter", func(s *Sample) { s.EnergyKWh = math.Inf(1) }, ReasonNotFinite},
			{"NaN temperature", func(s *Sample) { s.TempC = math.NaN() }, ReasonNotFinite},
			{"far future", func(s *Sample) { s.Time = now.Add(6 * time.Minute) }, ReasonFuture},
			{"older than the raw window", func(s *Sample) { s.Time = now.Add(-8 * 24 * time.Hour) }, ReasonTooOld},
			{"no time", func(s *Sample) { s.Time = time.Time{} }, ReasonMissingTime},
			{"unknown device", func(s *Sample) { s.DeviceID = 424242 }, ReasonUnknownDevice},
			{"negative counter", func(s *Sample) { s.Energy2KWh = -1 }, ReasonNegative},
			{"power far beyond rated", func(s *Sample) { s.PowerKW = 40 }, ReasonPower},
			{"state of charge 180 %", func(s *Sample) { s.SOC = 180 }, ReasonAbsurd},
			{"temperature 6553.5 °C", func(s *Sample) { s.TempC = 6553.5 }, ReasonAbsurd},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				bad := ok
				c.mutate(&bad)
				before := rejectedTotal.Value("test-bad", c.reason)
				res, err := w.Write(ctx, "test-bad", []Sample{bad})
				if err != nil {
					t.Fatal(err)
				}
				if res.Rejected != 1 || res.Reasons[0] != c.reason {
					t.Fatalf("got %+v %v, want rejected %s", res, res.Reasons, c.reason)
				}
				if got := rejectedTotal.Value("test-bad", c.reason) - before; got != 1 {
					t.Fatalf("rejection counted %v times", got)
				}
				if n := count(t, db, "SELECT COUNT(*) FROM telemetry_samples") + count(t, db, "SELECT COUNT(*) FROM telemetry_device_rollups") +
					count(t, db, "SELECT COUNT(*) FROM telemetry_latest"); n != 0 {
					t.Fatalf("%d rows stored for a rejected sample", n)
				}
			})
		}
		// a good sample beside a bad one: the good one is stored, the bad one not at all
		bad := ok
		bad.Time = ok.Time.Add(time.Minute)
		bad.PowerKW = math.Inf(-1)
		res, err := w.Write(ctx, "test-bad", []Sample{ok, bad})
		if err != nil || res.Accepted != 1 || res.Rejected != 1 {
			t.Fatalf("%+v %v", res, err)
		}
		if n := count(t, db, "SELECT COUNT(*) FROM telemetry_samples"); n != 1 {
			t.Fatalf("%d raw rows, want 1", n)
		}
		// all or nothing
		later := ok
		later.Time = ok.Time.Add(2 * time.Minute)
		res, err = w.WriteStrict(ctx, "test-bad", []Sample{later, bad})
		if !errors.Is(err, ErrInvalidBatch) || res.Outcomes[1] != Rejected {
			t.Fatalf("strict: %+v %v", res, err)
		}
		if n := count(t, db, "SELECT COUNT(*) FROM telemetry_samples"); n != 1 {
			t.Fatalf("strict write stored something: %d raw rows", n)
		}
	})
}

// dailyCounterDay makes a day of 5-minute samples of a daily counter (6 kW from 06:00 to
// 18:00 local, 72 kWh) for a device.
func dailyCounterDay(dev int64, loc *time.Location, day time.Time) []Sample {
	y, m, d := day.Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, loc)
	return series(loc, start, start.Add(24*time.Hour-5*time.Minute), daylight, func(prev, e float64, at time.Time) float64 {
		if at.Hour() == 0 && at.Minute() == 0 {
			return 0
		}
		return prev + e
	}, 0)
}

func TestDuplicatesAndLateDataGiveExactDailyTotals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		berlin := CalendarFor("Europe/Berlin").Loc
		var all []Sample
		for d := 0; d < 3; d++ {
			for _, s := range dailyCounterDay(f.inv1, berlin, time.Date(2024, 6, 10+d, 0, 0, 0, 0, berlin)) {
				s.DeviceID = f.inv1
				all = append(all, s)
			}
		}
		w := NewWriter(db, Options{Now: clock(time.Date(2024, 6, 13, 0, 0, 0, 0, berlin)), RawRetention: 10 * 24 * time.Hour})
		// random order, everything sent twice, some three times
		rng := rand.New(rand.NewPCG(1, 2))
		stream := append(append([]Sample{}, all...), all...)
		stream = append(stream, all[:100]...)
		rng.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
		var total Result
		for len(stream) > 0 {
			n := min(len(stream), 1+rng.IntN(50))
			res, err := w.Write(ctx, "test", stream[:n])
			if err != nil {
				t.Fatal(err)
			}
			total.Accepted += res.Accepted
			total.Duplicates += res.Duplicates
			total.Conflicts += res.Conflicts
			stream = stream[n:]
		}
		if total.Accepted != len(all) || total.Duplicates != len(all)+100 || total.Conflicts != 0 {
			t.Fatalf("accepted %d duplicates %d conflicts %d, want %d, %d, 0", total.Accepted, total.Duplicates, total.Conflicts, len(all), len(all)+100)
		}
		r := NewReader(db, w.opt)
		from := time.Date(2024, 6, 10, 0, 0, 0, 0, berlin)
		got, err := r.StationEnergy(ctx, []int64{f.subA, f.parent}, Day, from, from.AddDate(0, 0, 3))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []int64{f.subA, f.parent} {
			if len(got[st]) != 3 {
				t.Fatalf("station %d: %d days", st, len(got[st]))
			}
			for _, p := range got[st] {
				if !near(p.PVKWh, 72) {
					t.Errorf("station %d %s: %.6f kWh, want 72", st, p.Start, p.PVKWh)
				}
			}
		}
		// a conflicting reading at an instant already stored is ignored and counted
		c := all[500]
		c.PowerKW += 1
		c.EnergyKWh += 3
		res, err := w.Write(ctx, "test", []Sample{c})
		if err != nil || res.Conflicts != 1 {
			t.Fatalf("conflict: %+v %v", res, err)
		}
		got, _ = r.StationEnergy(ctx, []int64{f.subA}, Day, from, from.AddDate(0, 0, 3))
		if !near(got[f.subA][1].PVKWh, 72) {
			t.Fatalf("after a conflict: %.6f kWh", got[f.subA][1].PVKWh)
		}
	})
}

func TestDSTDaysThroughTheDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		berlin := CalendarFor("Europe/Berlin").Loc
		from := time.Date(2024, 10, 26, 0, 0, 0, 0, berlin)
		s := series(berlin, from, from.AddDate(0, 0, 3), func(time.Time) float64 { return 1.0 / 12 }, lifetime, 0)
		for i := range s {
			s[i].DeviceID = f.inv1
		}
		w := NewWriter(db, Options{Now: clock(from.AddDate(0, 0, 4)), RawRetention: 30 * 24 * time.Hour})
		if _, err := w.Write(ctx, "test", s); err != nil {
			t.Fatal(err)
		}
		r := NewReader(db, w.opt)
		days, err := r.StationEnergy(ctx, []int64{f.subA}, Day, from, from.AddDate(0, 0, 3))
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{24, 25, 24} {
			if !near(days[f.subA][i].PVKWh, want) {
				t.Errorf("day %d: %.6f kWh, want %v", i, days[f.subA][i].PVKWh, want)
			}
		}
		hours, err := r.StationEnergy(ctx, []int64{f.subA}, Hour, from.AddDate(0, 0, 1), from.AddDate(0, 0, 2))
		if err != nil {
			t.Fatal(err)
		}
		if len(hours[f.subA]) != 25 {
			t.Fatalf("%d hours on the 25-hour day", len(hours[f.subA]))
		}
		curve, err := r.StationPowerCurve(ctx, f.subA, from.AddDate(0, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(curve) != 300 || !near(curve[0][1], 1) || !near(curve[299][1], 1) {
			t.Fatalf("curve: %d points, first %v, last %v", len(curve), curve[0], curve[len(curve)-1])
		}
	})
}

func TestQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		berlin := CalendarFor("Europe/Berlin").Loc
		now := time.Date(2024, 6, 12, 20, 0, 0, 0, berlin)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 30 * 24 * time.Hour})
		for d := 10; d <= 12; d++ {
			s := dailyCounterDay(f.inv1, berlin, time.Date(2024, 6, d, 0, 0, 0, 0, berlin))
			var keep []Sample
			for i := range s {
				s[i].DeviceID = f.inv1
				s[i].IrradianceWm2 = 500
				s[i].TempC = 30
				if s[i].Time.Before(now) {
					keep = append(keep, s[i])
				}
			}
			if _, err := w.Write(ctx, "test", keep); err != nil {
				t.Fatal(err)
			}
		}
		r := NewReader(db, w.opt)
		tot, err := r.StationTotals(ctx, []int64{f.subA, f.parent})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []int64{f.subA, f.parent} {
			if got := tot[st]; !near(got.Today.PVKWh, 72) || !near(got.Month.PVKWh, 216) || !near(got.Total.PVKWh, 216) {
				t.Errorf("station %d totals %+v", st, got)
			}
		}
		fleet, err := r.FleetTotals(ctx, []int64{f.subA, f.parent, f.subB})
		if err != nil || !near(fleet.Year.PVKWh, 216) {
			t.Fatalf("fleet totals %+v %v (the parent already includes its sub-stations)", fleet, err)
		}

		// raw for a short range, hours for a month, days for a year
		for _, c := range []struct {
			from   time.Time
			metric string
			res    string
			n      int
		}{
			{now.Add(-24 * time.Hour), "power", "raw", 288},
			{now.Add(-24 * time.Hour), "energy", "hour", 24},
			{now.AddDate(0, -1, 0), "temperature", "hour", 3*24 - 4},
			{now.AddDate(-1, 0, 0), "energy", "day", 3},
		} {
			s, err := r.DeviceSeries(ctx, f.inv1, c.metric, c.from, now, Auto)
			if err != nil {
				t.Fatal(err)
			}
			if s.Resolution != c.res || len(s.Points) != c.n {
				t.Errorf("%s from %s: %s with %d points, want %s with %d", c.metric, c.from, s.Resolution, len(s.Points), c.res, c.n)
			}
		}
		days, _ := r.DeviceSeries(ctx, f.inv1, "energy", now.AddDate(-1, 0, 0), now, Auto)
		for _, p := range days.Points {
			if !near(p[1], 72) {
				t.Errorf("device day energy %v", p)
			}
		}
		temp, _ := r.DeviceSeries(ctx, f.inv1, "temperature", now.AddDate(0, -1, 0), now, Auto)
		if !near(temp.Points[0][1], 30) {
			t.Errorf("average temperature %v", temp.Points[0])
		}
		if _, err := r.DeviceSeries(ctx, f.inv1, "status", now.AddDate(0, -1, 0), now, Hour); !errors.Is(err, ErrResolution) {
			t.Errorf("status by the hour: %v", err)
		}
		pr, _ := r.StationEnergy(ctx, []int64{f.subA}, Day, time.Date(2024, 6, 11, 0, 0, 0, 0, berlin), time.Date(2024, 6, 12, 0, 0, 0, 0, berlin))
		// 500 W/m² for 24 h on 12 kWp = 144 kWh reference; 72 kWh made: PR 0.5
		if p := pr[f.subA][0]; !near(p.PVKWh/p.RefEnergyKWh, 0.5) || p.PVMaxKW == nil || !near(*p.PVMaxKW, 6) {
			t.Errorf("PR %.4f, PV max %v", p.PVKWh/p.RefEnergyKWh, p.PVMaxKW)
		}
		latest, err := r.Latest(ctx, []int64{f.inv1, f.inv2})
		if err != nil || len(latest) != 1 || latest[f.inv1].Time.After(now) {
			t.Fatalf("latest %+v %v", latest, err)
		}
	})
}

func TestPrune(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 30, 0, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour})
		var s []Sample
		for at := now.Add(-10 * 24 * time.Hour); at.Before(now); at = at.Add(time.Hour) {
			s = append(s, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: 100 + float64(at.Unix()-now.Unix())/3600/10})
		}
		if _, err := w.Write(ctx, "test", s); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "test", []Sample{{DeviceID: f.inv2, Time: now.Add(-time.Hour), EnergyKWh: 5}}); err != nil {
			t.Fatal(err)
		}
		rollups := count(t, db, "SELECT COUNT(*) FROM telemetry_device_rollups")
		later := NewWriter(db, Options{Now: clock(now.Add(5 * 24 * time.Hour)), RawRetention: 10 * 24 * time.Hour, PruneShare: 0.25})
		var rests []time.Duration
		later.pause = func(_ context.Context, d time.Duration) { rests = append(rests, d) }
		n, err := later.Prune(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// the two devices are one batch: no rest (TestPassesOverManyDevices has the rests)
		if len(rests) != 0 {
			t.Fatalf("rests between batches %v", rests)
		}
		if left, err := CountStored(ctx, db, 0, 0, now.UnixMilli()); err != nil || n != 4*24 || left != 6*24+1 {
			t.Fatalf("pruned %d", n)
		}
		if count(t, db, "SELECT COUNT(*) FROM telemetry_device_rollups") != rollups || count(t, db, "SELECT COUNT(*) FROM telemetry_latest") != 2 {
			t.Fatal("roll-ups were pruned")
		}
	})
}

func TestBatcher(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	f := newFixture(t, db)
	now := time.Now().Truncate(time.Second)
	w := NewWriter(db, Options{})
	b := w.NewBatcher("test", BatchOptions{MaxSamples: 50})
	var mu sync.Mutex
	var wg sync.WaitGroup
	accepted := 0
	for i := 0; i < 200; i++ {
		wg.Add(1)
		s := Sample{DeviceID: f.inv1, Time: now.Add(-time.Duration(i) * time.Second), EnergyKWh: 1000 - float64(i)*0.001}
		if i%50 == 0 {
			s.PowerKW = math.NaN()
		}
		b.Add([]Sample{s}, func(r Result, err error) {
			defer wg.Done()
			if err != nil {
				t.Error(err)
				return
			}
			// committed: the sample is in the database now
			if n, err := CountStored(ctx, db, f.inv1, s.Time.UnixMilli(), s.Time.UnixMilli()+1); r.Accepted == 1 && (err != nil || n != 1) {
				t.Error("done before commit")
			}
			mu.Lock()
			accepted += r.Accepted
			mu.Unlock()
		})
	}
	wg.Wait()
	b.Close()
	if accepted != 196 {
		t.Fatalf("accepted %d, want 196", accepted)
	}
	done := make(chan error, 1)
	b.Add([]Sample{{DeviceID: f.inv1, Time: now}}, func(_ Result, err error) { done <- err })
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
	_ = ctx
}

// Today's curve ends where every reporting device has reported: a slot some inverters have
// not reached yet would be drawn far too low. A device gone quiet does not hold it back.
func TestPowerCurveLeavesOutTheOpenSlot(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		berlin := CalendarFor("Europe/Berlin").Loc
		day := time.Date(2024, 6, 12, 0, 0, 0, 0, berlin)
		at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
		w := NewWriter(db, Options{Now: clock(at(10, 40)), RawRetention: 30 * 24 * time.Hour})
		write := func(dev int64, from, to time.Time) {
			t.Helper()
			s := series(berlin, from, to, func(time.Time) float64 { return 0.5 }, lifetime, 100)
			for i := range s {
				s[i].DeviceID = dev
			}
			if _, err := w.Write(ctx, "test", s); err != nil {
				t.Fatal(err)
			}
		}
		r := NewReader(db, w.opt)
		last := func() (time.Time, float64) {
			t.Helper()
			curve, err := r.StationPowerCurve(ctx, f.subA, day)
			if err != nil || len(curve) == 0 {
				t.Fatalf("curve %v, %v", curve, err)
			}
			p := curve[len(curve)-1]
			return time.UnixMilli(int64(p[0])).In(berlin), p[1]
		}
		write(f.inv1, at(9, 0), at(10, 10))
		write(f.inv2, at(9, 0), at(10, 0))
		// inv2 has reached 10:00 only: the last whole slot is 09:55–10:00, at both inverters' 12 kW
		if start, kw := last(); !start.Equal(at(9, 55)) || !near(kw, 12) {
			t.Fatalf("last point %s %.3f kW, want 09:55 12 kW", start.Format("15:04"), kw)
		}
		write(f.inv2, at(10, 5), at(10, 10))
		if start, kw := last(); !start.Equal(at(10, 5)) || !near(kw, 12) {
			t.Fatalf("both at 10:10: last point %s %.3f kW, want 10:05 12 kW", start.Format("15:04"), kw)
		}
		// inv1 goes on alone for 20 more minutes: inv2 is quiet, no longer a reporter
		write(f.inv1, at(10, 15), at(10, 30))
		if start, kw := last(); !start.Equal(at(10, 25)) || !near(kw, 6) {
			t.Fatalf("inv2 quiet: last point %s %.3f kW, want 10:25 6 kW", start.Format("15:04"), kw)
		}
	})
}
