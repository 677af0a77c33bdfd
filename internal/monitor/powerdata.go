package monitor

import (
	"context"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

func (s *Summary) powerData(period string) func(r *http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		loc := httpapi.Query[PowerQuery](r).loc
		ctx := r.Context()
		f := s.Figures
		_, rs, err := f.visibleRoots(r)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		ids := make([]int64, len(rs)) // the total's years and openings read them
		for i, st := range rs {
			ids[i] = st.ID
		}
		first := 0
		if period == "total" {
			if first, err = f.firstYear(ctx, ids, f.now().In(loc).Year()); err != nil {
				return nil, httpapi.Internal(err)
			}
		}
		pp := periodOf(period, f.now(), loc, rs, first)
		from, to, next := pp.from, pp.to, pp.next
		sums, err := f.powerSums(ctx, httpapi.Caller(r), rs, pp)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		out := PowerData{Period: period, Timezone: loc.String(), Unit: "kWh", Points: []PowerPoint{}}
		for t := from; t.Before(to); t = next(t) {
			got := sums[t.UnixMilli()] // the request's own: rounded in place
			if got == nil {
				out.Points = append(out.Points, PowerPoint{Time: t.UnixMilli(), Profit: map[string]float64{}})
				continue
			}
			got.Flows = roundFlows(got.Flows)
			for c, v := range got.Profit {
				got.Profit[c] = r3(v)
			}
			out.Points = append(out.Points, *got)
		}
		if period == "total" {
			open, err := f.openings(ctx, ids)
			if err != nil {
				return nil, httpapi.Internal(err)
			}
			byID := make(map[int64]*station.Station, len(rs))
			for _, st := range rs {
				byID[st.ID] = st
			}
			if len(open) > 0 {
				pp := PowerPoint{Time: from.UnixMilli(), Profit: map[string]float64{}}
				for id, fl := range open {
					st := byID[id]
					addFlows(&pp.Flows, fl)
					pp.Profit[st.Currency] += Profit(fl.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)
				}
				pp.Flows = roundFlows(pp.Flows)
				for c, v := range pp.Profit {
					pp.Profit[c] = r3(v)
				}
				out.Opening = &pp
			}
		}
		if err := f.basePower(ctx, httpapi.Caller(r).OrgID, rs, period, loc, &out); err != nil {
			return nil, httpapi.Internal(err)
		}
		return out, nil
	}
}

// powerSums adds the stations' flows and profit (per currency) into the viewer's buckets
// of the period: its key maps a station bucket's start, in the station's zone, to the
// viewer's bucket of its position.
func (f *Figures) powerSums(ctx context.Context, p *httpapi.Principal, rs []*station.Station, pp fleetPeriod) (map[int64]*PowerPoint, error) {
	res, from, to, key, qFrom, qTo := pp.res, pp.from, pp.to, pp.key, pp.qFrom, pp.qTo
	if f.Fleet != nil {
		sums, ok, err := f.zonePowerSums(ctx, f.zonesOf(p, rs), pp, qFrom, qTo)
		if err != nil || ok {
			return sums, err
		}
	}
	ids := make([]int64, len(rs))
	byID := make(map[int64]*station.Station, len(rs))
	for i, st := range rs {
		ids[i] = st.ID
		byID[st.ID] = st
	}
	pts, err := f.stationFlows(ctx, ids, res, qFrom, qTo)
	if err != nil {
		return nil, err
	}
	sums := map[int64]*PowerPoint{}
	for id, list := range pts {
		st := byID[id]
		stLoc := location(st.Timezone)
		for _, p := range list {
			pp := pointAt(sums, key(p.Start, stLoc), from, to)
			if pp == nil {
				continue
			}
			addFlows(&pp.Flows, p.Flows)
			pp.Profit[st.Currency] += Profit(p.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)
		}
	}
	return sums, nil
}

// zonePowerSums is powerSums from the fleet state, a zone at a time: each bucket of the
// zone's calendar is mapped to the viewer's once, and each station costs a lookup per
// bucket that holds a roll-up. ok is false when the state does not keep the range.
func (f *Figures) zonePowerSums(ctx context.Context, zones []*zone, pp fleetPeriod, qFrom, qTo time.Time) (map[int64]*PowerPoint, bool, error) {
	sums := map[int64]*PowerPoint{}
	res := pp.res
	for _, z := range zones {
		// the zone's buckets of its current period, and the viewer's bucket of each
		plan := planOf(z.cal, pp, qFrom, qTo)
		if len(plan.starts) == 0 {
			continue
		}
		into := make([]*PowerPoint, len(plan.keys))
		for i, k := range plan.keys {
			into[i] = pointOf(sums, k)
		}
		zs, ok, err := f.zoneSums(ctx, z, res, plan.starts)
		if err != nil || !ok {
			return nil, false, err
		}
		// every bucket names the zone's currencies, measured or not (as the roll-ups do)
		for b, pp := range into {
			addFlows(&pp.Flows, zs.flows[b])
			for c, cur := range z.currencies {
				pp.Profit[cur] += zs.profit[b*len(z.currencies)+c]
			}
		}
	}
	return sums, true, nil
}

// zoneSums returns what the zone's stations add up to in each of the buckets starting at
// starts: kept until the membership or one of the stations' samples or roll-ups changes
// (fleet.State.ChangedSince), since past buckets do not change with time alone and the
// buckets asked for move with the viewer's period. ok is false when the state does not
// keep the range.
func (f *Figures) zoneSums(ctx context.Context, z *zone, res telemetry.Resolution, starts []int64) (*zoneSums, bool, error) {
	k := sumKey{res: res, first: starts[0], n: len(starts)}
	if !f.Afresh {
		if m, err := z.keptSums(ctx, f.Fleet, k); err != nil || m != nil {
			return m, m != nil, err
		}
	}
	mark, _, err := f.Fleet.ChangedSince(ctx, fleet.Mark{}, func(int64) {}) // before the figures are read
	if err != nil {
		return nil, false, err
	}
	// profit per bucket and currency: PV × (price + subsidy) of each station
	nc := len(z.currencies)
	m := &zoneSums{mark: mark, flows: make([]telemetry.Flows, len(starts)), profit: make([]float64, len(starts)*nc)}
	ok, err := f.Fleet.EachBucket(ctx, z.ids, res, starts, func(i, b int, fl *telemetry.Flows) {
		addFlows(&m.flows[b], *fl)
		m.profit[b*nc+z.slot[i]] += Profit(fl.PVKWh, z.rate[i], 0)
	})
	if err != nil || !ok {
		return nil, false, err
	}
	z.keepSums(k, m)
	return m, true, nil
}

// pointAt returns the viewer's point of bucket k, added to sums when new; nil when k is
// outside [from, to).
func pointAt(sums map[int64]*PowerPoint, k, from, to time.Time) *PowerPoint {
	if k.Before(from) || !k.Before(to) {
		return nil
	}
	return pointOf(sums, k.UnixMilli())
}

// pointOf returns the viewer's point of the bucket starting at k (unix ms), added to sums
// when new.
func pointOf(sums map[int64]*PowerPoint, k int64) *PowerPoint {
	pp := sums[k]
	if pp == nil {
		pp = &PowerPoint{Time: k, Profit: map[string]float64{}}
		sums[k] = pp
	}
	return pp
}
