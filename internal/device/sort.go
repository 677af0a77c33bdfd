package device

import (
	"context"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Sorts are the columns the device list ranks by. Their figures live in the telemetry,
// not in an index. With a kept fleet a sorted list walks a kept ranking of the visible
// stations' devices (ranking.go: made again when a figure, the poller's states or time
// change it) and builds the page's items only; without one it reads every match, asks
// the telemetry for their figures, sorts them in memory and cuts the page.
var Sorts = httpapi.Enum(ListQuery{}, "sort")

// filtered lists the visible devices matching the filters in the order asked for; size 0
// returns every match. A state filter or a sort judges every match by the one figure it
// needs (the latest samples, or the energy), ranks the devices by it and builds the items
// of the page only.
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
	if sort.Key != "" {
		devs, total, ok, err := s.keptRanked(ctx, p, f, state, sort, page, size)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			items, _, err := s.items(ctx, devs)
			return items, int64(total), err
		}
	}
	devs, err := s.matching(ctx, p, f)
	if err != nil {
		return nil, 0, err
	}
	now, comms := s.now(), s.comms()
	var latest map[int64]telemetry.Sample
	if state != "" || sort.Key == "currentPowerKw" {
		if latest, err = s.Telemetry.Latest(ctx, ids(devs)); err != nil {
			return nil, 0, err
		}
	}
	latestOf := func(id int64) *telemetry.Sample {
		if l, ok := latest[id]; ok {
			return &l
		}
		return nil
	}
	if state != "" {
		kept := make([]*Device, 0, len(devs))
		for _, d := range devs {
			if st, _ := stateAndPower(latestOf(d.ID), comms[d.ID], now); st == state {
				kept = append(kept, d)
			}
		}
		devs = kept
	}
	if sort.Key != "" {
		var energy map[int64]Energy
		if sort.Key != "currentPowerKw" {
			if energy, err = s.Telemetry.Energy(ctx, devs); err != nil {
				return nil, 0, err
			}
		}
		ranked := make([]rankedDevice, len(devs))
		for i, d := range devs {
			var kw float64
			if sort.Key == "currentPowerKw" {
				_, kw = stateAndPower(latestOf(d.ID), comms[d.ID], now)
			}
			v, ok := rankValue(sort.Key, d, kw, energy[d.ID])
			ranked[i] = rankedDevice{d, v, ok}
		}
		listing.SortBy(ranked, sort, func(r *rankedDevice) (float64, bool) { return r.v, r.ok }, func(r *rankedDevice) int64 { return r.d.ID })
		devs = make([]*Device, len(ranked)) // the kept list is shared: never reordered in place
		for i, r := range ranked {
			devs[i] = r.d
		}
	}
	items, _, err := s.items(ctx, listing.Slice(devs, page, size))
	return items, int64(len(devs)), err
}

// rankValue is the figure a device ranks by under key, as the list shows it (ok false:
// it has none): kw is its power as counted (stateAndPower), e its energy as Energy gives it.
func rankValue(key string, d *Device, kw float64, e Energy) (float64, bool) {
	switch key {
	case "currentPowerKw":
		return kw, true
	case "todayKwh":
		return e.TodayKWh, true
	case "totalKwh":
		return e.TotalKWh, true
	}
	// specificYield, equivalentHours: the same quotient (docs/kpi.md)
	return yieldOf(e.TodayKWh, d)
}

// keptRanked is a sorted page's devices and the matches' total from a kept ranking of
// the visible stations' devices (ranking.go): no telemetry query per device, and no sort
// while the figures stay as they were. ok false: the fleet is not kept (rank the SQL list
// instead).
func (s *Service) keptRanked(ctx context.Context, p *httpapi.Principal, f Filter, state string, sort listing.Sort, page, size int) ([]*Device, int, bool, error) {
	kf, isKept := s.Telemetry.(KeptFigures)
	if !isKept {
		return nil, 0, false, nil
	}
	stationIDs, ok, err := s.keptStationIDs(ctx, p, f)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	rows, nok, ok, err := s.rankingOf(ctx, kf, sort.Key, stationIDs)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	devs, total := rankedPage(rows, nok, f, state, sort, page, size)
	return devs, total, true, nil
}

// rankedDevice is a device with the figure it ranks by (ok false: it has none).
type rankedDevice struct {
	d  *Device
	v  float64
	ok bool
}

func ids(devs []*Device) []int64 {
	out := make([]int64, len(devs))
	for i, d := range devs {
		out[i] = d.ID
	}
	return out
}

// matching returns every visible device matching f (unpaged) in List's order: from the
// kept fleet when there is one, else from SQL.
func (s *Service) matching(ctx context.Context, p *httpapi.Principal, f Filter) ([]*Device, error) {
	if k, isKept := s.Telemetry.(Kept); isKept {
		ids, ok, err := s.keptStationIDs(ctx, p, f)
		if err != nil {
			return nil, err
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

// keptStationIDs is the stations whose devices f lists: its own, or every station the
// caller sees from the kept stations (ok false: the stations are not kept).
func (s *Service) keptStationIDs(ctx context.Context, p *httpapi.Principal, f Filter) ([]int64, bool, error) {
	if f.StationIDs != nil {
		return f.StationIDs, true, nil
	}
	sk, ok := s.Telemetry.(station.Kept)
	if !ok {
		return nil, false, nil
	}
	list, _, ok, err := sk.KeptStations(ctx, p)
	if err != nil || !ok {
		return nil, false, err
	}
	ids := make([]int64, len(list))
	for i, st := range list {
		ids[i] = st.ID
	}
	return ids, true, nil
}

// filterKept keeps the kept devices List's type and name conditions keep.
func filterKept(devs []*Device, f Filter) []*Device {
	if f.Type == "" && f.Name == "" {
		return devs
	}
	name := strings.ToLower(f.Name)
	out := make([]*Device, 0, len(devs))
	for _, d := range devs {
		if keeps(d, f.Type, name) {
			out = append(out, d)
		}
	}
	return out
}

// keeps reports whether List's type and name conditions keep d (name in lower case).
func keeps(d *Device, typ, name string) bool {
	if typ != "" && d.Type != typ {
		return false
	}
	return name == "" || strings.Contains(strings.ToLower(d.Name), name) || strings.Contains(strings.ToLower(d.SN), name)
}
