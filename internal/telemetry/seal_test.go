package telemetry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// sealScenario is a random stream of writes: mostly on time, some late by up to four
// days (past the seal age), re-sent as is or with other values, with counter resets and
// glitches (randomSamples).
type sealScenario struct {
	batches [][]Sample
	clocks  []time.Time // the writer's clock at each batch
	seals   []bool      // seal after the batch
}

func newSealScenario(rng *rand.Rand, devs []*deviceInfo, from, to time.Time, sealing bool) sealScenario {
	type item struct {
		s     Sample
		order time.Time
	}
	var items []item
	for _, d := range devs {
		for _, s := range randomSamples(rng, d, from, to, d.ID%2 == 0) {
			s.DeviceID = d.ID
			order := s.Time
			if rng.IntN(8) == 0 {
				order = order.Add(time.Duration(rng.Int64N(int64(96 * time.Hour))))
			}
			items = append(items, item{s, order})
			switch rng.IntN(25) {
			case 0:
				items = append(items, item{s, order.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))})
			case 1:
				c := s
				c.PowerKW += 1
				items = append(items, item{c, order.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))})
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].order.Before(items[j].order) })
	var sc sealScenario
	for i := 0; i < len(items); {
		n := min(1+rng.IntN(200), len(items)-i)
		batch := make([]Sample, n)
		for j := range batch {
			batch[j] = items[i+j].s
		}
		sc.batches = append(sc.batches, batch)
		sc.clocks = append(sc.clocks, items[i+n-1].order)
		seal := rng.IntN(6) == 0 // drawn either way: both runs write the same batches
		sc.seals = append(sc.seals, sealing && seal)
		i += n
	}
	return sc
}

// sealedReads is everything the scenario's reads answer: the stored samples with their
// counter state, the roll-ups, raw history, previous samples and recent samples.
func sealedReads(t *testing.T, db *store.DB, w *Writer, devs []*deviceInfo, from, to time.Time) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, d := range devs {
		// every stored sample, rows, chunks and blocks, with its counter state
		bs, err := rawUnion(ctx, db, d.ID, "1 = 1", "", nil, "1 = 1", nil)
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(bs, func(i, j int) bool { return bs[i].T < bs[j].T })
		for i := range bs {
			r, err := bs[i].rawRow(d.ID)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("sample %d %d %v %v", d.ID, r.T, r.Sample, r.cstate()))
		}
		err = db.InTx(ctx, func(tx *store.Tx) error {
			// the previous sample and the recent ones, every 5 hours and a bit
			for at := from.UnixMilli(); at < to.UnixMilli(); at += 5*hourMs + d.ID*60_000 {
				row, err := loadBefore(ctx, tx, d.ID, at, w.opt.Now().UnixMilli())
				if err != nil {
					return err
				}
				if row != nil {
					out = append(out, fmt.Sprintf("before %d %d %d %v", d.ID, at, row.T, row.Sample))
				}
				ss, err := SamplesBefore(ctx, db, d.ID, time.UnixMilli(at), 7)
				if err != nil {
					return err
				}
				out = append(out, fmt.Sprintf("recent %d %d %v", d.ID, at, ss))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := StoredSamples(ctx, db, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("stored %d %v", d.ID, stored))
		r := NewReader(db, w.opt)
		for day := from; day.Before(to); day = day.Add(19 * time.Hour) {
			for _, m := range []string{"power", "status", "temperature", "energyCounter"} {
				s, err := r.DeviceSeries(ctx, d.ID, m, day, day.Add(30*time.Hour), Raw)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, fmt.Sprintf("series %d %s %v %v", d.ID, m, day, s.Points))
			}
		}
	}
	for _, q := range []string{
		"SELECT device_id, res, bucket, bucket_end, " + statCols + ", hours FROM telemetry_device_rollups ORDER BY device_id, res, bucket",
		"SELECT station_id, kind, res, bucket, bucket_end, " + statCols + ", hours, slots FROM telemetry_station_rollups ORDER BY station_id, kind, res, bucket",
		"SELECT device_id, " + sampleCols + " FROM telemetry_latest ORDER BY device_id",
	} {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %v", cols[0], vals))
		}
		rows.Close()
	}
	return out
}

// TestSealingChangesNoRead writes the same random stream twice, once sealing days into
// blocks at random moments and writing every run of two samples or more as a chunk, and
// once never sealing and writing rows only, and compares every read.
func TestSealingChangesNoRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2024, 3, 27, 20, 0, 0, 0, time.UTC)
		to := time.Date(2024, 4, 4, 4, 0, 0, 0, time.UTC)
		var now time.Time
		opt := Options{Now: func() time.Time { return now }, RawRetention: 40 * 24 * time.Hour}
		var answers [2][]string
		var sealed int
		for run, sealing := range []bool{true, false} {
			f.reset(t)
			w := f.writer(opt, map[bool]int{true: 2, false: 1 << 30}[sealing])
			devs := f.devices(t, w)
			sc := newSealScenario(rand.New(rand.NewPCG(21, 8)), devs, from, to, sealing)
			unsealed := 0
			chunked, unchunked := 0, 0
			for i, b := range sc.batches {
				now = sc.clocks[i]
				blocks := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks")
				chunks := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_chunks")
				if _, err := w.Write(ctx, "test", b); err != nil {
					t.Fatal(err)
				}
				if count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks") < blocks {
					unsealed++
				}
				switch after := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_chunks"); {
				case after > chunks:
					chunked++
				case after < chunks && !sc.seals[i]:
					unchunked++
				}
				if sealing {
					checkPowerRows(t, db)
				}
				if i == len(sc.batches)/2 {
					// a middle state, with chunks of the recent days in the first run, whose
					// blocks from here on are as if sealed before power rows: read, unsealed
					// and merged as such until the sealer writes their power rows
					if sealing && ageBlocks(t, db) == 0 {
						t.Fatal("no block sealed by the middle of the stream")
					}
					answers[run] = sealedReads(t, db, w, devs, from, to)
				}
				if sc.seals[i] {
					n, err := w.SealBlocks(ctx)
					if err != nil {
						t.Fatal(err)
					}
					sealed += n
				}
			}
			// at last everything sealed, then one late sample per device in a middle day:
			// a day of rows before sealed days (the clock is past the last late sample,
			// up to four days after to)
			now = now.Add(time.Hour) // the clock never goes back
			if sealing {
				if _, err := w.SealBlocks(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var late []Sample
			for _, d := range devs {
				late = append(late, Sample{DeviceID: d.ID, Time: from.Add(60*time.Hour + 7*time.Second), PowerKW: 1, EnergyKWh: 7, TempC: 20})
			}
			if res, err := w.Write(ctx, "test", late); err != nil || res.Accepted != len(late) {
				t.Fatalf("late samples: %+v, %v", res, err)
			}
			answers[run] = append(answers[run], sealedReads(t, db, w, devs, from, to)...)
			if sealing {
				if n := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_power_todo"); n != 0 {
					t.Fatalf("%d devices left without power rows", n)
				}
				if unsealed == 0 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks") == 0 {
					t.Fatalf("no late write unsealed a block (%d blocks sealed)", sealed)
				}
				t.Logf("%d blocks sealed, %d writes unsealed some", sealed, unsealed)
				if chunked == 0 || unchunked == 0 {
					t.Fatalf("%d writes wrote chunks, %d turned some into rows", chunked, unchunked)
				}
				t.Logf("%d writes wrote chunks, %d turned some into rows", chunked, unchunked)

			}
		}
		compareAnswers(t, answers, "with sealing", "without")
	})
}

// compareAnswers fails at the first read two runs answered differently.
func compareAnswers(t *testing.T, answers [2][]string, first, second string) {
	t.Helper()
	if len(answers[0]) != len(answers[1]) {
		t.Errorf("%d answers %s, %d %s", len(answers[0]), first, len(answers[1]), second)
	}
	for i := range min(len(answers[0]), len(answers[1])) {
		if answers[0][i] != answers[1][i] {
			a, b := answers[0][i], answers[1][i]
			k := 0
			for k < len(a) && k < len(b) && a[k] == b[k] {
				k++
			}
			k = max(0, k-300)
			t.Fatalf("%s:\n%s\n%s:\n%s", first, clip(a[:min(len(a), 200)]+" … "+a[k:]), second, clip(b[:min(len(b), 200)]+" … "+b[k:]))
		}
	}
}

func clip(s string) string {
	if len(s) > 1000 {
		return s[:1000] + "…"
	}
	return s
}

// Prune deletes the blocks whose day is wholly past the cutoff, keeps a block that
// straddles it, and the sealer leaves no row in a sealed day.
func TestPruneSealedBlocks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
		w := NewWriter(db, Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour})
		w.pause = func(context.Context, time.Duration) {}
		var s []Sample
		for at := now.Add(-10 * 24 * time.Hour); at.Before(now); at = at.Add(time.Hour) {
			s = append(s, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: 100 + float64(at.Unix()-now.Unix())/3600/10})
		}
		if _, err := w.Write(ctx, "test", s); err != nil {
			t.Fatal(err)
		}
		n, err := w.SealBlocks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// 20 June 12:00 to 30 June 00:00: 10 days, the first half a day
		if n != 10 || count(t, db, "SELECT COUNT(*) FROM telemetry_sample_blocks") != 10 ||
			count(t, db, "SELECT COUNT(*) FROM telemetry_samples")+count(t, db, "SELECT COALESCE(SUM(n), 0) FROM telemetry_sample_chunks") != 12 ||
			count(t, db, "SELECT SUM(n) FROM telemetry_sample_blocks") != 9*24+12 {
			t.Fatalf("sealed %d blocks", n)
		}
		// the cutoff (retention and a day's margin) is 24 June 06:00
		later := NewWriter(db, Options{Now: clock(now.Add(5*24*time.Hour - 6*time.Hour)), RawRetention: 10 * 24 * time.Hour})
		later.pause = w.pause
		pruned, err := later.Prune(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var first int64
		if err := db.QueryRow(ctx, "SELECT MIN(start_ts) FROM telemetry_sample_blocks").Scan(&first); err != nil {
			t.Fatal(err)
		}
		if pruned != 3*24+12 || first != time.Date(2024, 6, 24, 0, 0, 0, 0, time.UTC).UnixMilli() {
			t.Fatalf("pruned %d samples, first block %v", pruned, time.UnixMilli(first).UTC())
		}
		series, err := NewReader(db, later.opt).DeviceSeries(ctx, f.inv1, "energyCounter", now.Add(-6*24*time.Hour), now, Raw)
		if err != nil || len(series.Points) != 6*24 || series.Points[0][1] != 100-6*24/10.0 {
			t.Fatalf("series: %v, %d points", err, len(series.Points))
		}
		if _, err := db.Exec(ctx, "DELETE FROM telemetry_sample_blocks"); err != nil {
			t.Fatal(err)
		}
		left, err := StoredSamples(ctx, db, f.inv1)
		if err != nil || len(left) == 0 || !strings.HasPrefix(left[0].Time.Format(time.DateOnly), "2024-06-30") {
			t.Fatalf("rows or chunks left in sealed days: %v, first %v", err, left)
		}
	})
}
