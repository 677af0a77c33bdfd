package monitor

import (
	"context"
	"errors"
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// WeatherSource gives a station's weather at an instant (ok false when it has none).
// The demo's source is the simulator, whose weather the fleet's samples are made of
// (demo.WeatherSource).
type WeatherSource func(st *station.Station, t time.Time) (Conditions, bool)

// Conditions is a station's weather at an instant, as a WeatherSource gives it.
type Conditions struct {
	Time            time.Time
	Code            string // three-digit weather code, 001-070
	Key             string // condition key, e.g. clear, light_rain
	Group           string
	AirQuality      int    // 1 excellent … 6 severe
	AirQualityKey   string // the level's key, e.g. good
	AmbientC        float64
	GHIWm2          float64 // global horizontal irradiance
	WindMS          float64
	SunElevationDeg float64
}

// AlarmCount is a station's alarms since a given instant.
type AlarmCount struct {
	Total     int
	Processed int
}

// UserCount is how many alarms a user dealt.
type UserCount struct {
	UserID int64
	Name   string
	Count  int
}

// AlarmStats are the alarm figures the rankings need, provided by the alarm engine.
type AlarmStats interface {
	// StationCounts counts the alarms that started since `since`, per station, a
	// sub-station's alarms counting towards its parent when the parent is listed.
	StationCounts(ctx context.Context, stationIDs []int64, since time.Time) (map[int64]AlarmCount, error)
	// DealCounts counts alarms dealt since `since` on the stations, per user.
	DealCounts(ctx context.Context, stationIDs []int64, since time.Time) ([]UserCount, error)
}

// Weather is a station's weather now.
type Weather struct {
	Available       bool    `json:"available" doc:"false when no weather source is configured"`
	Time            string  `json:"time,omitempty" doc:"RFC 3339"`
	Code            string  `json:"code,omitempty" doc:"three-digit weather code, 001-070"`
	Key             string  `json:"key,omitempty" doc:"condition key, e.g. clear, light_rain"`
	Group           string  `json:"group,omitempty"`
	TemperatureC    float64 `json:"temperatureC"`
	IrradianceWm2   float64 `json:"irradianceWm2" doc:"global horizontal"`
	AirQuality      int     `json:"airQuality" doc:"1 excellent … 6 severe"`
	AirQualityKey   string  `json:"airQualityKey,omitempty"`
	WindMS          float64 `json:"windMs"`
	SunElevationDeg float64 `json:"sunElevationDeg"`
}

// TopDevice is a device in the production ranking.
type TopDevice struct {
	Rank            int     `json:"rank"`
	ID              int64   `json:"id"`
	Name            string  `json:"name"`
	SN              string  `json:"sn"`
	StationID       int64   `json:"stationId"`
	StationName     string  `json:"stationName"`
	Type            string  `json:"type"`
	TodayKWh        float64 `json:"todayKwh"`
	EquivalentHours float64 `json:"equivalentHours" doc:"today's kWh ÷ the inverter's array kWp"`
	CurrentPowerKW  float64 `json:"currentPowerKw"`
}

// ProjectRank is a station in the fault ranking.
type ProjectRank struct {
	Rank              int     `json:"rank"`
	StationID         int64   `json:"stationId"`
	Name              string  `json:"name"`
	FaultToday        int     `json:"faultToday"`
	FaultProcessed    int     `json:"faultProcess" doc:"alarms of today already processed (SPEC.md section 3 names the field faultProcess)"`
	FaultProcessRatio float64 `json:"faultProcessRatio" doc:"%"`
}

// MaintenanceRank is a user in the maintenance ranking.
type MaintenanceRank struct {
	Rank        int    `json:"rank"`
	UserID      int64  `json:"userId"`
	Name        string `json:"name"`
	FinishCount int    `json:"finishCount" doc:"alarms dealt in the last 30 days"`
}

// LimitQuery documents the ranking size.
type LimitQuery struct {
	Limit int `query:"limit" min:"1" max:"50" doc:"1-50; default 6 (top devices) or 10"`
}

func (s *Summary) rankingRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/weather/{stationId}", Tag: "site", Summary: "A station's weather now",
		Access: httpapi.Signed, Resp: Weather{}, Handle: s.weather})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/summary/topdevices", Tag: "summary", Summary: "Inverters ranked by today's equivalent hours",
		Access: httpapi.Signed, Query: LimitQuery{}, Resp: []TopDevice{}, Handle: s.topDevices})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/summary/projectranking", Tag: "summary", Summary: "Stations ranked by today's alarms (each station's local day)",
		Access: httpapi.Signed, Query: LimitQuery{}, Resp: []ProjectRank{}, Handle: s.projectRanking})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/summary/maintenanceranking", Tag: "summary", Summary: "Users ranked by alarms dealt in the last 30 days",
		Access: httpapi.Signed, Query: LimitQuery{}, Resp: []MaintenanceRank{}, Handle: s.maintenanceRanking})
}

// limitParam is the call's limit, def when absent.
func limitParam(r *http.Request, def int) int {
	if n := httpapi.Query[LimitQuery](r).Limit; n != 0 {
		return n
	}
	return def
}

func (s *Summary) weather(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "stationId")
	if err != nil {
		return nil, err
	}
	st, err := station.Get(r.Context(), s.Figures.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if s.Figures.Weather == nil {
		return Weather{}, nil
	}
	c, ok := s.Figures.Weather(st, s.Figures.now())
	if !ok {
		return Weather{}, nil
	}
	return Weather{Available: true, Time: c.Time.UTC().Format(time.RFC3339), Code: c.Code, Key: c.Key,
		Group: c.Group, TemperatureC: math.Round(c.AmbientC*10) / 10, IrradianceWm2: math.Round(c.GHIWm2),
		AirQuality: c.AirQuality, AirQualityKey: c.AirQualityKey,
		WindMS: math.Round(c.WindMS*10) / 10, SunElevationDeg: math.Round(c.SunElevationDeg*10) / 10}, nil
}

func (s *Summary) topDevices(r *http.Request) (any, error) {
	limit := limitParam(r, 6)
	if s.Figures.Fleet != nil {
		return s.keptTopDevices(r, limit)
	}
	ctx := r.Context()
	f := s.Figures
	devs, _, err := device.List(ctx, f.DB, httpapi.Caller(r), device.Filter{Type: "inverter"})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	energy, err := f.Energy(ctx, devs)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	latest, err := f.latest(ctx, ids)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	now, comms := f.now(), f.comms().States
	out := make([]TopDevice, 0, len(devs))
	for _, d := range devs {
		e := energy[d.ID]
		t := TopDevice{ID: d.ID, Name: d.Name, SN: d.SN, StationID: d.StationID, StationName: d.StationName, Type: d.Type,
			TodayKWh: e.TodayKWh, EquivalentHours: r3(EquivalentHours(e.TodayKWh, d.ComponentCapacityKWp))}
		if l, ok := latest[d.ID]; ok && device.StateOf(&l, comms[d.ID], now) != device.StateOffline {
			t.CurrentPowerKW = r3(l.PowerKW)
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].EquivalentHours != out[j].EquivalentHours {
			return out[i].EquivalentHours > out[j].EquivalentHours
		}
		return out[i].TodayKWh > out[j].TodayKWh
	})
	out = out[:min(limit, len(out))]
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// keptTopDevices ranks the visible stations' inverters from the fleet state, keeping
// only the best `limit`: the same answer as ranking the whole device list.
func (s *Summary) keptTopDevices(r *http.Request, limit int) (any, error) {
	f := s.Figures
	var top []fleet.Inverter
	var err error
	kept := false
	if p := httpapi.Caller(r); f.keepsParts(p) {
		if top, kept, err = f.keptTopInverters(r.Context(), p, limit, scoreHours); err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	if !kept {
		list, err := f.visible(r)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		ids := make([]int64, len(list))
		for i, st := range list {
			ids[i] = st.ID
		}
		if top, err = f.Fleet.TopInverters(r.Context(), ids, limit, rankKey, scoreHours); err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	now, comms := f.now(), f.comms().States
	out := make([]TopDevice, len(top))
	for i, d := range top {
		today := r3(d.TodayKWh)
		out[i] = TopDevice{Rank: i + 1, ID: d.ID, Name: d.Name, SN: d.SN, StationID: d.StationID, StationName: d.StationName,
			Type: "inverter", TodayKWh: today, EquivalentHours: r3(EquivalentHours(today, d.KWp))}
		if d.HasLatest && device.StateOf(&d.Latest, comms[d.ID], now) != device.StateOffline {
			out[i].CurrentPowerKW = r3(d.Latest.PowerKW)
		}
	}
	return out, nil
}

// rankKey names the production ranking's score, scoreHours, in the fleet state's kept
// rankings.
const rankKey = "equivalentHours"

// scoreHours ranks inverters by today's equivalent hours, then energy, as shown.
func scoreHours(today, kwp float64) (float64, float64) {
	today = r3(today)
	return r3(EquivalentHours(today, kwp)), today
}

func (s *Summary) topStations(r *http.Request) ([]*station.Station, error) {
	_, rs, err := s.Figures.visibleRoots(r)
	return rs, err
}

func (s *Summary) projectRanking(r *http.Request) (any, error) {
	limit := limitParam(r, 10)
	if p := httpapi.Caller(r); s.Figures.keepsParts(p) {
		out, ok, err := s.Figures.keptProjects(r.Context(), p, limit)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		if ok {
			return out, nil
		}
	}
	rs, err := s.topStations(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := make([]int64, len(rs))
	for i, st := range rs {
		ids[i] = st.ID
	}
	counts := map[int64]AlarmCount{}
	if stats := s.Figures.AlarmStats; stats != nil {
		if sql, ok := stats.(SQLAlarmStats); ok && s.Figures.Fleet != nil && sql.Children == nil {
			sql.Children = s.Figures.Fleet.WithChildren // the sub-stations from memory
			sql.Fleet = s.Figures.Fleet                 // today's counts from memory
			stats = sql
		}
		all := make([]int, len(rs))
		for i := range all {
			all[i] = i
		}
		// each root's alarms of its own local today (docs/kpi.md), a zone's roots at once
		for _, g := range byLocalDay(rs, all, s.Figures.now()) {
			got, err := stats.StationCounts(r.Context(), g.ids, g.since)
			if err != nil {
				return nil, httpapi.Internal(err)
			}
			for id, c := range got {
				counts[id] = c
			}
		}
	}
	return topProjects(rs, func(i int) AlarmCount { return counts[rs[i].ID] }, limit), nil
}

// topProjects is the first limit of the stations by alarms today (more first), then name,
// then the list's order: kept as they come, so a call sorts limit stations, not every one.
func topProjects(rs []*station.Station, countOf func(i int) AlarmCount, limit int) []ProjectRank {
	out := make([]ProjectRank, 0, min(limit, len(rs))+1)
	before := func(a, b *ProjectRank) bool {
		if a.FaultToday != b.FaultToday {
			return a.FaultToday > b.FaultToday
		}
		return a.Name < b.Name // equal names: the earlier in the list (it came first)
	}
	for i, st := range rs {
		c := countOf(i)
		p := ProjectRank{StationID: st.ID, Name: st.Name, FaultToday: c.Total, FaultProcessed: c.Processed}
		if len(out) == limit && !before(&p, &out[limit-1]) {
			continue
		}
		at := len(out)
		for at > 0 && before(&p, &out[at-1]) {
			at--
		}
		out = append(out, ProjectRank{})
		copy(out[at+1:], out[at:])
		out[at] = p
		if len(out) > limit {
			out = out[:limit]
		}
	}
	for i := range out {
		out[i].Rank = i + 1
		if c := out[i]; c.FaultToday > 0 {
			out[i].FaultProcessRatio = r3(float64(c.FaultProcessed) / float64(c.FaultToday) * 100)
		}
	}
	return out
}

func (s *Summary) maintenanceRanking(r *http.Request) (any, error) {
	limit := limitParam(r, 10)
	out := []MaintenanceRank{}
	if s.Figures.AlarmStats == nil {
		return out, nil
	}
	list, err := s.Figures.visible(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := make([]int64, len(list))
	for i, st := range list {
		ids[i] = st.ID
	}
	users, err := s.Figures.AlarmStats.DealCounts(r.Context(), ids, s.Figures.now().AddDate(0, 0, -30))
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	sort.SliceStable(users, func(i, j int) bool {
		if users[i].Count != users[j].Count {
			return users[i].Count > users[j].Count
		}
		return users[i].Name < users[j].Name
	})
	for i, u := range users[:min(limit, len(users))] {
		out = append(out, MaintenanceRank{Rank: i + 1, UserID: u.UserID, Name: u.Name, FinishCount: u.Count})
	}
	return out, nil
}
