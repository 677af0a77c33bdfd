package telemetry

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// chunkScenario is a random stream as collectors send it: each device's readings in
// buffered runs of one to eight hours, some held back and sent after later ones, some sent
// again as they were or with other values; the clock follows the newest reading.
type chunkScenario struct {
	batches [][]Sample
	clocks  []time.Time
}

func newChunkScenario(rng *rand.Rand, devs []*deviceInfo, from, to time.Time) chunkScenario {
	var sc chunkScenario
	all := map[int64][]Sample{}
	for _, d := range devs {
		for _, s := range randomSamples(rng, d, from, to, d.ID%2 == 0) {
			s.DeviceID = d.ID
			all[d.ID] = append(all[d.ID], s)
		}
	}
	var held []Sample // readings held back, sent with a later batch
	for at := from; at.Before(to); {
		next := at.Add(time.Duration(1+rng.IntN(8)) * time.Hour)
		var batch []Sample
		for _, d := range devs {
			for _, s := range all[d.ID] {
				if s.Time.Before(at) || !s.Time.Before(next) {
					continue
				}
				switch rng.IntN(40) {
				case 0:
					held = append(held, s)
					continue
				case 1:
					batch = append(batch, s) // sent twice
				case 2:
					c := s
					c.PowerKW += 1 // a conflicting reading
					held = append(held, c)
				}
				batch = append(batch, s)
			}
		}
		if len(held) > 0 && rng.IntN(3) == 0 {
			batch = append(batch, held...)
			held = nil
		}
		sc.batches = append(sc.batches, batch)
		sc.clocks = append(sc.clocks, next.Add(time.Duration(rng.IntN(600))*time.Second))
		at = next
	}
	if len(held) > 0 {
		sc.batches = append(sc.batches, held)
		sc.clocks = append(sc.clocks, to.Add(time.Hour))
	}
	return sc
}

// TestChunksChangeNoRead writes the same random stream twice, once with every run of
// two samples or more of a device day written as a chunk and days sealed now and then,
// and once as rows only and never sealed, and compares every read at several moments.
func TestChunksChangeNoRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		from := time.Date(2024, 3, 28, 5, 0, 0, 0, time.UTC)
		to := time.Date(2024, 4, 3, 0, 0, 0, 0, time.UTC)
		var now time.Time
		opt := Options{Now: func() time.Time { return now }, RawRetention: 40 * 24 * time.Hour}
		var answers [2][]string
		for run, chunked := range []bool{true, false} {
			f.reset(t)
			w := f.writer(opt, map[bool]int{true: 2, false: 1 << 30}[chunked])
			devs := f.devices(t, w)
			rng := rand.New(rand.NewPCG(5, 17))
			sc := newChunkScenario(rng, devs, from, to)
			written, unchunked, readWith := 0, 0, 0
			for i, b := range sc.batches {
				now = sc.clocks[i]
				before := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_chunks")
				if _, err := w.Write(ctx, "test", b); err != nil {
					t.Fatal(err)
				}
				after := count(t, db, "SELECT COUNT(*) FROM telemetry_sample_chunks")
				switch {
				case after > before:
					written++
				case after < before:
					unchunked++
				}
				seal := rng.IntN(5) == 0 // drawn in both runs
				if chunked && seal {
					if _, err := w.SealBlocks(ctx); err != nil {
						t.Fatal(err)
					}
				}
				if i%7 == 3 {
					if after > 0 {
						readWith++
					}
					answers[run] = append(answers[run], sealedReads(t, db, w, devs, from, to)...)
				}
			}
			answers[run] = append(answers[run], sealedReads(t, db, w, devs, from, to)...)
			if chunked {
				if written == 0 || unchunked == 0 || readWith == 0 {
					t.Fatalf("%d writes wrote chunks, %d turned some into rows, %d reads with chunks", written, unchunked, readWith)
				}
				t.Logf("%d writes wrote chunks, %d turned some into rows, %d reads with chunks", written, unchunked, readWith)
			}
		}
		compareAnswers(t, answers, "with chunks", "rows only")
	})
}
