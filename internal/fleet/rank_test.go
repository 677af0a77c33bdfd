package fleet

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// topByVisit ranks the inverters of the stations ids by visiting every one of them: what
// the kept per-station orders must give.
func topByVisit(s *State, ids []int64, n int, score Score) []int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var all []ranked
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		today, _ := st.cal.Day(s.now().UnixMilli())
		for _, d := range st.devs {
			if d.typ == "inverter" {
				r := ranked{d: d, nameRank: s.pick.nameRank[s.pick.pos[id]], today: d.fig.dayKWh(today)}
				r.primary, r.secondary = score(r.today, d.kwp)
				all = append(all, r)
			}
		}
	}
	for i := 1; i < len(all); i++ { // insertion sort: no shared code with the kept order
		for j := i; j > 0 && all[j].before(&all[j-1]); j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	var out []int64
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].d.id)
	}
	return out
}

// The inverter ranking kept per station equals a visit of every inverter through new
// samples, moved devices and midnights, for several lengths and two scores.
func TestTopInvertersKeptAsVisited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := newRig(t, db, time.Date(2026, 3, 28, 21, 0, 0, 0, time.UTC))
		if err := r.s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 5))
		scores := map[string]Score{
			"energy": func(today, kwp float64) (float64, float64) { return today, kwp },
			"coarse": func(today, _ float64) (float64, float64) { return float64(int(today / 5)), 0 }, // ties: names decide
		}
		for round := range 40 {
			r.clock.Add((20*time.Minute + time.Duration(rng.IntN(50))*time.Minute).Milliseconds()) // past midnights too
			switch rng.IntN(4) {
			case 0:
				r.moveDevice(t, rng)
			case 1: // time alone
			default:
				r.step(t, rng)
			}
			for key, score := range scores {
				for _, n := range []int{1, 3, 10, 100} {
					ids := r.stations[:1+rng.IntN(len(r.stations))]
					got, err := r.s.TopInverters(ctx, ids, n, key, score)
					if err != nil {
						t.Fatal(err)
					}
					want := topByVisit(r.s, ids, n, score)
					if len(got) != len(want) {
						t.Fatalf("round %d, %s, n %d: %d inverters, want %d", round, key, n, len(got), len(want))
					}
					for i := range got {
						if got[i].ID != want[i] {
							t.Fatalf("round %d, %s, n %d: place %d is %d, want %d", round, key, n, i+1, got[i].ID, want[i])
						}
					}
				}
			}
		}
	})
}
