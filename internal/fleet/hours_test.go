package fleet

import (
	"math/rand/v2"
	"testing"
)

// The slot table in front of a station's hours answers as the map alone: hours created in
// any order, 64 hours apart (the same slot), half-hour grids, and hours dropped.
func TestHourSlotsAnswerAsTheMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	f := newStationFig()
	base := int64(1_790_000_000_000) / hourMs * hourMs
	var starts []int64
	for range 2000 {
		start := base + int64(rng.IntN(300))*hourMs
		if rng.IntN(5) == 0 {
			start += hourMs / 2 // a zone on the half hour
		}
		starts = append(starts, start)
		switch rng.IntN(4) {
		case 0:
			f.dropHour(start)
		default:
			f.hourAt(start).PVKWh += 1
		}
		probe := starts[rng.IntN(len(starts))]
		if rng.IntN(2) == 0 { // anywhere, kept or not, newer than every kept hour or not
			probe = base + int64(rng.IntN(800))*hourMs/2
		}
		if got, want := f.hour(probe), f.hours[probe]; got != want {
			t.Fatalf("hour %d: slot table %p, map %p", probe, got, want)
		}
	}
	hits := 0
	for _, s := range starts {
		if got, want := f.hour(s), f.hours[s]; got != want {
			t.Fatalf("hour %d: slot table %p, map %p", s, got, want)
		}
		if sl := f.slots[slotOf(s)]; sl.start == s && sl.p != nil {
			hits++
		}
	}
	if hits == 0 {
		t.Fatal("the slot table answered nothing")
	}
}
