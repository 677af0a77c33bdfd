package monitor

import (
	"context"
	"slices"
	"sync"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// zone is the stations that share a calendar: their buckets start and end together, so
// a fleet-wide figure works each bucket's bounds and the viewer's bucket out once per
// zone rather than once per station.
type zone struct {
	cal *telemetry.Calendar
	sts []*station.Station
	ids []int64
	// the zone's currencies, each station's place among them and its rate (price +
	// subsidy per kWh): the profit of a bucket is worked out per currency
	currencies []string
	slot       []int
	rate       []float64

	mu   sync.Mutex
	sums map[sumKey]*zoneSums // its buckets' sums kept (powerdata.go), at most maxZoneSums
	has  map[int64]bool       // its stations (made on first use)
}

// sumKey names a run of a zone's buckets: resolution, first start, count.
type sumKey struct {
	res   telemetry.Resolution
	first int64
	n     int
}

// zoneSums is what a zone's stations add up to in each bucket of a run, as of mark (the
// fleet state's changes, moved on under the zone's lock while none of its stations
// changes).
type zoneSums struct {
	mark   fleet.Mark
	flows  []telemetry.Flows
	profit []float64 // per bucket and currency (the zone's currencies)
}

const maxZoneSums = 8

// keptSums returns the sums kept for k while none of the zone's stations changed since
// they were computed (nil: compute them).
func (z *zone) keptSums(ctx context.Context, s *fleet.State, k sumKey) (*zoneSums, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	m := z.sums[k]
	if m == nil {
		return nil, nil
	}
	if z.has == nil {
		z.has = make(map[int64]bool, len(z.ids))
		for _, id := range z.ids {
			z.has[id] = true
		}
	}
	changed := false
	now, ok, err := s.ChangedSince(ctx, m.mark, func(id int64) { changed = changed || z.has[id] })
	if err != nil || !ok || changed {
		delete(z.sums, k)
		return nil, err
	}
	m.mark = now // still what its stations add up to
	partsStats.Lock()
	partsStats.zoneKept++
	partsStats.Unlock()
	return m, nil
}

func (z *zone) keepSums(k sumKey, s *zoneSums) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.sums == nil {
		z.sums = map[sumKey]*zoneSums{}
	}
	if _, ok := z.sums[k]; !ok && len(z.sums) >= maxZoneSums {
		for old := range z.sums { // an older day's or another viewer's: any will do
			delete(z.sums, old)
			break
		}
	}
	z.sums[k] = s
}

// byZone groups stations by calendar, zones and stations in the order first seen.
func byZone(sts []*station.Station) []*zone {
	var out []*zone
	idx := map[*telemetry.Calendar]int{}
	for _, st := range sts {
		cal := telemetry.CalendarFor(st.Timezone)
		i, ok := idx[cal]
		if !ok {
			i = len(out)
			idx[cal] = i
			out = append(out, &zone{cal: cal})
		}
		z := out[i]
		z.sts, z.ids = append(z.sts, st), append(z.ids, st.ID)
		c := slices.Index(z.currencies, st.Currency)
		if c < 0 {
			c, z.currencies = len(z.currencies), append(z.currencies, st.Currency)
		}
		z.slot, z.rate = append(z.slot, c), append(z.rate, st.PricePerKWh+st.SubsidyPerKWh)
	}
	return out
}

// zonesMemo is an organisation's roots (the fleet state's shared list) by zone.
type zonesMemo struct {
	rs    []*station.Station
	zones []*zone
}

// zonesOf is byZone of the roots rs, kept per organisation for a caller who sees the
// whole organisation (rs is then the fleet state's list, shared until the membership
// changes). The zones must not be changed.
func (f *Figures) zonesOf(p *httpapi.Principal, rs []*station.Station) []*zone {
	if f.Fleet == nil || p == nil || p.StationAuthority != "all" || len(rs) == 0 {
		return byZone(rs)
	}
	if v, ok := f.zonesKept.Load(p.OrgID); ok {
		if m := v.(*zonesMemo); len(m.rs) == len(rs) && &m.rs[0] == &rs[0] {
			return m.zones
		}
	}
	zs := byZone(rs)
	f.zonesKept.Store(p.OrgID, &zonesMemo{rs: rs, zones: zs})
	return zs
}

// bucketsOf returns the bounds of cal's buckets of res that start in [from, to) (unix ms).
func bucketsOf(cal *telemetry.Calendar, res telemetry.Resolution, from, to int64) (starts, ends []int64) {
	for t := from; t < to; {
		bs, be := cal.Bucket(res, t)
		if bs >= from {
			starts, ends = append(starts, bs), append(ends, be)
		}
		t = be
	}
	return starts, ends
}
