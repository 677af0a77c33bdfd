package monitor

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The fleet summary of a caller who sees the whole organisation is kept per root
// station: each root's part (its PV by period, compared stretches, power and device
// counts) is computed again only when one of its or its sub-stations' samples or
// roll-ups changed (fleet.State.Versions), when the membership or the poller's states
// changed, or when time alone changes it (a device's sample growing old, a quarter hour:
// every zone's day, month and year and every compared stretch's hour turn on one). A
// summary then costs a version check and a few additions per root, whatever the
// fleet's size, and adds the parts in the roots' order: the same sums as computed afresh.

// allPart is a root's part of the fleet summary.
type allPart struct {
	pv      [4]float64      // PV today, this month, this year, in total
	factor  float64         // emission factor
	stretch [3]*stretchMemo // compared stretches of day, month, year (nil: not compared)
	cal     *telemetry.Calendar
	powerKW float64
	states  [4]int // its and its sub-stations' devices by state
	ver     uint64
	from    int64 // unix ns: the part holds from, until, with time alone
	until   int64
}

// allKept is an organisation's kept parts.
type allKept struct {
	mu    sync.Mutex
	roots []*station.Station // the fleet state's shared list the parts are of
	ids   []int64
	vers  []uint64
	parts []allPart
	gen   uint64 // membership generation
	comms uint64 // poller states' generation
	ok    bool   // the roots and their sub-stations are every station listed
}

// quarter is the step every zone's calendar turns on (offsets are whole quarter hours).
const quarter = 15 * time.Minute

// keptAll is the fleet summary of org's whole list (roots rs) from kept parts; ok is false
// when it cannot be kept (stations nested deeper than sub-stations).
func (f *Figures) keptAll(ctx context.Context, org int64, list, rs []*station.Station) (All, bool, error) {
	v, _ := f.allKept.LoadOrStore(org, &allKept{})
	k := v.(*allKept)
	k.mu.Lock()
	defer k.mu.Unlock()
	now, cs := f.now(), f.comms()
	fresh := len(rs) != len(k.roots) || len(rs) > 0 && &rs[0] != &k.roots[0]
	if fresh {
		k.roots, k.ids, k.vers, k.parts = rs, make([]int64, len(rs)), make([]uint64, len(rs)), make([]allPart, len(rs))
		for i, st := range rs {
			k.ids[i] = st.ID
		}
		kids, err := f.Fleet.Children(ctx, k.ids)
		if err != nil {
			return All{}, false, err
		}
		n := len(rs)
		for _, c := range kids {
			n += c
		}
		k.ok = n == len(list)
	}
	if !k.ok {
		return All{}, false, nil
	}
	gen, err := f.Fleet.Versions(ctx, k.ids, k.vers)
	if err != nil {
		return All{}, false, err
	}
	if gen != k.gen || cs.Gen != k.comms {
		fresh = true
		k.gen, k.comms = gen, cs.Gen
	}
	ns := now.UnixNano()
	var stale []int
	for i := range k.parts {
		p := &k.parts[i]
		if fresh || p.ver != k.vers[i] || ns < p.from || ns >= p.until {
			stale = append(stale, i)
		}
	}
	if len(stale) > 0 {
		if err := f.fillAllParts(ctx, k, stale, now, cs); err != nil {
			return All{}, false, err
		}
	}
	var a allSum
	var states [4]int
	shares := map[*telemetry.Calendar]*[3]float64{}
	for i, st := range rs {
		p := &k.parts[i]
		var prev [3]float64
		var ok [3]bool
		for r, m := range p.stretch {
			if m == nil {
				continue
			}
			sh := shares[p.cal]
			if sh == nil {
				sh = &[3]float64{}
				for j, res := range []telemetry.Resolution{telemetry.Day, telemetry.Month, telemetry.Year} {
					sh[j] = stretchShare(p.cal, res, now)
				}
				shares[p.cal] = sh
			}
			prev[r], ok[r] = m.at(sh[r]), true
		}
		a.add(st, p.pv, p.factor, prev, ok, p.powerKW)
		for si, n := range p.states {
			states[si] += n
		}
	}
	return a.finish(f, list, rs, states), true, nil
}

// fillAllParts computes the parts of the roots k.roots[stale] at now.
func (f *Figures) fillAllParts(ctx context.Context, k *allKept, stale []int, now time.Time, cs fleet.Comms) error {
	sub := make([]*station.Station, len(stale))
	ids := make([]int64, len(stale))
	at := make(map[int64]*allPart, len(stale))
	ns := now.UnixNano()
	until := now.Truncate(quarter).Add(quarter).UnixNano()
	for j, i := range stale {
		st := k.roots[i]
		sub[j], ids[j] = st, st.ID
		p := &k.parts[i]
		*p = allPart{factor: f.factorOf(st), cal: telemetry.CalendarFor(st.Timezone), ver: k.vers[i], from: ns, until: until}
		at[st.ID] = p
	}
	totals, err := f.stationTotals(ctx, ids)
	if err != nil {
		return err
	}
	for id, t := range totals {
		if p := at[id]; p != nil {
			p.pv = [4]float64{t.Today.PVKWh, t.Month.PVKWh, t.Year.PVKWh, t.Total.PVKWh}
		}
	}
	first, err := f.firstDays(ctx, sub)
	if err != nil {
		return err
	}
	zones := byZone(sub)
	for r, res := range []telemetry.Resolution{telemetry.Day, telemetry.Month, telemetry.Year} {
		err := f.zoneStretches(ctx, zones, res, now, first, func(_ *zone, ids []int64, memos []*stretchMemo) {
			for i, id := range ids {
				at[id].stretch[r] = memos[i]
			}
		})
		if err != nil {
			return err
		}
	}
	live, err := f.live(ctx, sub, livePower)
	if err != nil {
		return err
	}
	for id, l := range live {
		if p := at[id]; p != nil {
			p.powerKW = l.CurrentPowerKW
		}
	}
	return f.Fleet.Tallies(ctx, ids, true, now, cs, func(top int64, t *fleet.Tally) {
		p := at[top]
		for si, n := range t.States {
			p.states[si] += n
		}
		if t.Until != math.MaxInt64 {
			p.until = min(p.until, t.Until)
		}
	})
}
