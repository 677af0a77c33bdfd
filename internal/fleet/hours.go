package fleet

// A station's kept hours are looked up more than any other bucket (the fleet's chart of
// today reads every station's hours), so a small direct-mapped table fronts the map:
// slot (start ÷ 1 h) mod hourSlots holds the last hour created there. A lookup whose slot
// holds another hour (one hourSlots hours apart, or created out of order) reads the map.

const (
	hourSlots = 64
	hourMs    = int64(3_600_000)
)

type hourSlot struct {
	start int64
	p     *period
}

func slotOf(start int64) int { return int(uint64(start/hourMs) % hourSlots) }

// hourAt returns the station's hour starting at start, created when new.
func (f *stationFig) hourAt(start int64) *period {
	p := f.hours[start]
	if p == nil {
		p = &period{}
		f.hours[start] = p
		if f.slots == nil {
			f.slots = new([hourSlots]hourSlot)
			f.newestHour = start
		}
		f.slots[slotOf(start)] = hourSlot{start, p}
		f.newestHour = max(f.newestHour, start)
	}
	return p
}

// hour returns the station's hour starting at start (nil: none kept).
func (f *stationFig) hour(start int64) *period {
	if f.slots == nil {
		return f.hours[start]
	}
	if s := &f.slots[slotOf(start)]; s.start == start && s.p != nil {
		return s.p
	}
	if start > f.newestHour { // the hours still to come: none yet
		return nil
	}
	return f.hours[start]
}

// dropHour forgets the hour starting at start.
func (f *stationFig) dropHour(start int64) {
	delete(f.hours, start)
	if f.slots != nil {
		if s := &f.slots[slotOf(start)]; s.start == start {
			*s = hourSlot{}
		}
	}
}
