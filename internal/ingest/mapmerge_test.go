package ingest

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// vals is a field set for the merge: field index → value.
func vals(m map[int]float64) (uint16, [nFields]float64) {
	var found uint16
	var v [nFields]float64
	for i, x := range m {
		found |= 1 << i
		v[i] = x
	}
	return found, v
}

// Separate topics of one device become one sample; a field arriving again closes the
// round; a missing counter carries the last value (never 0, which reads as a reset); a
// stale non-counter field is not carried; acknowledgements wait for the sample.
func TestMergeRounds(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	g := newMerger(100)
	g.now = func() time.Time { return clock }
	g.seed(7, telemetry.Sample{EnergyKWh: 500, Time: clock.Add(-time.Hour)}, true)
	acked := 0
	ack := func(ok bool) {
		if ok {
			acked++
		}
	}
	add := func(m map[int]float64) []round {
		f, v := vals(m)
		return g.add(7, f, v, source{}, ack)
	}
	if out := add(map[int]float64{telemetry.FieldPower: 1.2}); len(out) != 0 {
		t.Fatalf("closed early: %+v", out)
	}
	clock = clock.Add(100 * time.Millisecond)
	add(map[int]float64{telemetry.FieldEnergy: 510})
	add(map[int]float64{5: 230, 6: 50})
	clock = clock.Add(time.Second)
	out := add(map[int]float64{telemetry.FieldPower: 1.3}) // the next cycle
	if len(out) != 1 {
		t.Fatalf("%d rounds, want 1", len(out))
	}
	s := out[0].sample
	if s.PowerKW != 1.2 || s.EnergyKWh != 510 || s.ACVoltageV != 230 || s.FrequencyHz != 50 || len(out[0].acks) != 3 {
		t.Fatalf("merged %+v (%d acks)", s, len(out[0].acks))
	}
	if !s.Time.Equal(time.Unix(1_700_000_000, 0)) {
		t.Fatalf("time %v, want the round's first message", s.Time)
	}
	// the window passes: the round of 1.3 kW closes with the counter and voltage carried
	if len(g.due(false)) != 0 {
		t.Fatal("closed before the window")
	}
	clock = clock.Add(mergeWindow + time.Millisecond)
	out = g.due(false)
	if len(out) != 1 || out[0].sample.PowerKW != 1.3 || out[0].sample.EnergyKWh != 510 || out[0].sample.ACVoltageV != 230 {
		t.Fatalf("carried %+v", out)
	}
	// much later: the counter is still carried, the voltage no longer
	clock = clock.Add(carryFor + time.Minute)
	add(map[int]float64{telemetry.FieldPower: 0.5})
	out = g.due(true)
	if len(out) != 1 || out[0].sample.EnergyKWh != 510 || out[0].sample.ACVoltageV != 0 {
		t.Fatalf("after carryFor %+v", out[0].sample)
	}
	if acked != 0 {
		t.Fatal("acknowledged before the commit")
	}
	for _, a := range out[0].acks {
		a(true)
	}
	if acked != 1 {
		t.Fatalf("%d acks", acked)
	}
	// a device never seeded with a counter: a missing counter stays 0 only then
	g.seed(8, telemetry.Sample{}, false)
	f, v := vals(map[int]float64{telemetry.FieldPower: 2})
	g.add(8, f, v, source{}, ack)
	if out := g.due(true); out[0].sample.EnergyKWh != 0 {
		t.Fatalf("invented a counter: %+v", out[0].sample)
	}
}

// Two rounds in one millisecond get distinct instants; the held messages are bounded by
// the in-flight share.
func TestMergeBounds(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	g := newMerger(4)
	g.now = func() time.Time { return clock }
	f, v := vals(map[int]float64{telemetry.FieldPower: 1})
	var out []round
	for i := 0; i < 3; i++ {
		out = append(out, g.add(1, f, v, source{}, func(bool) {})...)
	}
	if len(out) != 2 || !out[1].sample.Time.After(out[0].sample.Time) {
		t.Fatalf("rounds %+v", out)
	}
	for id := int64(10); id < 14; id++ {
		out = append(out, g.add(id, f, v, source{}, func(bool) {})...)
	}
	if g.held >= 4 {
		t.Fatalf("%d messages held, the bound is 4", g.held)
	}
}

func TestArrivedBounded(t *testing.T) {
	a := NewArrived(2, 3)
	now := time.Unix(1_700_000_000, 0)
	for i := 0; i < 5; i++ {
		a.Note(1, string(rune('a'+i)), "no_rule", "", []byte("x"), now.Add(time.Duration(i)*time.Second))
	}
	a.Note(1, "e", "no_rule", "", make([]byte, 2000), now.Add(10*time.Second))
	got := a.List(1)
	if len(got) != 3 || got[0].Topic != "e" || got[0].Count != 2 || len(got[0].Payload) != arrivedPayload || !got[0].Trimmed || got[2].Topic != "c" {
		t.Fatalf("%+v", got)
	}
	a.Note(2, "x", "no_rule", "", nil, now)
	a.Note(3, "y", "no_rule", "", nil, now.Add(time.Minute))
	if len(a.List(2)) != 0 || len(a.List(1)) != 3 || len(a.List(3)) != 1 {
		t.Fatal("the least recently active organisation was not the one dropped")
	}
}
