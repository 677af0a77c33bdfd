package fleet

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// freshTally counts a station's own devices one by one, as the kept tally must.
func freshTally(t *testing.T, s *State, id int64, now time.Time, comms Comms) Tally {
	t.Helper()
	out := Tally{Until: math.MaxInt64}
	err := s.EachOf(context.Background(), []int64{id}, func(m *Member, l *telemetry.Sample) {
		// the device screens' rule: the samples and the poller's states
		comm := comms.States[m.ID]
		state := device.StateOf(l, comm, now)
		if l != nil && state != device.StateOffline { // offline from this instant on
			out.Until = min(out.Until, l.Time.Add(device.OfflineAfter).UnixNano())
		}
		si := device.StateIndex(state)
		out.States[si]++
		for ti, typ := range device.Types {
			if typ == m.Type {
				out.ByType[ti][si]++
			}
		}
		out.Total++
		if l == nil || comm == "connecting" {
			return
		}
		out.Reported++
		if l.Time.After(out.LastSeen) {
			out.LastSeen = l.Time
		}
		if state != device.StateOffline {
			out.Online++
			if m.Type == "inverter" {
				out.PowerKW += l.PowerKW
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTalliesFollowSamplesClockAndComms: kept tallies equal a count of the devices one by
// one through new samples, silences longer than device.OfflineAfter (time alone turning
// devices offline), devices moved, a clock that steps back, and new communication states.
func TestTalliesFollowSamplesClockAndComms(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		start := time.Date(2026, 3, 28, 22, 0, 0, 0, time.UTC)
		r := newRig(t, db, start)
		rng := rand.New(rand.NewPCG(7, 11))
		comms := Comms{Gen: 1}
		checked, kept := 0, 0
		for round := range 60 {
			switch n := rng.IntN(10); {
			case n < 5:
				r.step(t, rng)
			case n == 5:
				r.moveDevice(t, rng)
			case n == 6: // the poller's view changes
				m := map[int64]string{}
				for _, id := range r.devices {
					if rng.IntN(4) == 0 {
						m[id] = []string{"connecting", "online", "offline"}[rng.IntN(3)]
					}
				}
				comms = Comms{States: m, Gen: comms.Gen + 1}
			}
			// the clock: mostly a few minutes, sometimes past OfflineAfter, once in a while back
			step := time.Duration(rng.IntN(6)) * time.Minute
			if rng.IntN(5) == 0 {
				step = device.OfflineAfter + time.Duration(rng.IntN(600))*time.Second
			}
			if round%17 == 16 {
				step = -device.OfflineAfter
			}
			r.clock.Add(step.Milliseconds())
			for pass := range 2 { // the second pass reads what the first kept
				now := r.now().Add(time.Duration(pass) * time.Millisecond)
				for _, id := range r.stations {
					want := freshTally(t, r.s, id, now, comms)
					var got Tally
					calls := 0
					if err := r.s.Tallies(ctx, []int64{id}, false, now, comms, func(top int64, tl *Tally) {
						got, calls = *tl, calls+1
					}); err != nil {
						t.Fatal(err)
					}
					if calls != 1 || got != want {
						t.Fatalf("round %d, station %d at %s: kept tally %+v, counted %+v", round, id, now, got, want)
					}
					checked++
				}
			}
			for _, id := range r.stations {
				if k := r.s.stations[id]; k != nil && k.tally.Load() != nil {
					kept++
				}
			}
		}
		if kept == 0 || checked == 0 {
			t.Fatalf("nothing was kept (%d) or checked (%d)", kept, checked)
		}
	})
}
