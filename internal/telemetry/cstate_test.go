package telemetry

import (
	"database/sql"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// randomCounterState fills each field with zero or a value of any magnitude, so that
// every combination of omitted and written fields occurs.
func randomCounterState(rng *rand.Rand) CounterState {
	f := func() float64 {
		switch rng.IntN(5) {
		case 0:
			return 0
		case 1:
			return math.Round(rng.Float64()*1e6) / 1000
		case 2:
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(44)-22))
		case 3:
			return float64(rng.IntN(1e6))
		}
		return rng.Float64() * 1e9
	}
	i := func() int64 {
		if rng.IntN(3) == 0 {
			return 0
		}
		return rng.Int64N(1<<53) - 1<<40
	}
	return CounterState{Ref: f(), RefT: i(), Held: f(), HeldT: i(), HeldN: int(i() % 1000), HeldE: f(),
		PendV: f(), PendT: i(), LastV: f(), LastT: i(), PendN: int(i() % 50)}
}

// The hand-written counter state is encoding/json's, byte for byte, for every combination
// of states, and reads back to the same state.
func TestCounterStateAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 20000 {
		r := rawRow{T: rng.Int64N(1 << 42), First: rng.IntN(4) == 0}
		r.EnergyKWh, r.Energy2KWh = float64(rng.IntN(1000)), float64(rng.IntN(1000))
		switch n % 4 {
		case 0: // both trivial: only First, or nothing
			r.C1 = CounterState{Ref: r.EnergyKWh, RefT: r.T}
			r.C2 = CounterState{Ref: r.Energy2KWh, RefT: r.T}
		case 1:
			r.C1, r.C2 = randomCounterState(rng), CounterState{Ref: r.Energy2KWh, RefT: r.T}
		case 2:
			r.C1, r.C2 = CounterState{Ref: r.EnergyKWh, RefT: r.T}, randomCounterState(rng)
		default:
			r.C1, r.C2 = randomCounterState(rng), randomCounterState(rng)
		}
		var s storedState
		if !r.C1.trivial(r.EnergyKWh, r.T) {
			c := r.C1
			s.A = &c
		}
		if !r.C2.trivial(r.Energy2KWh, r.T) {
			c := r.C2
			s.B = &c
		}
		s.First = r.First
		got := r.cstate()
		if s.A == nil && s.B == nil && !s.First {
			if got != nil {
				t.Fatalf("trivial state stored as %q", got)
			}
			continue
		}
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Fatalf("state %+v\n got %s\nwant %s", s, got, want)
		}
		back := rawRow{T: r.T}
		back.EnergyKWh, back.Energy2KWh = r.EnergyKWh, r.Energy2KWh
		if err := back.setState(sql.NullString{String: got.(string), Valid: true}); err != nil {
			t.Fatal(err)
		}
		if back.C1 != r.C1 || back.C2 != r.C2 || back.First != r.First {
			t.Fatalf("read back %+v %+v %v, want %+v %+v %v", back.C1, back.C2, back.First, r.C1, r.C2, r.First)
		}
	}
}

// A state JSON cannot hold is stored as no state, as encoding/json's error left it.
func TestCounterStateNaNStoredAsNone(t *testing.T) {
	r := rawRow{T: 5, C1: CounterState{Ref: math.NaN(), RefT: 4}}
	if got := r.cstate(); got != "" {
		t.Fatalf("NaN state stored as %q", got)
	}
}
