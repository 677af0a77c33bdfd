package monitor

import (
	"context"
	"errors"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
)

// The project ranking of a caller who sees the whole organisation ranks its roots by
// their alarms of today — each root's own local day, as the alarms-today tile counts them
// (docs/kpi.md) —, kept as one part per root (parts.go): a root's count is computed again
// when its or a sub-station's alarms change, or at its next local midnight.

// errCountsNotKept says the fleet state does not keep the alarms the ranking counts.
var errCountsNotKept = errors.New("monitor: alarm counts not kept")

// keptProjects is the project ranking from kept counts; ok false when they are not kept.
func (f *Figures) keptProjects(ctx context.Context, p *httpapi.Principal, limit int) ([]ProjectRank, bool, error) {
	if _, sql := f.AlarmStats.(SQLAlarmStats); !sql {
		return nil, false, nil // the counts come from elsewhere
	}
	_, rs, err := f.Fleet.VisibleRoots(ctx, p)
	if err != nil {
		return nil, false, err
	}
	k := keptOf[AlarmCount](&f.rankParts, p.OrgID)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.refresh(ctx, f, rs, f.now(), f.fillCounts); errors.Is(err, errCountsNotKept) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	return topProjects(rs, func(i int) AlarmCount { return k.parts[i] }, limit), true, nil
}

// fillCounts counts the alarms of today of the roots list[idx] (fillParts), each root's
// today from its local midnight.
func (f *Figures) fillCounts(ctx context.Context, list []*station.Station, idx []int, parts []AlarmCount, until []int64, now time.Time) error {
	for _, g := range byLocalDay(list, idx, now) {
		got, ok, err := f.Fleet.AlarmCounts(ctx, g.ids, g.since)
		if err != nil {
			return err
		}
		if !ok {
			return errCountsNotKept
		}
		for _, i := range g.idx {
			c := got[list[i].ID]
			parts[i], until[i] = AlarmCount{Total: c.Total, Processed: c.Dealt}, g.until.UnixNano()
		}
	}
	return nil
}

// dayGroup is the roots (idx into a list, and their ids) whose local today starts at
// since and ends at until.
type dayGroup struct {
	since, until time.Time
	idx          []int
	ids          []int64
}

// byLocalDay groups the roots list[idx] by their local today at now.
func byLocalDay(list []*station.Station, idx []int, now time.Time) []*dayGroup {
	groups := map[int64]*dayGroup{}
	var out []*dayGroup
	for _, i := range idx {
		since := dayStartIn(now, location(list[i].Timezone))
		g := groups[since.UnixMilli()]
		if g == nil {
			l := since.Location()
			g = &dayGroup{since: since, until: time.Date(since.Year(), since.Month(), since.Day()+1, 0, 0, 0, 0, l)}
			groups[since.UnixMilli()] = g
			out = append(out, g)
		}
		g.idx, g.ids = append(g.idx, i), append(g.ids, list[i].ID)
	}
	return out
}

// The production ranking of a caller who sees the whole organisation keeps each root's
// best inverters (its and its sub-stations') as its part: computed again when the
// changes journal names the root, or when one of their days ends. A call merges the
// parts' best, a look at each root's first inverter for most of them.

// topKey names an organisation's kept ranking parts: ten per root serve the console's
// ranking and any shorter, fifty any other (at most two sets per organisation).
type topKey struct {
	org int64
	n   int
}

// keptTopInverters is fleet.TopInverters of every station of the organisation from
// kept parts; ok false when the roots and their sub-stations are not every station.
func (f *Figures) keptTopInverters(ctx context.Context, p *httpapi.Principal, limit int, score fleet.Score) ([]fleet.Inverter, bool, error) {
	list, rs, err := f.Fleet.VisibleRoots(ctx, p)
	if err != nil {
		return nil, false, err
	}
	n := 10
	if limit > n {
		n = 50
	}
	k := keptOf[rootTop](&f.topParts, topKey{p.OrgID, n})
	k.mu.Lock()
	defer k.mu.Unlock()
	fill := func(ctx context.Context, list []*station.Station, idx []int, parts []rootTop, until []int64, now time.Time) error {
		ids := make([]int64, len(idx))
		at := make(map[int64]int, len(idx))
		for j, i := range idx {
			ids[j], at[list[i].ID] = list[i].ID, i
			parts[i] = rootTop{}
		}
		return f.Fleet.TopRanked(ctx, ids, n, rankKey, score, func(top int64, best []fleet.Ranked, stations int, u int64) {
			i := at[top]
			parts[i], until[i] = rootTop{best: append([]fleet.Ranked(nil), best...), stations: stations}, u
		})
	}
	if err := k.refresh(ctx, f, rs, f.now(), fill); err != nil {
		return nil, false, err
	}
	covered := 0
	lists := make([][]fleet.Ranked, len(k.parts))
	for i := range k.parts {
		covered += k.parts[i].stations
		lists[i] = k.parts[i].best
	}
	if covered != len(list) {
		return nil, false, nil
	}
	return f.Fleet.RankedInverters(lists, limit), true, nil
}

// rootTop is a root's part of the production ranking.
type rootTop struct {
	best     []fleet.Ranked
	stations int // it and its sub-stations
}
