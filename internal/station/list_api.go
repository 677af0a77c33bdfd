package station

import (
	"context"
	"net/http"
	"strconv"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/store"
)

// The list calls: /v2/site/list, its filters, the simple list for pickers and the summary.

// items adds the stations' live figures and sub-station counts; sub, when the stations
// are kept in memory, names a station's sub-stations (nil: count them in SQL).
func (s *Service) items(ctx context.Context, list []*Station, sub func(int64) []*Station) ([]ListItem, error) {
	live, err := s.Telemetry.Live(ctx, list)
	if err != nil {
		return nil, err
	}
	var counts map[int64]int
	if sub != nil {
		counts = make(map[int64]int, len(list))
		for _, st := range list {
			counts[st.ID] = len(sub(st.ID))
		}
	} else if counts, err = childCounts(ctx, s.DB, list); err != nil {
		return nil, err
	}
	out := make([]ListItem, len(list))
	for i, st := range list {
		out[i] = ListItem{Station: *st, Live: live[st.ID], ChildrenCount: counts[st.ID]}
	}
	return out, nil
}

func childCounts(ctx context.Context, db *store.DB, list []*Station) (map[int64]int, error) {
	out := map[int64]int{}
	if len(list) == 0 {
		return out, nil
	}
	args := make([]any, len(list))
	for i, st := range list {
		args[i] = st.ID
	}
	rows, err := db.Query(ctx, "SELECT parent_id, COUNT(*) FROM stations WHERE parent_id IN ("+placeholders(len(args))+") GROUP BY parent_id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

func (s *Service) list(r *http.Request) (any, error) {
	q := httpapi.Query[ListQuery](r)
	items, total, err := s.filtered(r.Context(), httpapi.Caller(r), q.filter(), int64(q.CommunicationStatus), int64(q.AlarmStatus), q.Page, q.PageSize)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[ListItem]{List: items, Total: total, Page: q.Page, PageSize: q.PageSize}, nil
}

// filter is the query's filter of the stations themselves (the live ones, communication
// and alarm status, are judged apart: 0 and -1 mean "any").
func (q ListQuery) filter() Filter {
	return Filter{Name: q.Name, StationType: q.StationType, SystemType: q.SystemType, ParentID: q.ParentID,
		TagIDs: uniqueIDs(q.TagIDs), Sort: q.sort}
}

// filtered lists the visible stations matching the filters with their live figures;
// size 0 returns every match.
func (s *Service) filtered(ctx context.Context, p *httpapi.Principal, f Filter, comm, alarm int64, page, size int) ([]ListItem, int64, error) {
	if comm == 0 && alarm == -1 && f.Sort.Key == "" {
		f.Page, f.PerPage = page, size
		list, total, sub, err := s.listed(ctx, p, f)
		if err != nil {
			return nil, 0, err
		}
		items, err := s.items(ctx, list, sub)
		return items, total, err
	}
	// Live filters and sorts: judge every matching station by its live flags, rank them,
	// then build the page.
	list, _, sub, err := s.listed(ctx, p, f)
	if err != nil {
		return nil, 0, err
	}
	value := sortValue(f.Sort.Key)
	matched := []ranked{}
	err = s.eachFlags(ctx, p, list, func(i int, l *Live) {
		if (comm == 0 || l.CommunicationStatus == int(comm)) && (alarm == -1 || l.AlarmExist == int(alarm)) {
			matched = append(matched, ranked{list[i], value(l)})
		}
	})
	if err != nil {
		return nil, 0, err
	}
	if f.Sort.Key != "" {
		listing.SortBy(matched, f.Sort, func(r *ranked) (float64, bool) { return r.v, true }, func(r *ranked) int64 { return r.st.ID })
	}
	total := int64(len(matched))
	matched = listing.Slice(matched, page, size)
	kept := make([]*Station, len(matched))
	for i, r := range matched {
		kept[i] = r.st
	}
	items, err := s.items(ctx, kept, sub)
	if err != nil {
		return nil, 0, err
	}
	return items, total, nil
}

// listed is List, from memory when the stations are kept (sub then names sub-stations).
func (s *Service) listed(ctx context.Context, p *httpapi.Principal, f Filter) ([]*Station, int64, func(int64) []*Station, error) {
	list, total, sub, ok, err := s.keptList(ctx, p, f)
	if err != nil || ok {
		return list, total, sub, err
	}
	list, total, err = List(ctx, s.DB, p, f)
	return list, total, nil, err
}

func (s *Service) simpleList(r *http.Request) (any, error) {
	list, _, err := List(r.Context(), s.DB, httpapi.Caller(r), Filter{ParentID: -1})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := make([]SimpleItem, len(list))
	for i, st := range list {
		out[i] = SimpleItem{ID: st.ID, ParentID: st.ParentID, Name: st.Name, Timezone: st.Timezone}
	}
	return out, nil
}

func (s *Service) summary(r *http.Request) (any, error) {
	ctx := r.Context()
	list, _, _, err := s.listed(ctx, httpapi.Caller(r), Filter{ParentID: 0})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	sum := Summary{ByCommunication: map[string]int{"1": 0, "2": 0, "3": 0, "4": 0}, ByType: map[string]int{}}
	var byComm [5]int // by CommunicationStatus without a map lookup
	err = s.eachFlags(ctx, httpapi.Caller(r), list, func(i int, l *Live) {
		st := list[i]
		sum.Total++
		sum.CapacityKWp += st.CapacityKWp
		if c := l.CommunicationStatus; c >= 0 && c < len(byComm) {
			byComm[c]++
		} else {
			sum.ByCommunication[strconv.Itoa(c)]++
		}
		sum.WithAlarms += l.AlarmExist
		sum.CurrentPowerKW += l.CurrentPowerKW
		sum.DailyEnergyKWh += l.DailyEnergyKWh
		sum.ByType[st.StationType]++
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for c, n := range byComm {
		if n > 0 || c >= 1 {
			sum.ByCommunication[strconv.Itoa(c)] += n
		}
	}
	sum.CapacityKWp = round(sum.CapacityKWp, 3)
	sum.CurrentPowerKW = round(sum.CurrentPowerKW, 3)
	sum.DailyEnergyKWh = round(sum.DailyEnergyKWh, 3)
	return sum, nil
}
