package device

import (
	"context"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
)

// Sorts are the columns the device list ranks by. Their figures live in the telemetry
// (the fleet state when it is kept), not in an index: a sorted list reads every match,
// judges and sorts it in memory and cuts the page.
var Sorts = []string{"todayKwh", "equivalentHours", "specificYield", "currentPowerKw", "totalKwh"}

// sortValue is the figure an item ranks by under key, as the list shows it.
func sortValue(key string) func(*Item) (float64, bool) {
	switch key {
	case "equivalentHours", "specificYield":
		// the same quotient (docs/kpi.md): today's kWh ÷ the array's kWp
		return func(it *Item) (float64, bool) {
			if it.SpecificYield == nil {
				return 0, false
			}
			return *it.SpecificYield, true
		}
	case "currentPowerKw":
		return func(it *Item) (float64, bool) { return it.CurrentPowerKW, true }
	case "totalKwh":
		return func(it *Item) (float64, bool) { return it.TotalKWh, true }
	}
	return func(it *Item) (float64, bool) { return it.TodayKWh, true }
}

// filtered lists the visible devices matching the filters in the order asked for; size 0
// returns every match.
func (s *Service) filtered(ctx context.Context, p *httpapi.Principal, f Filter, state string, sort listing.Sort, page, size int) ([]Item, int64, error) {
	if state == "" && sort.Key == "" {
		// the usual order pages in SQL
		f.Page, f.PerPage = page, size
		devs, total, err := List(ctx, s.DB, p, f)
		if err != nil {
			return nil, 0, err
		}
		items, _, err := s.items(ctx, devs)
		return items, total, err
	}
	devs, err := s.matching(ctx, p, f)
	if err != nil {
		return nil, 0, err
	}
	items, _, err := s.items(ctx, devs)
	if err != nil {
		return nil, 0, err
	}
	if state != "" {
		kept := items[:0]
		for _, it := range items {
			if it.State == state {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if sort.Key != "" {
		listing.SortBy(items, sort, sortValue(sort.Key), func(it *Item) int64 { return it.ID })
	}
	return listing.Slice(items, page, size), int64(len(items)), nil
}

// matching returns every visible device matching f (unpaged) in List's order: from the
// kept fleet when there is one, else from SQL.
func (s *Service) matching(ctx context.Context, p *httpapi.Principal, f Filter) ([]*Device, error) {
	k, isKept := s.Telemetry.(Kept)
	sk, stKept := s.Telemetry.(station.Kept)
	if isKept && stKept {
		ids := f.StationIDs
		ok := true
		if ids == nil {
			var list []*station.Station
			var err error
			if list, _, ok, err = sk.KeptStations(ctx, p); err != nil {
				return nil, err
			}
			ids = make([]int64, len(list))
			for i, st := range list {
				ids[i] = st.ID
			}
		}
		if ok {
			devs, kept, err := k.KeptDevices(ctx, ids)
			if err != nil {
				return nil, err
			}
			if kept {
				return filterKept(devs, f), nil
			}
		}
	}
	f.Page, f.PerPage = 0, 0
	devs, _, err := List(ctx, s.DB, p, f)
	return devs, err
}

// filterKept keeps the kept devices List's type and name conditions keep.
func filterKept(devs []*Device, f Filter) []*Device {
	if f.Type == "" && f.Name == "" {
		return devs
	}
	name := strings.ToLower(f.Name)
	out := make([]*Device, 0, len(devs))
	for _, d := range devs {
		if f.Type != "" && d.Type != f.Type {
			continue
		}
		if name != "" && !strings.Contains(strings.ToLower(d.Name), name) && !strings.Contains(strings.ToLower(d.SN), name) {
			continue
		}
		out = append(out, d)
	}
	return out
}
