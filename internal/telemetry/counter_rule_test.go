package telemetry

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// totalEnergy runs readings 5 minutes apart through StepCounter and sums the energy.
func totalEnergy(readings []float64, ratedKW float64) (float64, []CounterEvent) {
	var st CounterState
	var sum float64
	var events []CounterEvent
	for i, x := range readings {
		var step CounterStep
		st, step = StepCounter(st, x, int64(i+1)*5*60000, ratedKW, nil)
		sum += step.EnergyKWh
		events = append(events, step.Event)
	}
	return sum, events
}

// The rule for a counter that steps back (docs/telemetry.md, "Counter steps back"), as a
// table: each series with the energy a person counts by hand.
func TestCounterBackwardsStepRule(t *testing.T) {
	cases := []struct {
		name     string
		readings []float64
		kwh      float64
	}{
		{"small dip is noise", []float64{0, 1, 1.5, 2, 1.8, 2.5, 3}, 3},
		{"dip that stays below for a while", []float64{10, 11, 10.9, 10.95, 10.98, 11.4}, 1.4},
		{"two dips in a row", []float64{100, 101, 100.8, 100.7, 101.5}, 1.5},
		{"drop to zero is a reset", []float64{40, 41, 0, 0.5, 1}, 2},
		{"drop to near zero is a reset", []float64{40, 41, 0.3, 0.8}, 1.8},
		{"16-bit wrap is a rollover", []float64{65534, 65535, 0.5, 1.5}, 3.5},
		{"big drop far from zero is suspect until confirmed", []float64{5000, 5001, 4000, 4000.5, 4001, 4001.5}, 2.5},
		{"jump beyond rated is suspect", []float64{100, 101, 500, 101.5}, 1.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, events := totalEnergy(c.readings, 10)
			if math.Abs(got-c.kwh) > 1e-9 {
				t.Fatalf("%v: %.4f kWh (%v), want %.4f", c.readings, got, events, c.kwh)
			}
		})
	}
}

// Brute force: random series built from a true, ever-growing counter, reported with noise
// dips, resets to zero and register wraps. The energy the rule counts equals the true
// energy (by construction every event lies within the rule's limits).
func TestCounterRuleMatchesTrueEnergy(t *testing.T) {
	const rated = 10.0
	const stepKWhMax = rated * 5.0 / 60 // 5 minutes at full power
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		truth := 0.0  // the device's real production since the first reading
		offset := 0.0 // what the reported counter had when it last restarted
		start := 0.0  // the reported counter's starting value
		wrap := 0.0   // register width, when the counter wraps
		if rng.IntN(3) == 0 {
			wrap = 65536
			start = 65536 - 20*rng.Float64()
		} else {
			start = 1000 * rng.Float64()
		}
		reported := func() float64 {
			v := start + truth - offset
			if wrap > 0 {
				v = math.Mod(v, wrap)
			}
			return v
		}
		readings := []float64{reported()}
		var kinds []string
		last := "normal"
		for i := 0; i < 400; i++ {
			inc := stepKWhMax * rng.Float64() * float64(rng.IntN(2))
			prev := readings[len(readings)-1]
			kind := "normal"
			switch r := rng.IntN(40); {
			case r == 0 && last == "normal" && prev > 5 && !nearWrap(prev):
				// the device restarted its counter right after the last reading
				offset, start, wrap = truth, 0, 0
				kind = "reset"
			case r == 1 && last == "normal" && prev > 2 && (wrap == 0 || prev < wrap-3):
				kind = "dip"
			}
			truth += inc
			v := reported()
			if kind == "dip" {
				// lower than the last trusted reading by at most 2 kWh, above half of it
				v = math.Min(prev, v) - 2*rng.Float64()
				if v < prev/2+0.01 {
					v, kind = reported(), "normal"
				}
			}
			kinds = append(kinds, kind)
			last = kind
			readings = append(readings, v)
		}
		readings = append(readings, reported()) // the last reading is a true one
		got, events := totalEnergy(readings, rated)
		if math.Abs(got-truth) > 1e-6 {
			t.Fatalf("seed %d: counted %.6f kWh, true %.6f (events %v)\nkinds %v", seed, got, truth, summary(events), fmt.Sprint(kinds))
		}
	}
}

// nearWrap reports whether a drop from v could also be a register wrap (v within a
// bound of a modulus): the rule then counts a rollover, which the generator avoids.
func nearWrap(v float64) bool {
	for _, m := range rolloverModuli {
		if m > v && m-v < 2.2 {
			return true
		}
	}
	return false
}

func summary(events []CounterEvent) map[string]int {
	out := map[string]int{}
	for _, e := range events {
		out[e.String()]++
	}
	return out
}
