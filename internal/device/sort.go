package device

import (
	"context"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Sorts are the columns the device list ranks by. Their figures live in the telemetry
// (the fleet state when it is kept), not in an index: a sorted list reads every match,
// judges and sorts it in memory and cuts the page.
var Sorts = []string{"todayKwh", "equivalentHours", "specificYield", "currentPowerKw", "totalKwh"}

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
	if state != "" {
		kept := make([]*Device, 0, len(devs))
		for _, d := range devs {
			l, ok := latest[d.ID]
			if st, _ := stateAndPower(l, ok, comms[d.ID], now); st == state {
				kept = append(kept, d)
			}
		}
		devs = kept
	}
	if sort.Key != "" {
		ranked := make([]rankedDevice, len(devs))
		if sort.Key == "currentPowerKw" {
			for i, d := range devs {
				l, ok := latest[d.ID]
				_, kw := stateAndPower(l, ok, comms[d.ID], now)
				ranked[i] = rankedDevice{d, kw, true}
			}
		} else {
			energy, err := s.Telemetry.Energy(ctx, devs)
			if err != nil {
				return nil, 0, err
			}
			for i, d := range devs {
				ranked[i] = rankedDevice{d: d, ok: true}
				switch e := energy[d.ID]; sort.Key {
				case "todayKwh":
					ranked[i].v = e.TodayKWh
				case "totalKwh":
					ranked[i].v = e.TotalKWh
				default: // specificYield, equivalentHours: the same quotient (docs/kpi.md)
					if y := specificYield(e.TodayKWh, d); y != nil {
						ranked[i].v = *y
					} else {
						ranked[i].ok = false
					}
				}
			}
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
