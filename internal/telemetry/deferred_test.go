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

// storedRollups reads every roll-up row: its key, and its figures with the hours and slots
// unpacked, in key order.
func storedRollups(t *testing.T, db *store.DB) (keys []string, vals [][]float64) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		"SELECT CAST(device_id AS TEXT), '', res, bucket, bucket_end, " + statCols + ", hours, NULL FROM telemetry_device_rollups ORDER BY device_id, res, bucket",
		"SELECT CAST(station_id AS TEXT), kind, res, bucket, bucket_end, " + statCols + ", hours, slots FROM telemetry_station_rollups ORDER BY station_id, kind, res, bucket",
	} {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, kind string
			var res, start, end int64
			var s Stats
			var hours, slots []byte
			dest, finish := statScan(&s)
			if err := rows.Scan(append(append([]any{&id, &kind, &res, &start, &end}, dest...), &hours, &slots)...); err != nil {
				t.Fatal(err)
			}
			finish()
			f := s.fields()
			v := append([]float64(nil), f[:]...)
			if res == int64(Day) {
				d := newDayAcc(start, end, slots != nil)
				if err := unpackHours(hours, d.hours); err != nil {
					t.Fatal(err)
				}
				if err := unpackSlots(slots, d.slots); err != nil {
					t.Fatal(err)
				}
				for i := range d.hours {
					hf := d.hours[i].fields()
					v = append(v, hf[:]...)
				}
				v = append(v, d.slots...)
			}
			keys = append(keys, fmt.Sprintf("%s/%s/%d/%d-%d", id, kind, res, start, end))
			vals = append(vals, v)
		}
		rows.Close()
	}
	return keys, vals
}

// sameFigure compares two stored figures: equal, both NaN, or within float32's precision
// (hours keep some sums as float32, so that the order of additions shows there).
func sameFigure(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9+1e-5*max(math.Abs(a), math.Abs(b))
}

// TestDeferredRollupsAsWritten writes the same random stream twice: once through
// streaming writes, whose roll-up changes wait and are written at random moments, with
// the process stopping now and then with changes waiting (the next writer recovers them
// from the stored samples), and once through Write, which writes them with the samples.
// Every roll-up, latest row and stored sample must come out the same.
func TestDeferredRollupsAsWritten(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	f := newFixture(t, db)
	from := time.Date(2024, 3, 28, 5, 0, 0, 0, time.UTC)
	to := time.Date(2024, 4, 3, 0, 0, 0, 0, time.UTC)
	var now time.Time
	opt := Options{Now: func() time.Time { return now }, RawRetention: 40 * 24 * time.Hour, RollupDelay: time.Hour}
	type answer struct {
		keys    []string
		vals    [][]float64
		samples []string
	}
	var answers [2]answer
	for run, deferred := range []bool{true, false} {
		f.reset(t)
		newWriter := func() *Writer { return f.writer(opt, 0) }
		w := newWriter()
		devs := f.devices(t, w)
		rng := rand.New(rand.NewPCG(9, 31))
		sc := newChunkScenario(rng, devs, from, to)
		stops, recovered, waited := 0, 0, 0
		for i, b := range sc.batches {
			now = sc.clocks[i]
			// the stream in pieces, as a batcher hands it over
			for len(b) > 0 {
				n := min(len(b), 1+rng.IntN(60))
				if _, err := w.write(ctx, "test", b[:n], false, deferred); err != nil {
					t.Fatal(err)
				}
				b = b[n:]
			}
			switch rng.IntN(6) { // drawn in both runs
			case 0:
				if err := w.Flush(ctx); err != nil {
					t.Fatal(err)
				}
			case 1:
				if !deferred {
					continue
				}
				// the process stops: the changes waiting are lost with it
				w.wmu.Lock()
				if w.waiting != nil {
					waited++
				}
				w.dropWaiting()
				w.wmu.Unlock()
				stops++
				w = newWriter()
				n, err := w.Recover(ctx)
				if err != nil {
					t.Fatal(err)
				}
				recovered += n
			}
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, "SELECT COUNT(*) FROM telemetry_latest WHERE rolled_ts IS NOT NULL"); n != 0 {
			t.Fatalf("%d devices not rolled up after a flush", n)
		}
		if deferred {
			if waited == 0 || recovered == 0 {
				t.Fatalf("%d stops, %d with changes waiting, %d samples recovered", stops, waited, recovered)
			}
			t.Logf("%d stops, %d with changes waiting, %d samples recovered", stops, waited, recovered)
		}
		a := &answers[run]
		a.keys, a.vals = storedRollups(t, db)
		for _, d := range devs {
			stored, err := StoredSamples(ctx, db, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			a.samples = append(a.samples, fmt.Sprint(stored))
		}
		latest, err := loadLatest(ctx, db, []int64{f.inv1, f.inv2, f.meter, f.pack})
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]int64, 0, len(latest))
		for id := range latest {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			a.samples = append(a.samples, fmt.Sprintf("latest %d %d %v %v", id, latest[id].T, latest[id].Sample, latest[id].cstate()))
		}
	}
	d, s := answers[0], answers[1]
	if fmt.Sprint(d.samples) != fmt.Sprint(s.samples) {
		t.Fatal("stored samples or latest rows differ")
	}
	if fmt.Sprint(d.keys) != fmt.Sprint(s.keys) {
		t.Fatalf("roll-up rows differ:\ndeferred %v\nwritten  %v", d.keys, s.keys)
	}
	for i := range d.keys {
		for j := range d.vals[i] {
			if !sameFigure(d.vals[i][j], s.vals[i][j]) {
				t.Fatalf("roll-up %s, figure %d: %v deferred, %v written with the samples", d.keys[i], j, d.vals[i][j], s.vals[i][j])
			}
		}
	}
	t.Logf("%d roll-up rows alike", len(d.keys))
}

// TestRecoverAfterFirstWrite is the start of a server that stopped with roll-up changes
// waiting: the first streaming write recovers them (ensureRecovered) and leaves its own
// changes waiting, and only then does the start-up's Recover get its turn (it ran beside
// the first ingest request). That Recover must not add the waiting write's samples from
// the stored ones: its flush adds them, and they would count twice.
func TestRecoverAfterFirstWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2024, 3, 30, 20, 0, 0, 0, time.UTC)
		mid := time.Date(2024, 3, 31, 9, 0, 0, 0, time.UTC)
		to := time.Date(2024, 4, 1, 2, 0, 0, 0, time.UTC)
		opt := Options{Now: clock(to.Add(time.Hour)), RawRetention: 40 * 24 * time.Hour, RollupDelay: time.Hour}
		newWriter := func() *Writer {
			w := f.writer(opt, 0)
			// as if a write were always under way: no idle flush comes between the steps
			w.writing.Add(1)
			return w
		}
		w := newWriter()
		devs := f.devices(t, w)
		rng := rand.New(rand.NewPCG(5, 17))
		kept := map[int64][]Sample{}
		var before, after []Sample // each device's samples before mid, and from mid on
		for _, d := range devs {
			for _, s := range randomSamples(rng, d, from, to, d.ID == f.inv2) {
				s.DeviceID = d.ID
				kept[d.ID] = append(kept[d.ID], s)
				if s.Time.Before(mid) {
					before = append(before, s)
				} else {
					after = append(after, s)
				}
			}
		}
		deferring := w.deferring()

		// the first process writes, and stops with its changes waiting
		for len(before) > 0 {
			n := min(len(before), 1+rng.IntN(80))
			if _, err := w.write(ctx, "test", before[:n], false, true); err != nil {
				t.Fatal(err)
			}
			before = before[n:]
		}
		if w.RollupsWaiting() != deferring {
			t.Fatalf("changes waiting before the stop: %v, want %v", w.RollupsWaiting(), deferring)
		}
		w.wmu.Lock()
		w.dropWaiting()
		w.wmu.Unlock()

		// the next process: its first write recovers, then waits with its own changes
		w = newWriter()
		if _, err := w.write(ctx, "test", after, false, true); err != nil {
			t.Fatal(err)
		}
		if w.RollupsWaiting() != deferring {
			t.Fatalf("changes waiting after the first write: %v, want %v", w.RollupsWaiting(), deferring)
		}
		if deferring {
			if n := count(t, db, "SELECT COUNT(*) FROM telemetry_latest WHERE rolled_ts IS NOT NULL"); n == 0 {
				t.Fatal("no device is marked behind while the first write's changes wait")
			}
		}
		// the start-up's Recover, late
		n, err := w.Recover(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("the start-up's Recover added %d samples of the write whose changes wait", n)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, "SELECT COUNT(*) FROM telemetry_latest WHERE rolled_ts IS NOT NULL"); n != 0 {
			t.Fatalf("%d devices not rolled up after a flush", n)
		}
		checkAgainstBruteForce(t, db, w, f, devs, kept)

		// and a further start finds nothing to add
		if n, err := newWriter().Recover(ctx); err != nil || n != 0 {
			t.Fatalf("a later start's Recover: %d samples, %v", n, err)
		}
		checkAgainstBruteForce(t, db, w, f, devs, kept)
	})
}
