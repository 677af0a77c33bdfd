package monitor

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Where the figures come from: the in-memory fleet state when one is wired (Fleet), else
// the roll-ups read afresh. Both give the same answers (internal/fleet's property test).

// stationTotals returns each station's flows today, this month, this year and in all.
func (f *Figures) stationTotals(ctx context.Context, ids []int64) (map[int64]telemetry.Totals, error) {
	if f.Fleet != nil {
		return f.Fleet.Totals(ctx, ids)
	}
	return f.Reader.StationTotals(ctx, ids)
}

// openings returns each station's opening counters (the energy before its history).
func (f *Figures) openings(ctx context.Context, ids []int64) (map[int64]telemetry.Flows, error) {
	if f.Fleet != nil {
		return f.Fleet.Openings(ctx, ids)
	}
	return f.Reader.StationOpenings(ctx, ids)
}

// latest returns the last sample of each device that has reported.
func (f *Figures) latest(ctx context.Context, ids []int64) (map[int64]telemetry.Sample, error) {
	if f.Fleet != nil {
		return f.Fleet.Latest(ctx, ids)
	}
	return f.Reader.Latest(ctx, ids)
}

// yesterday returns a station's PV and reference energy of its previous local day.
func (f *Figures) yesterday(ctx context.Context, id int64, loc *time.Location) (pv, ref float64, err error) {
	if f.Fleet != nil {
		prev, err := f.Fleet.Previous(ctx, []int64{id})
		if err != nil {
			return 0, 0, err
		}
		p := prev[id]
		return p.DayPV, p.DayRefKWh, nil
	}
	now := f.now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	days, err := f.Reader.StationEnergy(ctx, []int64{id}, telemetry.Day, today.AddDate(0, 0, -1), today)
	if err != nil {
		return 0, 0, err
	}
	if pts := days[id]; len(pts) > 0 {
		return pts[0].PVKWh, pts[0].RefEnergyKWh, nil
	}
	return 0, 0, nil
}

// yesterdays is yesterday() of many stations: each one's PV and reference energy of its
// previous local day, the stations of one zone read together.
func (f *Figures) yesterdays(ctx context.Context, stations []*station.Station) (map[int64][2]float64, error) {
	out := make(map[int64][2]float64, len(stations))
	ids := make([]int64, len(stations))
	for i, st := range stations {
		ids[i] = st.ID
	}
	if f.Fleet != nil {
		prev, err := f.Fleet.Previous(ctx, ids)
		if err != nil {
			return nil, err
		}
		for id, p := range prev {
			out[id] = [2]float64{p.DayPV, p.DayRefKWh}
		}
		return out, nil
	}
	byZone := map[string][]int64{}
	for _, st := range stations {
		byZone[st.Timezone] = append(byZone[st.Timezone], st.ID)
	}
	for zone, ids := range byZone {
		now := f.now().In(location(zone))
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
		days, err := f.Reader.StationEnergy(ctx, ids, telemetry.Day, today.AddDate(0, 0, -1), today)
		if err != nil {
			return nil, err
		}
		for id, pts := range days {
			if len(pts) > 0 {
				out[id] = [2]float64{pts[0].PVKWh, pts[0].RefEnergyKWh}
			}
		}
	}
	return out, nil
}

// deviceEnergy is Energy from the fleet state.
func (f *Figures) deviceEnergy(ctx context.Context, devs []*device.Device) (map[int64]device.Energy, error) {
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	got, err := f.Fleet.DeviceEnergy(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]device.Energy, len(got))
	for id, e := range got {
		out[id] = device.Energy{TodayKWh: r3(e.TodayKWh), TotalKWh: r3(e.TotalKWh)}
	}
	return out, nil
}

// membersUnder is devicesUnder from the fleet state.
func (f *Figures) membersUnder(ctx context.Context, ids []int64) ([]devRow, error) {
	got, err := f.Fleet.DevicesUnder(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]devRow, len(got))
	for i, m := range got {
		out[i] = devRow{id: m.ID, stationID: m.StationID, topID: m.TopID, typ: m.Type, meterPos: m.MeterPosition}
	}
	return out, nil
}

// stateCounts counts the devices the caller sees (those of the visible stations list) by
// state, in device.States' order.
func (f *Figures) stateCounts(ctx context.Context, r *http.Request, list []*station.Station) ([4]int, error) {
	now := f.now()
	var out [4]int
	if f.Fleet != nil {
		st := make([]int64, len(list))
		for i, s := range list {
			st[i] = s.ID
		}
		err := f.Fleet.Tallies(ctx, st, false, now, f.comms(), func(_ int64, t *fleet.Tally) {
			for si, n := range t.States {
				out[si] += n
			}
		})
		return out, err
	}
	devs, _, err := device.List(ctx, f.DB, httpapi.Caller(r), device.Filter{})
	if err != nil {
		return out, err
	}
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	latest, err := f.latest(ctx, ids)
	if err != nil {
		return out, err
	}
	comms := f.comms().States
	for _, id := range ids {
		if l, ok := latest[id]; ok {
			out[device.StateIndex(device.StateOf(&l, comms[id], now))]++
		} else {
			out[device.StateIndex(device.StateOf(nil, comms[id], now))]++
		}
	}
	return out, nil
}

// flowPoint is one bucket of a station's flows.
type flowPoint struct {
	Start time.Time
	telemetry.Flows
}

// stationFlows returns each station's flows in every bucket of res starting in
// [from, to) of its calendar: from the fleet state when it keeps the range, else from the
// roll-ups.
func (f *Figures) stationFlows(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]flowPoint, error) {
	if f.Fleet != nil {
		got, ok, err := f.Fleet.Flows(ctx, ids, res, from, to)
		if err != nil {
			return nil, err
		}
		if ok {
			out := make(map[int64][]flowPoint, len(got))
			for id, list := range got {
				pts := make([]flowPoint, len(list))
				for i, p := range list {
					pts[i] = flowPoint{Start: p.Start, Flows: p.Flows}
				}
				out[id] = pts
			}
			return out, nil
		}
	}
	got, err := f.Reader.StationEnergy(ctx, ids, res, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]flowPoint, len(got))
	for id, list := range got {
		pts := make([]flowPoint, len(list))
		for i, p := range list {
			pts[i] = flowPoint{Start: p.Start, Flows: p.Flows}
		}
		out[id] = pts
	}
	return out, nil
}

// DeviceStateCounts implements device.Kept from the fleet state: the visible stations'
// kept tallies.
func (f *Figures) DeviceStateCounts(ctx context.Context, p *httpapi.Principal, now time.Time) (counts [4][4]int, ok bool, err error) {
	if f.Fleet == nil {
		return counts, false, nil
	}
	if f.keepsParts(p) {
		if counts, ok, err = f.keptStateCounts(ctx, p, now); err != nil || ok {
			return counts, ok, err
		}
	}
	list, err := f.Fleet.Visible(ctx, p)
	if err != nil {
		return counts, false, err
	}
	stationIDs := make([]int64, len(list))
	for i, st := range list {
		stationIDs[i] = st.ID
	}
	err = f.Fleet.Tallies(ctx, stationIDs, false, now, f.comms(), func(_ int64, t *fleet.Tally) {
		for ti := range counts {
			for si := range counts[ti] {
				counts[ti][si] += t.ByType[ti][si]
			}
		}
	})
	return counts, err == nil, err
}

// stateCounts is a root station's part of the device counts: its and its sub-stations'
// devices by type and state, and how many stations that is.
type stateCounts struct {
	byType   [4][4]int
	stations int
}

// keptStateCounts is DeviceStateCounts for a caller who sees the whole organisation,
// from one part per root kept (parts.go); ok false when the roots and their sub-stations
// are not every station (stations nested deeper).
func (f *Figures) keptStateCounts(ctx context.Context, p *httpapi.Principal, now time.Time) (counts [4][4]int, ok bool, err error) {
	list, rs, err := f.Fleet.VisibleRoots(ctx, p)
	if err != nil {
		return counts, false, err
	}
	k := keptOf[stateCounts](&f.stateParts, p.OrgID)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.refresh(ctx, f, rs, now, f.fillStateCounts); err != nil {
		return counts, false, err
	}
	n := 0
	for i := range k.parts {
		pt := &k.parts[i]
		n += pt.stations
		for ti := range counts {
			for si := range counts[ti] {
				counts[ti][si] += pt.byType[ti][si]
			}
		}
	}
	return counts, n == len(list), nil
}

// fillStateCounts computes the device counts of the roots list[idx] (fillParts).
func (f *Figures) fillStateCounts(ctx context.Context, list []*station.Station, idx []int, parts []stateCounts, until []int64, now time.Time) error {
	ids := make([]int64, len(idx))
	at := make(map[int64]int, len(idx))
	for j, i := range idx {
		ids[j], at[list[i].ID] = list[i].ID, i
		parts[i], until[i] = stateCounts{}, math.MaxInt64
	}
	return f.Fleet.Tallies(ctx, ids, true, now, f.comms(), func(top int64, t *fleet.Tally) {
		i := at[top]
		pt := &parts[i]
		pt.stations++
		for ti := range pt.byType {
			for si := range pt.byType[ti] {
				pt.byType[ti][si] += t.ByType[ti][si]
			}
		}
		until[i] = min(until[i], t.Until)
	})
}

// CommStates implements device.Comms: the device screens judge states by the same
// communication states as the counts.
func (f *Figures) CommStates() map[int64]string { return f.comms().States }

// comms is the field poller's communication states now (none without a poller).
func (f *Figures) comms() fleet.Comms {
	if f.Comms == nil {
		return fleet.Comms{}
	}
	return f.Comms()
}

// visibleRoots returns the stations the caller may see, every level, by name then id,
// and their roots; both may be shared (from the fleet state) and must not be changed.
func (f *Figures) visibleRoots(r *http.Request) (list, rs []*station.Station, err error) {
	if f.Fleet != nil {
		return f.Fleet.VisibleRoots(r.Context(), httpapi.Caller(r))
	}
	if list, err = f.visible(r); err != nil {
		return nil, nil, err
	}
	return list, roots(list), nil
}

// visible returns the stations the caller may see, every level, by name then id.
func (f *Figures) visible(r *http.Request) ([]*station.Station, error) {
	if f.Fleet != nil {
		return f.Fleet.Visible(r.Context(), httpapi.Caller(r))
	}
	list, _, err := station.List(r.Context(), f.DB, httpapi.Caller(r), station.Filter{ParentID: -1})
	return list, err
}

// KeptRoots implements station.Kept from the fleet state.
func (f *Figures) KeptRoots(ctx context.Context, p *httpapi.Principal) ([]*station.Station, func(int64) []*station.Station, bool, error) {
	if f.Fleet == nil {
		return nil, nil, false, nil
	}
	return f.Fleet.RootsOf(ctx, p)
}

// KeptStation implements station.Kept: the station and its visible sub-stations from the
// fleet state.
func (f *Figures) KeptStation(ctx context.Context, p *httpapi.Principal, id int64) (*station.Station, []*station.Station, func(int64) []*station.Station, bool, error) {
	if f.Fleet == nil {
		return nil, nil, nil, false, nil
	}
	st, children, sub, err := f.Fleet.Station(ctx, p, id)
	return st, children, sub, err == nil, err
}

// KeptDevices implements device.Kept from the fleet state.
func (f *Figures) KeptDevices(ctx context.Context, stationIDs []int64) ([]*device.Device, bool, error) {
	if f.Fleet == nil {
		return nil, false, nil
	}
	devs, err := f.Fleet.Devices(ctx, stationIDs)
	return devs, err == nil, err
}

// EachDeviceFigures implements device.KeptFigures from the fleet state: the figures
// Latest and Energy give, energy rounded as Energy rounds it.
func (f *Figures) EachDeviceFigures(ctx context.Context, stationIDs []int64, fn func(d *device.Device, latest *telemetry.Sample, e device.Energy)) (bool, error) {
	if f.Fleet == nil {
		return false, nil
	}
	err := f.Fleet.EachDevice(ctx, stationIDs, func(x *fleet.DeviceFigures) {
		fn(x.Row, x.Latest, device.Energy{TodayKWh: r3(x.TodayKWh), TotalKWh: r3(x.TotalKWh)})
	})
	return err == nil, err
}

// RankingMark implements device.KeptFigures: the fleet state's figures mark and the
// poller's states' generation (ok false: no fleet state).
func (f *Figures) RankingMark(ctx context.Context) (mark [3]uint64, ok bool, err error) {
	if f.Fleet == nil {
		return mark, false, nil
	}
	gen, figs, err := f.Fleet.FiguresMark(ctx)
	return [3]uint64{gen, figs, f.comms().Gen}, err == nil, err
}

// KeptDevice implements device.Kept from the fleet state.
func (f *Figures) KeptDevice(ctx context.Context, p *httpapi.Principal, id int64) (*device.Device, bool, error) {
	if f.Fleet == nil {
		return nil, false, nil
	}
	d, err := f.Fleet.Device(ctx, p, id)
	return d, err == nil, err
}

// KeptStations implements station.Kept from the fleet state.
func (f *Figures) KeptStations(ctx context.Context, p *httpapi.Principal) ([]*station.Station, func(int64) []*station.Station, bool, error) {
	if f.Fleet == nil {
		return nil, nil, false, nil
	}
	list, sub, err := f.Fleet.Stations(ctx, p)
	return list, sub, err == nil, err
}
