package monitor

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/station"
)

// keptParts keeps one part per station of a list (an organisation's root stations) for a
// fleet-wide answer that adds them up: a call computes again only the parts of the
// stations the fleet state names as changed since the last call (fleet.State.
// ChangedSince), and those whose time ran out (a device's sample growing old, a quarter
// hour). Everything is computed again when the list, the membership or the poller's
// states change. A call then costs what changed, and a pass over the parts to add them.
type keptParts[P any] struct {
	mu      sync.Mutex
	list    []*station.Station // the stations the parts are of
	pos     map[int64]int      // a station's place in list
	parts   []P
	until   []int64 // unix ns: part i holds until until[i] with time alone
	from    int64   // unix ns: when the parts were last brought up to date
	soonest int64   // the least of until
	mark    fleet.Mark
	comms   uint64
	ok      bool
	stale   []int    // scratch: the parts to compute again
	seen    []uint32 // scratch: seen[i] == epoch when i is in stale
	epoch   uint32
}

// fillParts computes the parts of the stations list[i] for i in idx into parts[i], and
// until[i]: the first instant (unix ns) each changes with time alone.
type fillParts[P any] func(ctx context.Context, list []*station.Station, idx []int, parts []P, until []int64, now time.Time) error

// partsComputed counts the parts computed, by why: all of them the first time or when the
// poller's states, the clock, the stations listed or the changes journal (fleet.State.
// ChangedSince: a membership read, an alarm index read, too many changes) ask for it; the
// stations the journal names (changed); those whose time ran out (time).
var partsComputed = metrics.Default.NewCounter("helio_figures_parts_computed_total",
	"Parts (one per root station) of the kept fleet-wide figures computed again, by why: first, comms, clock, stations, journal (all parts), changed, time (some).", "why")

// partsStats counts parts computed again (tests read it).
var partsStats struct {
	sync.Mutex
	full, some, filled int
	zoneKept           int // zone sums answered as kept (zones.go)
}

// sameStations says whether a and b are the same stations in the same order.
func sameStations(a, b []*station.Station) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true // the same list
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refresh brings the parts of list up to now; the caller holds k.mu.
func (k *keptParts[P]) refresh(ctx context.Context, f *Figures, list []*station.Station, now time.Time, fill fillParts[P]) error {
	ns := now.UnixNano()
	if ns < k.from {
		// a caller that read the clock before the one ahead of it on the lock: read it
		// again (a replica held to a small CPU quota can wait seconds for the lock; every
		// part computed again for that is most of a second at 10,000 stations)
		if cur := f.now(); cur.UnixNano() >= k.from {
			ns, now = cur.UnixNano(), cur
		} else if k.from-ns < int64(time.Second) {
			// a clock read a little behind: the parts' instant is as good (a clock set
			// back by more computes everything again)
			ns, now = k.from, time.Unix(0, k.from)
		}
	}
	cs := f.comms()
	why := ""
	switch {
	case !k.ok:
		why = "first"
	case cs.Gen != k.comms:
		why = "comms"
	case ns < k.from:
		why = "clock"
	case !sameStations(list, k.list):
		why = "stations"
	}
	full := why != ""
	if k.epoch++; k.epoch == 0 { // wrapped: an old mark must not pass for this call's
		clear(k.seen)
		k.epoch = 1
	}
	k.stale = k.stale[:0]
	var mark fleet.Mark
	if !full {
		var ok bool
		var err error
		mark, ok, err = f.Fleet.ChangedSince(ctx, k.mark, func(id int64) {
			if i, in := k.pos[id]; in && k.seen[i] != k.epoch {
				k.seen[i] = k.epoch
				k.stale = append(k.stale, i)
			}
		})
		if err != nil {
			return err
		}
		full = !ok
		if full {
			why = "journal"
		} else if len(k.stale) > 0 {
			partsComputed.Add(float64(len(k.stale)), "changed")
		}
	}
	if full {
		k.ok = false
		var err error
		if mark, _, err = f.Fleet.ChangedSince(ctx, fleet.Mark{}, func(int64) {}); err != nil {
			return err
		}
		k.list, k.parts, k.until = list, make([]P, len(list)), make([]int64, len(list))
		k.seen = make([]uint32, len(list))
		k.pos = make(map[int64]int, len(list))
		k.stale = k.stale[:0]
		for i, st := range list {
			k.pos[st.ID] = i
			k.stale = append(k.stale, i)
		}
		partsComputed.Add(float64(len(list)), why)
	} else if ns >= k.soonest {
		n := len(k.stale)
		for i, u := range k.until {
			if ns >= u && k.seen[i] != k.epoch {
				k.seen[i] = k.epoch
				k.stale = append(k.stale, i)
			}
		}
		partsComputed.Add(float64(len(k.stale)-n), "time")
	}
	if len(k.stale) > 0 {
		if err := fill(ctx, k.list, k.stale, k.parts, k.until, now); err != nil {
			k.ok = false
			return err
		}
		soonest := int64(math.MaxInt64)
		for _, u := range k.until {
			soonest = min(soonest, u)
		}
		k.soonest = soonest
		partsStats.Lock()
		if full {
			partsStats.full++
		} else {
			partsStats.some++
		}
		partsStats.filled += len(k.stale)
		partsStats.Unlock()
	}
	k.mark, k.comms, k.from, k.ok = mark, cs.Gen, ns, true
	return nil
}

// keepsParts says whether p's fleet-wide answers come from parts kept per root: p sees
// the whole organisation, the fleet state is kept, and no test asks for them afresh.
func (f *Figures) keepsParts(p *httpapi.Principal) bool {
	return f.Fleet != nil && !f.Afresh && p.StationAuthority == "all"
}

// keptOf returns the kept parts stored under key in m.
func keptOf[P any](m *sync.Map, key any) *keptParts[P] {
	v, _ := m.LoadOrStore(key, &keptParts[P]{})
	return v.(*keptParts[P])
}
