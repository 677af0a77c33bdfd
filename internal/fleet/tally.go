package fleet

import (
	"context"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Tally is what a station's own devices (not its sub-stations') add up to at an instant:
// the live figures of the station lists and the fleet's device counts.
type Tally struct {
	Total int
	// Reported and Online count as the station lists do: a device that has reported and
	// whose poller is not still connecting; online when its state (device.StateOf) is not
	// offline. PowerKW is the online inverters' power.
	Reported, Online int
	PowerKW          float64
	LastSeen         time.Time // newest sample (zero: none)
	// States counts by device.StateOf (device.States' order), from the samples and the
	// poller's communication states, as the device list shows them; ByType the same per
	// type (device.Types' order; other types are not counted there).
	States [4]int
	ByType [4][4]int
	// Until is the first instant (unix ns) the tally changes with time alone: a
	// device's sample growing too old (math.MaxInt64: never)
	Until int64
}

// kept is a station's tally as computed at from, right until until (unix ns): the first
// instant a device's state changes with time alone (its sample growing too old), for
// the communication states of generation gen. A new sample of one of its devices, or a
// new membership, drops it.
type kept struct {
	Tally
	from, until int64
	gen         uint64
}

// Comms is the field poller's communication state of the devices it reads (absent: not
// read) and the snapshot's generation, which changes whenever a state does.
type Comms struct {
	States map[int64]string
	Gen    uint64
}

// Tallies calls fn for every listed station (top: its id) with the tally of its own
// devices and, with under, with that of each of its sub-stations. A tally is computed
// once and kept until a sample, the membership, the communication states or the clock
// changes it, so a call costs a lookup per station, not a visit per device. fn runs under
// the state's read lock and must not call the state nor keep the tally.
func (s *State) Tallies(ctx context.Context, ids []int64, under bool, now time.Time, comms Comms, fn func(top int64, t *Tally)) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	ns := now.UnixNano()
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		fn(id, st.tallyAt(ns, now, comms))
		if under {
			for _, c := range st.kids {
				fn(id, c.tallyAt(ns, now, comms))
			}
		}
	}
	return nil
}

// tallyAt returns the station's kept tally when it still holds at now, else computes and
// keeps it. Readers may compute it at once; each keeps an equal tally.
func (st *stationInfo) tallyAt(ns int64, now time.Time, comms Comms) *Tally {
	if k := st.tally.Load(); k != nil && k.gen == comms.Gen && k.from <= ns && ns <= k.until {
		return &k.Tally
	}
	k := &kept{from: ns, until: math.MaxInt64, gen: comms.Gen}
	for _, d := range st.devs {
		var l *telemetry.Sample
		if f := d.fig; f != nil && f.hasLatest {
			l = &f.latest
		}
		comm := ""
		if len(comms.States) > 0 {
			comm = comms.States[d.id]
		}
		state := device.StateOf(l, comm, now)
		si := device.StateIndex(state)
		k.States[si]++
		for ti, t := range device.Types {
			if ti < len(k.ByType) && t == d.typ {
				k.ByType[ti][si]++
				break
			}
		}
		if l != nil && state != device.StateOffline { // offline from this instant on
			k.until = min(k.until, l.Time.Add(device.OfflineAfter).UnixNano())
		}
		k.Total++
		if l == nil || comm == device.CommConnecting {
			continue
		}
		k.Reported++
		if l.Time.After(k.LastSeen) {
			k.LastSeen = l.Time
		}
		if state != device.StateOffline {
			k.Online++
			if d.typ == "inverter" {
				k.PowerKW += l.PowerKW
			}
		}
	}
	k.Tally.Until = k.until
	st.tally.Store(k)
	return &k.Tally
}
