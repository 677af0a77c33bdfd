package device

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/jsonnum"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/org"
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

// Summary counts visible devices by type and by state.
type Summary struct {
	Total   int                       `json:"total"`
	ByType  map[string]map[string]int `json:"byType" doc:"type → state → count"`
	ByState map[string]int            `json:"byState"`
}

// InverterStatus counts the visible inverters by state, with their capacity.
type InverterStatus struct {
	Total          int            `json:"total"`
	ByState        map[string]int `json:"byState"`
	RatedPowerKW   float64        `json:"ratedPowerKw"`
	CurrentPowerKW float64        `json:"currentPowerKw"`
}

// Attribute is one nameplate or live value of a device.
type Attribute struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	Unit  string `json:"unit"`
	Group string `json:"group" doc:"nameplate or live"`
}

// ListQuery documents the list filters.
type ListQuery struct {
	StationID int64  `query:"stationId" doc:"only this station (and its sub-stations)"`
	Type      string `query:"type" doc:"inverter, battery, storage or meter"`
	State     string `query:"state" doc:"running, standby, fault or offline"`
	Name      string `query:"name" doc:"part of the name or serial number"`
	Sort      string `query:"sort" doc:"rank by todayKwh, equivalentHours, specificYield (the same quotient, kWh ÷ kWp), currentPowerKw or totalKwh; ties by id"`
	Order     string `query:"order" doc:"asc or desc (default) with sort"`
	Page      int    `query:"page"`
	PageSize  int    `query:"pageSize"`
}

// HistoryQuery documents the history parameters.
type HistoryQuery struct {
	Metric string `query:"metric" validate:"required" doc:"power, energy, energy2, dcVoltage, dcCurrent, acVoltage, frequency, temperature, soc or irradiance"`
	From   string `query:"from" validate:"required" doc:"RFC 3339"`
	To     string `query:"to" validate:"required" doc:"RFC 3339"`
}

// History is a device's series of one metric.
type History struct {
	Metric     string       `json:"metric"`
	Resolution string       `json:"resolution" doc:"5m, hour, day or month: chosen from the range"`
	Unit       string       `json:"unit"`
	Points     [][2]float64 `json:"points"`
}

// AppendJSON implements httpapi.Appender: a day of 5-minute points is the largest
// answer of the device screens, and reflection over its floats showed in its cost.
func (h History) AppendJSON(b []byte) ([]byte, error) {
	b = jsonnum.AppendString(append(b, `{"metric":`...), h.Metric)
	b = jsonnum.AppendString(append(b, `,"resolution":`...), h.Resolution)
	b = jsonnum.AppendString(append(b, `,"unit":`...), h.Unit)
	b, ok := jsonnum.AppendPairs(append(b, `,"points":`...), h.Points)
	if !ok {
		return b, httpapi.ErrUnsupportedFloat
	}
	return append(b, '}'), nil
}

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
		Access: httpapi.Signed, Query: ListQuery{}, RawType: "text/csv", Raw: s.export})
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
	page, size, err := httpapi.PageParams(r)
	if err != nil {
		return nil, err
	}
	f, state, sort, err := s.parseListFilters(r)
	if err != nil {
		return nil, err
	}
	items, total, err := s.filtered(r.Context(), httpapi.Caller(r), f, state, sort, page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Item]{List: items, Total: total, Page: page, PageSize: size}, nil
}

// parseListFilters reads the list filters and order (an unknown or invisible station is a
// 404).
func (s *Service) parseListFilters(r *http.Request) (Filter, string, listing.Sort, error) {
	q := r.URL.Query()
	lp := &listing.Params{Q: q}
	sort := lp.Sort(Sorts...)
	v := &lp.V
	f := Filter{Type: q.Get("type"), Name: strings.TrimSpace(q.Get("name"))}
	if f.Type != "" {
		v.OneOf("type", f.Type, Types...)
	}
	state := q.Get("state")
	if state != "" {
		v.OneOf("state", state, StateRunning, StateStandby, StateFault, StateOffline)
	}
	v.MaxLen("name", f.Name, 100)
	var stationID int64
	if sid := q.Get("stationId"); sid != "" {
		n, err := strconv.ParseInt(sid, 10, 64)
		if err != nil || n <= 0 {
			v.Add("stationId", "invalid_format")
		}
		stationID = n
	}
	if err := v.Err(); err != nil {
		return f, "", sort, err
	}
	if stationID != 0 {
		ids, err := s.stationAndChildren(r, stationID)
		if err != nil {
			return f, "", sort, err
		}
		f.StationIDs = ids
	}
	return f, state, sort, nil
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

func (s *Service) summary(r *http.Request) (any, error) {
	sum := Summary{ByType: map[string]map[string]int{}, ByState: map[string]int{}}
	for _, t := range Types {
		sum.ByType[t] = map[string]int{StateRunning: 0, StateStandby: 0, StateFault: 0, StateOffline: 0}
	}
	for _, st := range []string{StateRunning, StateStandby, StateFault, StateOffline} {
		sum.ByState[st] = 0
	}
	kept, err := s.keptSummary(r, &sum)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if kept {
		return sum, nil
	}
	items, err := s.all(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for _, it := range items {
		sum.Total++
		sum.ByType[it.Type][it.State]++
		sum.ByState[it.State]++
	}
	return sum, nil
}

func (s *Service) inverterStatus(r *http.Request) (any, error) {
	items, err := s.all(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := InverterStatus{ByState: map[string]int{StateRunning: 0, StateStandby: 0, StateFault: 0, StateOffline: 0}}
	for _, it := range items {
		if it.Type != "inverter" {
			continue
		}
		out.Total++
		out.ByState[it.State]++
		out.RatedPowerKW += it.RatedPowerKW
		out.CurrentPowerKW += it.CurrentPowerKW
	}
	out.RatedPowerKW = math.Round(out.RatedPowerKW*1000) / 1000
	out.CurrentPowerKW = math.Round(out.CurrentPowerKW*1000) / 1000
	return out, nil
}

func (s *Service) attributes(r *http.Request) (any, error) {
	d, err := s.get(r, "uid")
	if err != nil {
		return nil, err
	}
	items, latest, err := s.items(r.Context(), []*Device{d})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	np := func(k string, v any, unit string) Attribute {
		return Attribute{Key: k, Value: v, Unit: unit, Group: "nameplate"}
	}
	out := []Attribute{np("sn", d.SN, ""), np("type", d.Type, ""), np("model", d.Model, ""), np("customType", d.CustomType, "")}
	switch d.Type {
	case "inverter":
		out = append(out, np("ratedPowerKw", d.RatedPowerKW, "kW"), np("componentCapacityKwp", d.ComponentCapacityKWp, "kWp"),
			np("componentRatedPowerW", d.ComponentRatedPowerW, "W"), np("componentCount", d.ComponentCount, ""),
			np("stringsTotal", d.StringsTotal, ""), np("stringsEnabled", d.StringsEnabled, ""))
	case "battery", "storage":
		out = append(out, np("ratedPowerKw", d.RatedPowerKW, "kW"), np("capacityKwh", d.CapacityKWh, "kWh"))
	case "meter":
		out = append(out, np("meterPosition", d.MeterPosition, ""))
	}
	out = append(out, np("collectorSn", d.CollectorSN, ""))
	if l, ok := latest[d.ID]; ok {
		lv := func(k string, v any, unit string) Attribute {
			return Attribute{Key: k, Value: v, Unit: unit, Group: "live"}
		}
		out = append(out, lv("state", items[0].State, ""), lv("time", l.Time.UTC().Format(time.RFC3339), ""),
			lv("power", l.PowerKW, "kW"), lv("energy", l.EnergyKWh, "kWh"), lv("dcVoltage", l.DCVoltageV, "V"),
			lv("dcCurrent", l.DCCurrentA, "A"), lv("acVoltage", l.ACVoltageV, "V"), lv("frequency", l.FrequencyHz, "Hz"),
			lv("temperature", l.TempC, "°C"))
		if d.Type == "inverter" {
			out = append(out, lv("irradiance", l.IrradianceWm2, "W/m²"), lv("stringsActive", l.StringsActive, ""))
		}
		if d.Type == "battery" || d.Type == "storage" {
			out = append(out, lv("soc", l.SOC, "%"), lv("energy2", l.Energy2KWh, "kWh"))
		}
		if d.Type == "meter" {
			out = append(out, lv("energy2", l.Energy2KWh, "kWh"))
		}
	}
	return out, nil
}

func (s *Service) history(r *http.Request) (any, error) {
	d, err := s.get(r, "deviceId")
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	var v httpapi.Validator
	metric := q.Get("metric")
	unit, ok := Metrics[metric]
	if metric == "" {
		v.Add("metric", "required")
	} else if !ok {
		v.Add("metric", "one_of", "power, energy, energy2, dcVoltage, dcCurrent, acVoltage, frequency, temperature, soc, irradiance")
	}
	parse := func(name string) time.Time {
		s := q.Get(name)
		if s == "" {
			v.Add(name, "required")
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			v.Add(name, "wrong_type", "a date-time (RFC 3339)")
		}
		return t
	}
	from, to := parse("from"), parse("to")
	if err := v.Err(); err != nil {
		return nil, err
	}
	switch {
	case !to.After(from):
		v.Add("to", "out_of_range", from.Format(time.RFC3339), "…")
	case to.Sub(from) > MaxHistoryRange:
		v.Add("to", "out_of_range", from.Format(time.RFC3339), from.Add(MaxHistoryRange).Format(time.RFC3339))
	case from.After(s.now().Add(time.Hour)):
		v.Add("from", "out_of_range", "…", s.now().Format(time.RFC3339))
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	series, res, err := s.Telemetry.History(r.Context(), d, metric, from, to)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if series.Unit == "" {
		series.Unit = unit
	}
	return History{Metric: metric, Resolution: res, Unit: series.Unit, Points: series.Points}, nil
}

// Input is the body of POST /v2/dev/add and /v2/dev/edit/{uid}.
type Input struct {
	StationID            int64   `json:"stationId" validate:"required" doc:"the station the device belongs to"`
	ParentID             int64   `json:"parentId" doc:"parent device in the tree, 0 for directly under the station"`
	Name                 string  `json:"name" validate:"required"`
	SN                   string  `json:"sn" validate:"required"`
	Type                 string  `json:"type" validate:"required"`
	CustomType           string  `json:"customType"`
	Model                string  `json:"model"`
	RatedPowerKW         float64 `json:"ratedPowerKw"`
	CapacityKWh          float64 `json:"capacityKwh"`
	ComponentRatedPowerW float64 `json:"componentRatedPowerW"`
	ComponentCount       int     `json:"componentCount"`
	StringsTotal         int     `json:"stringsTotal"`
	StringsEnabled       int     `json:"stringsEnabled"`
	MeterPosition        string  `json:"meterPosition"`
	CollectorSN          string  `json:"collectorSn"`
}

var snRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._\-]{2,63}$`)

// Validate checks the device form rules (SPEC.md section 5) and plausible ranges.
func (in *Input) Validate() error {
	var v httpapi.Validator
	for _, f := range []*string{&in.Name, &in.SN, &in.Type, &in.CustomType, &in.Model, &in.MeterPosition, &in.CollectorSN} {
		*f = strings.TrimSpace(*f)
	}
	if in.StationID <= 0 {
		v.Add("stationId", "required")
	}
	v.Required("name", in.Name)
	v.MaxLen("name", in.Name, 100)
	if v.Required("sn", in.SN) && !snRe.MatchString(in.SN) {
		v.Add("sn", "invalid_format")
	}
	if v.Required("type", in.Type) {
		v.OneOf("type", in.Type, Types...)
	}
	v.MaxLen("customType", in.CustomType, 50)
	v.MaxLen("model", in.Model, 100)
	v.Range("ratedPowerKw", in.RatedPowerKW, 0, 100_000)
	v.Range("capacityKwh", in.CapacityKWh, 0, 1_000_000)
	v.Range("componentRatedPowerW", in.ComponentRatedPowerW, 0, 2_000)
	v.Range("componentCount", float64(in.ComponentCount), 0, 1_000_000)
	v.Range("stringsTotal", float64(in.StringsTotal), 0, 1_000)
	v.Range("stringsEnabled", float64(in.StringsEnabled), 0, float64(max(in.StringsTotal, 0)))
	if in.Type == "inverter" && in.RatedPowerKW <= 0 {
		v.Add("ratedPowerKw", "required")
	}
	if (in.Type == "battery" || in.Type == "storage") && in.CapacityKWh <= 0 {
		v.Add("capacityKwh", "required")
	}
	if in.Type == "meter" {
		v.OneOf("meterPosition", in.MeterPosition, "grid", "load")
	} else if in.MeterPosition != "" {
		v.Add("meterPosition", "one_of", "")
	}
	if in.CollectorSN != "" && !snRe.MatchString(in.CollectorSN) {
		v.Add("collectorSn", "invalid_format")
	}
	return v.Err()
}

func (in *Input) apply(d *Device) {
	d.StationID, d.ParentID, d.Name, d.SN, d.Type = in.StationID, in.ParentID, in.Name, in.SN, in.Type
	d.CustomType, d.Model, d.RatedPowerKW, d.CapacityKWh = in.CustomType, in.Model, in.RatedPowerKW, in.CapacityKWh
	d.ComponentRatedPowerW, d.ComponentCount = in.ComponentRatedPowerW, in.ComponentCount
	d.ComponentCapacityKWp = math.Round(in.ComponentRatedPowerW*float64(in.ComponentCount)) / 1000
	d.StringsTotal, d.StringsEnabled, d.MeterPosition, d.CollectorSN = in.StringsTotal, in.StringsEnabled, in.MeterPosition, in.CollectorSN
}

// checkPlacement verifies that the station is visible and the parent device sits in
// the same station.
func (s *Service) checkPlacement(r *http.Request, in *Input, self int64) error {
	p := httpapi.Caller(r)
	if _, err := station.Get(r.Context(), s.DB, p, in.StationID); err != nil {
		return httpapi.InvalidField("stationId", "not_found")
	}
	if in.ParentID != 0 {
		parent, err := Get(r.Context(), s.DB, p, in.ParentID)
		if err != nil || parent.StationID != in.StationID || parent.ID == self {
			return httpapi.InvalidField("parentId", "not_found")
		}
		if self != 0 {
			below, err := s.isDescendant(r.Context(), in.ParentID, self)
			if err != nil {
				return httpapi.Internal(err)
			}
			if below {
				return httpapi.InvalidField("parentId", "parent_cycle")
			}
		}
	}
	return nil
}

// isDescendant reports whether id sits below ancestor in the device tree, however deep
// the chain (a chain that already loops counts as below: it must not grow).
func (s *Service) isDescendant(ctx context.Context, id, ancestor int64) (bool, error) {
	seen := map[int64]bool{}
	for id != 0 {
		if seen[id] {
			return true, nil
		}
		seen[id] = true
		var parent int64
		err := s.DB.QueryRow(ctx, "SELECT COALESCE(parent_id, 0) FROM devices WHERE id = ?", id).Scan(&parent)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("device: unable to walk the device tree: %w", err)
		}
		if parent == ancestor {
			return true, nil
		}
		id = parent
	}
	return false, nil
}

func duplicateSN() error {
	return &httpapi.Error{Status: 409, Code: 409, Key: "duplicate", Fields: map[string]httpapi.Msg{"sn": {Key: "duplicate"}}}
}

func (s *Service) add(r *http.Request) (any, error) {
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkPlacement(r, &in, 0); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	d := &Device{OrgID: p.OrgID}
	in.apply(d)
	if _, err := Insert(r.Context(), s.DB, d); errors.Is(err, ErrDuplicateSN) {
		return nil, duplicateSN()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "device.add", d.SN, d.Name, httpapi.ClientAddr(r))
	return Get(r.Context(), s.DB, p, d.ID)
}

func (s *Service) edit(r *http.Request) (any, error) {
	d, err := s.get(r, "uid")
	if err != nil {
		return nil, err
	}
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkPlacement(r, &in, d.ID); err != nil {
		return nil, err
	}
	in.apply(d)
	if err := Update(r.Context(), s.DB, d); errors.Is(err, ErrDuplicateSN) {
		return nil, duplicateSN()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "device.edit", d.SN, d.Name, httpapi.ClientAddr(r))
	return Get(r.Context(), s.DB, p, d.ID)
}
