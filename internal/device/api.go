package device

import (
	"context"
	"errors"
	"math"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Energy is a device's energy today (station-local day) and in all.
type Energy struct {
	TodayKWh float64 `json:"todayKwh"`
	TotalKWh float64 `json:"totalKwh"`
}

// Telemetry gives the device calls their measured figures.
type Telemetry interface {
	Latest(ctx context.Context, ids []int64) (map[int64]telemetry.Sample, error)
	Energy(ctx context.Context, devs []*Device) (map[int64]Energy, error)
	// History returns a metric's series and the resolution chosen for the range.
	History(ctx context.Context, d *Device, metric string, from, to time.Time) (station.Series, string, error)
}

// Metrics are the history metrics and their units.
var Metrics = map[string]string{
	"power": "kW", "energy": "kWh", "energy2": "kWh", "dcVoltage": "V", "dcCurrent": "A", "acVoltage": "V",
	"frequency": "Hz", "temperature": "°C", "soc": "%", "irradiance": "W/m²",
}

// MaxHistoryRange is the longest history one call may ask for.
const MaxHistoryRange = 3 * 366 * 24 * time.Hour

// Service serves the /v2/dev calls.
type Service struct {
	DB        *store.DB
	Telemetry Telemetry
	Now       func() time.Time

	rank rankings // the sorted lists' kept rankings (ranking.go)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Item is a device in a list, with its state and latest figures.
type Item struct {
	Device
	State          string     `json:"state" doc:"running, standby, fault or offline"`
	CurrentPowerKW float64    `json:"currentPowerKw"`
	TodayKWh       float64    `json:"todayKwh"`
	TotalKWh       float64    `json:"totalKwh"`
	SpecificYield  *float64   `json:"specificYield" doc:"today's kWh ÷ the array's kWp (kWh/kWp, read as hours: the equivalent hours); null without an array"`
	SOC            float64    `json:"soc"`
	LastSeen       *time.Time `json:"lastSeen"`
}

// Detail is a device with its latest sample.
type Detail struct {
	Item
	Latest *telemetry.Sample `json:"latest"`
}

// Attribute is one nameplate or live value of a device.
type Attribute struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	Unit  string `json:"unit"`
	Group string `json:"group" doc:"nameplate or live"`
}

// ListQuery is the list's filters (list and export).
type ListQuery struct {
	StationID int64  `query:"stationId" validate:"id" doc:"only this station (and its sub-stations)"`
	Type      string `query:"type" enum:"inverter,battery,storage,meter" doc:"inverter, battery, storage or meter"`
	State     string `query:"state" enum:"running,standby,fault,offline" doc:"running, standby, fault or offline"`
	Name      string `query:"name" maxLen:"100" doc:"part of the name or serial number"`
	Sort      string `query:"sort" enum:"todayKwh,equivalentHours,specificYield,currentPowerKw,totalKwh" doc:"rank by todayKwh, equivalentHours, specificYield (the same quotient, kWh ÷ kWp), currentPowerKw or totalKwh; ties by id"`
	Order     string `query:"order" enum:"asc,desc" doc:"asc or desc (default) with sort"`
	httpapi.Paging
	Format string `query:"format" enum:"csv,xlsx" default:"csv" doc:"export only: csv (default) or xlsx"`
	sort   listing.Sort
}

// Check reads the order.
func (q *ListQuery) Check(v *httpapi.Validator) { q.sort = listing.SortOf(v, q.Sort, q.Order) }

// Routes registers the /v2/dev calls.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/summary", Tag: "device", Summary: "Visible devices by type and state",
		Access: httpapi.Signed, Resp: Summary{}, Handle: s.summary})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/list/{uid}", Tag: "device", Summary: "A station's device tree (with sub-stations' devices)",
		Access: httpapi.Signed, Resp: []Item{}, Handle: s.stationDevices})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/listbytype", Tag: "device", Summary: "Devices filtered by station, type, state and name, paged",
		Access: httpapi.Signed, Query: ListQuery{}, Resp: httpapi.Page[Item]{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/detail/{deviceId}", Tag: "device", Summary: "One device with its latest sample",
		Access: httpapi.Signed, Resp: Detail{}, Handle: s.detail})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/history/{deviceId}", Tag: "device", Summary: "A device's history of one metric",
		Access: httpapi.Signed, Query: HistoryQuery{}, Resp: History{}, Handle: s.history})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/inverterstatus", Tag: "device", Summary: "Visible inverters by state",
		Access: httpapi.Signed, Resp: InverterStatus{}, Handle: s.inverterStatus})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/dev/attribute/{uid}", Tag: "device", Summary: "A device's nameplate and live attributes",
		Access: httpapi.Signed, Resp: []Attribute{}, Handle: s.attributes})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/dev/export", Tag: "device", Summary: "The filtered device list as CSV or XLSX",
		Access: httpapi.Signed, Query: ListQuery{}, RawTypes: httpapi.ExportTypes, Raw: s.export})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/dev/add", Tag: "device", Summary: "Add a device under a station",
		Access: httpapi.Signed, Body: Input{}, Resp: Device{}, Handle: s.add})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/dev/edit/{uid}", Tag: "device", Summary: "Edit a device",
		Access: httpapi.Signed, Body: Input{}, Resp: Device{}, Handle: s.edit})
}

func (s *Service) get(r *http.Request, param string) (*Device, error) {
	id, err := httpapi.PathID(r, param)
	if err != nil {
		return nil, err
	}
	if k, ok := s.Telemetry.(Kept); ok && r.Method == http.MethodGet {
		// a read answers from the kept rows; an edit reads the database
		d, kept, err := k.KeptDevice(r.Context(), httpapi.Caller(r), id)
		switch {
		case err != nil:
			return nil, httpapi.Internal(err)
		case kept && d == nil:
			return nil, httpapi.NotFound()
		case kept:
			return d, nil
		}
	}
	d, err := Get(r.Context(), s.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return d, nil
}

// specificYield is today's kWh ÷ d's array kWp, as shown (nil without an array).
func specificYield(todayKWh float64, d *Device) *float64 {
	if y, ok := yieldOf(todayKWh, d); ok {
		return &y
	}
	return nil
}

// yieldOf is specificYield as a value (ok false without an array).
func yieldOf(todayKWh float64, d *Device) (float64, bool) {
	if d.ComponentCapacityKWp <= 0 {
		return 0, false
	}
	return math.Round(todayKWh/d.ComponentCapacityKWp*1000) / 1000, true
}

// stateAndPower is a device's state and the power it counts with (none when offline),
// from its latest sample l (nil: it never reported).
func stateAndPower(l *telemetry.Sample, comm string, now time.Time) (string, float64) {
	st := StateOf(l, comm, now)
	if l == nil || st == StateOffline {
		return st, 0
	}
	return st, l.PowerKW
}

func (s *Service) items(ctx context.Context, devs []*Device) ([]Item, map[int64]telemetry.Sample, error) {
	return s.itemsOf(ctx, devs, true)
}

// itemsOf is items, with today's and the total energy only when withEnergy.
func (s *Service) itemsOf(ctx context.Context, devs []*Device, withEnergy bool) ([]Item, map[int64]telemetry.Sample, error) {
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	latest, err := s.Telemetry.Latest(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	energy := map[int64]Energy{}
	if withEnergy {
		if energy, err = s.Telemetry.Energy(ctx, devs); err != nil {
			return nil, nil, err
		}
	}
	now := s.now()
	comms := s.comms()
	out := make([]Item, len(devs))
	for i, d := range devs {
		it := Item{Device: *d, TodayKWh: energy[d.ID].TodayKWh, TotalKWh: energy[d.ID].TotalKWh}
		if withEnergy {
			it.SpecificYield = specificYield(it.TodayKWh, d)
		}
		var lp *telemetry.Sample
		if l, ok := latest[d.ID]; ok {
			t := l.Time
			it.LastSeen = &t
			it.SOC = l.SOC
			lp = &l
		}
		it.State, it.CurrentPowerKW = stateAndPower(lp, comms[d.ID], now)
		out[i] = it
	}
	return out, latest, nil
}

// stationAndChildren returns the ids of a visible station and its visible sub-stations.
func (s *Service) stationAndChildren(r *http.Request, id int64) ([]int64, error) {
	p := httpapi.Caller(r)
	if k, ok := s.Telemetry.(station.Kept); ok {
		// from memory when the stations are kept
		st, children, _, kept, err := k.KeptStation(r.Context(), p, id)
		switch {
		case err != nil:
			return nil, httpapi.Internal(err)
		case kept && st == nil:
			return nil, httpapi.NotFound()
		case kept:
			ids := []int64{st.ID}
			for _, c := range children {
				ids = append(ids, c.ID)
			}
			return ids, nil
		}
	}
	st, err := station.Get(r.Context(), s.DB, p, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	children, _, err := station.List(r.Context(), s.DB, p, station.Filter{ParentID: st.ID})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := []int64{st.ID}
	for _, c := range children {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

func (s *Service) stationDevices(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	ids, err := s.stationAndChildren(r, id)
	if err != nil {
		return nil, err
	}
	devs, err := s.ofStations(r, ids)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	items, _, err := s.items(r.Context(), devs)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return items, nil
}

func (s *Service) list(r *http.Request) (any, error) {
	q := httpapi.Query[ListQuery](r)
	f, err := s.listFilter(r, q)
	if err != nil {
		return nil, err
	}
	items, total, err := s.filtered(r.Context(), httpapi.Caller(r), f, q.State, q.sort, q.Page, q.PageSize)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Item]{List: items, Total: total, Page: q.Page, PageSize: q.PageSize}, nil
}

// listFilter is the list's filter of the devices themselves (an unknown or invisible
// station is a 404).
func (s *Service) listFilter(r *http.Request, q ListQuery) (Filter, error) {
	f := Filter{Type: q.Type, Name: q.Name}
	if q.StationID != 0 {
		ids, err := s.stationAndChildren(r, q.StationID)
		if err != nil {
			return f, err
		}
		f.StationIDs = ids
	}
	return f, nil
}

func (s *Service) detail(r *http.Request) (any, error) {
	d, err := s.get(r, "deviceId")
	if err != nil {
		return nil, err
	}
	items, latest, err := s.items(r.Context(), []*Device{d})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := Detail{Item: items[0]}
	if l, ok := latest[d.ID]; ok {
		out.Latest = &l
	}
	return out, nil
}

func (s *Service) all(r *http.Request) ([]Item, error) {
	devs, _, err := List(r.Context(), s.DB, httpapi.Caller(r), Filter{})
	if err != nil {
		return nil, err
	}
	// counts and power need each device's state, not its energy
	items, _, err := s.itemsOf(r.Context(), devs, false)
	return items, err
}
