package standin

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/cloud/enphase"
)

// The stand-in's data: its systems, their intervals and the answers that carry them.

func (s *Server) systems(w http.ResponseWriter, r *http.Request) {
	page, size := 1, 10
	var err1, err2 error
	if v := r.URL.Query().Get("page"); v != "" {
		page, err1 = strconv.Atoi(v)
	}
	if v := r.URL.Query().Get("size"); v != "" {
		size, err2 = strconv.Atoi(v)
	}
	if err1 != nil || err2 != nil || page < 1 || size < 1 || size > 100 {
		writeError(w, enphase.ErrorAnswer{Message: "Unprocessable Entity", Details: "page must be at least 1, size 1 to 100", Code: 422})
		return
	}
	a := enphase.SystemsAnswer{Total: len(s.Systems), CurrentPage: page, Size: size, Items: "systems", Systems: []enphase.System{}}
	for i := (page - 1) * size; i < len(s.Systems) && i < page*size; i++ {
		sys := &s.Systems[i]
		first := sys.first()
		a.Systems = append(a.Systems, enphase.System{SystemID: sys.ID, Name: sys.Name, PublicName: "Residential System",
			TimeZone: sys.TimeZone, Address: enphase.Address{City: "Sydney", State: "NSW", Country: sys.Country, PostalCode: "2127"},
			ConnectionType: "ethernet", Status: "normal", LastReportAt: s.Now().Unix(), LastEnergyAt: s.Now().Truncate(Step).Unix(),
			OperationalAt: first.Unix(), EnergyLifetime: -1, EnergyToday: -1, SystemSize: -1})
	}
	a.Count = len(a.Systems)
	writeJSON(w, http.StatusOK, a)
}

func (s *Server) system(id string) *System {
	for i := range s.Systems {
		if strconv.FormatInt(s.Systems[i].ID, 10) == id {
			return &s.Systems[i]
		}
	}
	return nil
}

func (sys *System) loc() *time.Location {
	l, err := time.LoadLocation(sys.TimeZone)
	if err != nil {
		return time.UTC
	}
	return l
}

// first is the local midnight of the system's first day.
func (sys *System) first() time.Time {
	t, err := time.ParseInLocation("2006-01-02", sys.Start, sys.loc())
	if err != nil {
		return time.Unix(0, 0)
	}
	return t
}

// Interval is the system's interval ending at end (on the Step grid).
func (sys *System) Interval(end time.Time) enphase.Interval {
	lt := end.Add(-Step / 2).In(sys.loc()) // the interval's middle
	h := float64(lt.Hour()) + float64(lt.Minute())/60 + float64(lt.Second())/3600
	w := 0.0
	if h > 6 && h < 18 {
		w = float64(sys.Micros) * sys.MicroW * math.Sin(math.Pi*(h-6)/12)
	}
	powr := int64(math.Round(w))
	reporting := 0
	if powr > 0 {
		reporting = sys.Micros
	}
	return enphase.Interval{EndAt: end.Unix(), DevicesReporting: reporting, Powr: powr,
		Enwh: int64(math.Round(float64(powr) * Step.Hours()))}
}

// EnergyWh is the system's production from its first day to t.
func (sys *System) EnergyWh(t time.Time) int64 {
	var wh int64
	for e := sys.first().Add(Step); !e.After(t); e = e.Add(Step) {
		wh += sys.Interval(e).Enwh
	}
	return wh
}

func (s *Server) summary(w http.ResponseWriter, sys *System) {
	now := s.Now()
	lt := now.In(sys.loc())
	mid := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, sys.loc())
	last := now.Truncate(Step)
	total := sys.EnergyWh(now)
	writeJSON(w, http.StatusOK, enphase.SummaryAnswer{SystemID: sys.ID, CurrentPower: sys.Interval(last).Powr,
		EnergyLifetime: total, EnergyToday: total - sys.EnergyWh(mid), LastIntervalEndAt: last.Unix(), LastReportAt: now.Unix(),
		Modules: sys.Micros, OperationalAt: sys.first().Unix(), SizeW: int64(float64(sys.Micros) * sys.MicroW),
		Source: "microinverters", Status: "normal", SummaryDate: lt.Format("2006-01-02")})
}

// productionMicro serves the intervals ending in (start, min(now, start + granularity)].
func (s *Server) productionMicro(w http.ResponseWriter, r *http.Request, sys *System) {
	now := s.Now()
	q := r.URL.Query()
	loc := sys.loc()
	lt := now.In(loc)
	start := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, loc) // default: midnight today
	if v := q.Get("start_at"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeError(w, enphase.ErrorAnswer{Message: "Internal Server Error", Details: "Problem parsing time", Code: 500})
			return
		}
		start = time.Unix(n, 0)
	}
	span := map[string]time.Duration{"": 24 * time.Hour, "day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "15mins": Step}[q.Get("granularity")]
	if span == 0 {
		writeError(w, enphase.ErrorAnswer{Message: "Unprocessable Entity", Details: "granularity must be 15mins, day or week", Code: 422})
		return
	}
	if start.Before(now.AddDate(-2, 0, 0)) || start.After(now) {
		writeError(w, enphase.ErrorAnswer{Message: "Unprocessable Entity", Code: 422,
			Details: fmt.Sprintf("Invalid request because of 'Requested date range is invalid for this system'. {:start_at=>%d}", start.Unix())})
		return
	}
	if first := sys.first(); start.Before(first) {
		start = first
	}
	end := start.Add(span)
	if end.After(now) {
		end = now
	}
	a := enphase.ProductionMicroAnswer{SystemID: sys.ID, Granularity: q.Get("granularity"), TotalDevices: sys.Micros,
		StartAt: start.Unix(), EndAt: end.Unix(), Items: "intervals", Intervals: []enphase.Interval{},
		Meta: enphase.Meta{Status: "normal", LastReportAt: now.Unix(), LastEnergyAt: now.Truncate(Step).Unix(), OperationalAt: sys.first().Unix()}}
	if a.Granularity == "" {
		a.Granularity = "day"
	}
	e := start.Truncate(Step)
	if !e.After(start) {
		e = e.Add(Step)
	}
	for ; !e.After(end); e = e.Add(Step) {
		a.Intervals = append(a.Intervals, sys.Interval(e))
	}
	writeJSON(w, http.StatusOK, a)
}
