package monitor

import (
	"context"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The fleet summary of a caller who sees the whole organisation is kept per root
// station: each root's part (its PV by period, compared stretches, power and device
// counts) is computed again only when one of its or its sub-stations' samples or
// roll-ups changed (the changes journal, fleet.State.ChangedSince), when the membership
// or the poller's states changed, or when time alone changes it (a device's sample
// growing old, a quarter hour: every zone's day, month and year and every compared
// stretch's hour turn on one), as kept parts do (parts.go). A summary then costs the
// parts of the roots that changed and a few additions per root, and adds the parts in
// the roots' order: the same sums as computed afresh.

// allPart is a root's part of the fleet summary.
type allPart struct {
	pv      [4]float64      // PV today, this month, this year, in total
	factor  float64         // emission factor
	stretch [3]*stretchMemo // compared stretches of day, month, year (nil: not compared)
	cal     *telemetry.Calendar
	powerKW float64
	states  [4]int // its and its sub-stations' devices by state
}

// allKept is an organisation's kept parts.
type allKept struct {
	parts keptParts[allPart]
	roots []*station.Station // the roots whose cover was checked
	ok    bool               // the roots and their sub-stations are every station listed
	// of the roots (slots): their currencies and zones, each root's slot in them, their
	// capacity, and how many stations of the list are roots
	currencies []string
	cals       []*telemetry.Calendar
	cur, zone  []int
	capacity   float64
	nroots     int
}

// quarter is the step every zone's calendar turns on (offsets are whole quarter hours).
const quarter = 15 * time.Minute

// keptAll is the fleet summary of org's whole list (roots rs) from kept parts; ok is false
// when it cannot be kept (stations nested deeper than sub-stations).
func (f *Figures) keptAll(ctx context.Context, org int64, list, rs []*station.Station) (All, bool, error) {
	v, _ := f.allKept.LoadOrStore(org, &allKept{})
	k := v.(*allKept)
	k.parts.mu.Lock()
	defer k.parts.mu.Unlock()
	now := f.now()
	if !sameStations(rs, k.roots) || k.roots == nil {
		ids := make([]int64, len(rs))
		for i, st := range rs {
			ids[i] = st.ID
		}
		kids, err := f.Fleet.Children(ctx, ids)
		if err != nil {
			return All{}, false, err
		}
		n := len(rs)
		for _, c := range kids {
			n += c
		}
		k.roots, k.ok = rs, n == len(list)
		k.slots(list, rs)
	}
	if !k.ok {
		return All{}, false, nil
	}
	if err := k.parts.refresh(ctx, f, rs, now, f.fillAllParts); err != nil {
		return All{}, false, err
	}
	var a allSum
	var states [4]int
	money := make([]Money, len(k.currencies))
	for c, cur := range k.currencies {
		money[c].Currency = cur
	}
	shares := make([]*[3]float64, len(k.cals)) // per zone, worked out once
	for i, st := range rs {
		p := &k.parts.parts[i]
		var prev [3]float64
		var ok [3]bool
		for r, m := range p.stretch {
			if m == nil {
				continue
			}
			sh := shares[k.zone[i]]
			if sh == nil {
				sh = &[3]float64{}
				for j, res := range []telemetry.Resolution{telemetry.Day, telemetry.Month, telemetry.Year} {
					sh[j] = stretchShare(p.cal, res, now)
				}
				shares[k.zone[i]] = sh
			}
			prev[r], ok[r] = m.at(sh[r]), true
		}
		a.addEnergy(p.pv, p.factor, prev, ok)
		a.addMoney(&money[k.cur[i]], st, p.pv, p.powerKW)
		for si, n := range p.states {
			states[si] += n
		}
	}
	a.money = make(map[string]*Money, len(money))
	for c := range money {
		a.money[money[c].Currency] = &money[c]
	}
	return a.finishOf(f, k.capacity, k.nroots, states), true, nil
}

// slots works out, for the roots rs of list, each root's currency and zone slot, the
// capacity and the number of roots: what a summary reads of the membership, once per
// membership.
func (k *allKept) slots(list, rs []*station.Station) {
	k.currencies, k.cals = nil, nil
	k.cur, k.zone = make([]int, len(rs)), make([]int, len(rs))
	curAt, calAt := map[string]int{}, map[*telemetry.Calendar]int{}
	for i, st := range rs {
		c, ok := curAt[st.Currency]
		if !ok {
			c, curAt[st.Currency], k.currencies = len(k.currencies), len(k.currencies), append(k.currencies, st.Currency)
		}
		cal := telemetry.CalendarFor(st.Timezone)
		z, ok := calAt[cal]
		if !ok {
			z, calAt[cal], k.cals = len(k.cals), len(k.cals), append(k.cals, cal)
		}
		k.cur[i], k.zone[i] = c, z
	}
	k.capacity, k.nroots = fleetSize(list, rs)
}

// fillAllParts computes the parts of the roots list[idx] at now (fillParts).
func (f *Figures) fillAllParts(ctx context.Context, list []*station.Station, idx []int, parts []allPart, untils []int64, now time.Time) error {
	sub := make([]*station.Station, len(idx))
	ids := make([]int64, len(idx))
	at := make(map[int64]*allPart, len(idx))
	until := make(map[int64]*int64, len(idx))
	q := now.Truncate(quarter).Add(quarter).UnixNano()
	for j, i := range idx {
		st := list[i]
		sub[j], ids[j] = st, st.ID
		p := &parts[i]
		*p = allPart{factor: f.factorOf(st), cal: telemetry.CalendarFor(st.Timezone)}
		at[st.ID], until[st.ID] = p, &untils[i]
		untils[i] = q
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
	return f.Fleet.Tallies(ctx, ids, true, now, f.comms(), func(top int64, t *fleet.Tally) {
		p := at[top]
		for si, n := range t.States {
			p.states[si] += n
		}
		if u := until[top]; t.Until != math.MaxInt64 {
			*u = min(*u, t.Until)
		}
	})
}
