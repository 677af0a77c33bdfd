// Package plan holds generation plans (planned kWh per station and month) and compares
// them with the energy the stations really produced.
package plan

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Service serves the /v2/plan calls.
type Service struct {
	DB     *store.DB
	Reader *telemetry.Reader
	Now    func() time.Time
	// Messages receives the plan workflow's messages (nil: none are sent).
	Messages *message.Store
	// Weather draws the weather of a station's expected yield, which spreads a yearly
	// proposal over the months (the server's is the simulator's, sim.YieldWeather; nil:
	// spread evenly).
	Weather pvmodel.WeatherSource
}

// MonthPlan is one month's plan.
type MonthPlan struct {
	Month   int     `json:"month" doc:"1-12"`
	PlanKWh float64 `json:"planKwh"`
}

// MonthFigures compares a month's plan with what was produced.
type MonthFigures struct {
	Month      int     `json:"month"`
	PlanKWh    float64 `json:"planKwh"`
	ActualKWh  float64 `json:"actualKwh"`
	Completion float64 `json:"completion" doc:"actual ÷ plan, %; 0 without a plan"`
}

// StationFigures compares a station's yearly plan with what it produced.
type StationFigures struct {
	StationID        int64   `json:"stationId"`
	Name             string  `json:"name"`
	PlanKWh          float64 `json:"planKwh"`
	ActualKWh        float64 `json:"actualKwh"`
	Completion       float64 `json:"completion" doc:"actual ÷ the whole year's plan, %"`
	PlanToDateKWh    float64 `json:"planToDateKwh" doc:"the plan up to now in the station's zone: past months whole, the current month in proportion to its time elapsed"`
	CompletionToDate float64 `json:"completionToDate" doc:"actual ÷ plan to date, %; 0 without a plan"`
}

// Overview is plan against actual for a year, by month and by station.
type Overview struct {
	Year       int     `json:"year"`
	Unit       string  `json:"unit"`
	PlanKWh    float64 `json:"planKwh"`
	ActualKWh  float64 `json:"actualKwh"`
	Completion float64 `json:"completion" doc:"actual ÷ the whole year's plan, %"`
	// PlanToDateKWh and CompletionToDate compare like with like: the year so far against
	// the plan so far (docs/kpi.md).
	PlanToDateKWh    float64          `json:"planToDateKwh" doc:"the plan up to now, each station in its zone: past months whole, the current month in proportion to its time elapsed; the whole plan for a past year, 0 for a future one"`
	CompletionToDate float64          `json:"completionToDate" doc:"actual ÷ plan to date, %; 0 without a plan"`
	Months           []MonthFigures   `json:"months"`
	Stations         []StationFigures `json:"stations"`
}

// ListQuery documents the plan list parameters.
type ListQuery struct {
	Year      int   `query:"year" min:"2000" max:"2100" doc:"default this year"`
	StationID int64 `query:"stationId" validate:"id" doc:"one station (with its sub-stations); default every visible station"`
}

// BuildQuery documents GET /v2/plan/buildlist/get's parameters.
type BuildQuery struct {
	Year      int   `query:"year" min:"2000" max:"2100" doc:"default this year"`
	StationID int64 `query:"stationId" validate:"required,id" doc:"the station"`
}

// BuildList is the body of POST /v2/plan/buildlist/put and the answer of /get.
type BuildList struct {
	StationID int64       `json:"stationId" validate:"required"`
	Year      int         `json:"year" validate:"required"`
	Months    []MonthPlan `json:"months" validate:"required"`
}

// Routes registers the plan calls.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/plan/list", Tag: "plan", Summary: "Plan against actual generation for a year",
		Access: httpapi.Signed, Query: ListQuery{}, Resp: Overview{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/plan/get/{uid}", Tag: "plan", Summary: "One station's plan against actual for a year",
		Access: httpapi.Signed, Query: ListQuery{}, Resp: Overview{}, Handle: s.get})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/plan/buildlist/get", Tag: "plan", Summary: "A station's monthly plan for a year",
		Access: httpapi.Signed, Query: BuildQuery{}, Resp: BuildList{}, Handle: s.buildGet})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/plan/buildlist/put", Tag: "plan", Summary: "Draft a station's monthly plan for a year (admin): the months given, laid over its current plan, become a proposal that takes effect when approved",
		Access: httpapi.Admin, Body: BuildList{}, Resp: Proposal{}, Handle: s.buildPut})
	s.proposalRoutes(api)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func r3(f float64) float64 { return math.Round(f*1000) / 1000 }

func completion(actual, plan float64) float64 {
	if plan <= 0 {
		return 0
	}
	return r3(actual / plan * 100)
}

// elapsed is the share of month m of year that lies before now (in now's zone): 1 for a
// past month, 0 for a future one, the time elapsed ÷ the month's length for the current.
func elapsed(year, m int, now time.Time) float64 {
	from := time.Date(year, time.Month(m), 1, 0, 0, 0, 0, now.Location())
	to := from.AddDate(0, 1, 0)
	switch {
	case !now.After(from):
		return 0
	case !now.Before(to):
		return 1
	}
	return float64(now.Sub(from)) / float64(to.Sub(from))
}

// year is a query's year, this year when absent (0).
func (s *Service) year(y int) int {
	if y == 0 {
		return s.now().Year()
	}
	return y
}

func (s *Service) visibleStation(r *http.Request, id int64) (*station.Station, error) {
	st, err := station.Get(r.Context(), s.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return st, nil
}

func (s *Service) list(r *http.Request) (any, error) {
	q := httpapi.Query[ListQuery](r)
	year := s.year(q.Year)
	var stations []*station.Station
	if id := q.StationID; id != 0 {
		st, err := s.visibleStation(r, id)
		if err != nil {
			return nil, err
		}
		stations = []*station.Station{st}
	} else {
		all, _, err := station.List(r.Context(), s.DB, httpapi.Caller(r), station.Filter{ParentID: -1})
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		visible := map[int64]bool{}
		for _, st := range all {
			visible[st.ID] = true
		}
		for _, st := range all {
			if st.ParentID == 0 || !visible[st.ParentID] {
				stations = append(stations, st)
			}
		}
	}
	return s.overview(r.Context(), stations, year)
}

func (s *Service) get(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	year := s.year(httpapi.Query[ListQuery](r).Year)
	st, err := s.visibleStation(r, id)
	if err != nil {
		return nil, err
	}
	return s.overview(r.Context(), []*station.Station{st}, year)
}

// overview compares plans with actual energy; a station's plan includes its
// sub-stations' plans, as its energy includes theirs.
func (s *Service) overview(ctx context.Context, stations []*station.Station, year int) (Overview, error) {
	out := Overview{Year: year, Unit: "kWh", Months: make([]MonthFigures, 12), Stations: []StationFigures{}}
	for i := range out.Months {
		out.Months[i].Month = i + 1
	}
	if len(stations) == 0 {
		return out, nil
	}
	ids := make([]int64, len(stations))
	for i, st := range stations {
		ids[i] = st.ID
	}
	plans, err := s.plans(ctx, ids, year)
	if err != nil {
		return Overview{}, httpapi.Internal(err)
	}
	for _, st := range stations {
		loc, err := time.LoadLocation(st.Timezone)
		if err != nil {
			loc = time.UTC
		}
		from := time.Date(year, 1, 1, 0, 0, 0, 0, loc)
		energy, err := s.Reader.StationEnergy(ctx, []int64{st.ID}, telemetry.Month, from, from.AddDate(1, 0, 0))
		if err != nil {
			return Overview{}, httpapi.Internal(err)
		}
		sf := StationFigures{StationID: st.ID, Name: st.Name}
		for _, p := range energy[st.ID] {
			m := p.Start.In(loc).Month()
			out.Months[m-1].ActualKWh += p.PVKWh
			sf.ActualKWh += p.PVKWh
		}
		for m, kwh := range plans[st.ID] {
			out.Months[m-1].PlanKWh += kwh
			sf.PlanKWh += kwh
			sf.PlanToDateKWh += kwh * elapsed(year, m, s.now().In(loc))
		}
		sf.PlanKWh, sf.ActualKWh, sf.PlanToDateKWh = r3(sf.PlanKWh), r3(sf.ActualKWh), r3(sf.PlanToDateKWh)
		sf.Completion = completion(sf.ActualKWh, sf.PlanKWh)
		sf.CompletionToDate = completion(sf.ActualKWh, sf.PlanToDateKWh)
		out.PlanToDateKWh += sf.PlanToDateKWh
		out.Stations = append(out.Stations, sf)
		out.PlanKWh += sf.PlanKWh
		out.ActualKWh += sf.ActualKWh
	}
	for i := range out.Months {
		m := &out.Months[i]
		m.PlanKWh, m.ActualKWh = r3(m.PlanKWh), r3(m.ActualKWh)
		m.Completion = completion(m.ActualKWh, m.PlanKWh)
	}
	out.PlanKWh, out.ActualKWh, out.PlanToDateKWh = r3(out.PlanKWh), r3(out.ActualKWh), r3(out.PlanToDateKWh)
	out.Completion = completion(out.ActualKWh, out.PlanKWh)
	out.CompletionToDate = completion(out.ActualKWh, out.PlanToDateKWh)
	sort.Slice(out.Stations, func(i, j int) bool { return out.Stations[i].Name < out.Stations[j].Name })
	return out, nil
}

// plans returns station → month → planned kWh, each station's own plan plus its
// sub-stations'.
func (s *Service) plans(ctx context.Context, ids []int64, year int) (map[int64]map[int]float64, error) {
	ph := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	args := []any{year}
	for _, id := range ids {
		args = append(args, id)
	}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := s.DB.Query(ctx, `SELECT p.station_id, COALESCE(st.parent_id, 0), p.month, p.plan_kwh FROM plans p
		JOIN stations st ON st.id = p.station_id
		WHERE p.year = ? AND (p.station_id IN (`+ph+`) OR st.parent_id IN (`+ph+`))`, args...)
	if err != nil {
		return nil, fmt.Errorf("plan: unable to read plans: %w", err)
	}
	defer rows.Close()
	listed := map[int64]bool{}
	for _, id := range ids {
		listed[id] = true
	}
	out := map[int64]map[int]float64{}
	add := func(id int64, m int, kwh float64) {
		if out[id] == nil {
			out[id] = map[int]float64{}
		}
		out[id][m] += kwh
	}
	for rows.Next() {
		var id, parent int64
		var m int
		var kwh float64
		if err := rows.Scan(&id, &parent, &m, &kwh); err != nil {
			return nil, err
		}
		if listed[id] {
			add(id, m, kwh)
		}
		if parent != 0 && listed[parent] {
			add(parent, m, kwh)
		}
	}
	return out, rows.Err()
}
