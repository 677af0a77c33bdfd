package monitor

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
)

// The stations' live flags (LiveFlags: what the station summary and the station list's
// live filters judge by) are kept per station from the fleet state: a station's are
// computed again only when one of its or its sub-stations' samples or roll-ups changed
// (fleet.State.Versions), when the membership, the poller's states or the alarms kept
// changed, or when time alone changes them (a device's sample growing old, a quarter
// hour: every zone's day turns on one). A station costs a version check, not a count.

// keptLive is a station's live flags and what they hold for.
type keptLive struct {
	live          station.Live
	ver, gen      uint64
	alarms, comms uint64
	from, until   int64 // unix ns
}

// keptFlags is LiveFlags from the flags kept.
func (f *Figures) keptFlags(ctx context.Context, stations []*station.Station) (map[int64]station.Live, error) {
	out := make(map[int64]station.Live, len(stations))
	if len(stations) == 0 {
		return out, nil
	}
	ids := make([]int64, len(stations))
	for i, st := range stations {
		ids[i] = st.ID
	}
	vers := make([]uint64, len(ids))
	// read before the figures: what is computed below is at least this new
	alarms, cs := f.Fleet.AlarmsVersion(), f.comms()
	gen, err := f.Fleet.Versions(ctx, ids, vers)
	if err != nil {
		return nil, err
	}
	now := f.now()
	ns := now.UnixNano()
	var stale []*station.Station
	var staleVers []uint64
	for i, st := range stations {
		if v, ok := f.flagsKept.Load(st.ID); ok {
			k := v.(*keptLive)
			if k.ver == vers[i] && k.gen == gen && k.alarms == alarms && k.comms == cs.Gen && k.from <= ns && ns < k.until {
				out[st.ID] = k.live
				continue
			}
		}
		stale, staleVers = append(stale, st), append(staleVers, vers[i])
	}
	if len(stale) == 0 {
		return out, nil
	}
	until := make(map[int64]int64, len(stale))
	got, err := f.liveUntil(ctx, stale, liveFlags, until)
	if err != nil {
		return nil, err
	}
	q := now.Truncate(quarter).Add(quarter).UnixNano()
	for i, st := range stale {
		l := got[st.ID]
		out[st.ID] = l
		f.flagsKept.Store(st.ID, &keptLive{live: l, ver: staleVers[i], gen: gen, alarms: alarms, comms: cs.Gen, from: ns, until: min(q, until[st.ID])})
	}
	return out, nil
}

// EachFlags implements station.Kept: for a caller who sees the whole organisation, when
// list is its root stations, the flags are kept as one part per root (parts.go), so a
// call computes only those of the stations changed since the last one.
func (f *Figures) EachFlags(ctx context.Context, p *httpapi.Principal, list []*station.Station, fn func(i int, l *station.Live)) (bool, error) {
	if !f.keepsParts(p) {
		return false, nil
	}
	_, rs, err := f.Fleet.VisibleRoots(ctx, p)
	if err != nil || !sameStations(list, rs) {
		return false, err
	}
	k := keptOf[station.Live](&f.flagParts, p.OrgID)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.refresh(ctx, f, list, f.now(), f.fillFlags); err != nil {
		return false, err
	}
	for i := range k.parts {
		fn(i, &k.parts[i])
	}
	return true, nil
}

// fillFlags computes the live flags of list[idx] (fillParts).
func (f *Figures) fillFlags(ctx context.Context, list []*station.Station, idx []int, parts []station.Live, until []int64, now time.Time) error {
	sub := make([]*station.Station, len(idx))
	for j, i := range idx {
		sub[j] = list[i]
	}
	times := make(map[int64]int64, len(sub))
	got, err := f.liveUntil(ctx, sub, liveFlags, times)
	if err != nil {
		return err
	}
	q := now.Truncate(quarter).Add(quarter).UnixNano()
	for _, i := range idx {
		id := list[i].ID
		parts[i], until[i] = got[id], min(q, times[id])
	}
	return nil
}
