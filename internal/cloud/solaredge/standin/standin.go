// Package standin is a SolarEdge Monitoring Server API of our own for tests: it serves the
// documented paths, JSON shapes, paging and "YYYY-MM-DD hh:mm:ss" local times from a fleet of
// made-up sites whose inverters report every five minutes, counts calls per key per day
// and answers 429 past the day's quota, 403 to an unknown key and 400 to a range longer
// than the call allows. Its clock is the test's.
package standin

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud/madeup"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
)

// Inverter is one made-up inverter: it produces PeakW × a sine between 06:00 and 18:00
// local time, a reading every five minutes, from its site's first day.
type Inverter struct {
	Serial, Name, Model string
	PeakW               float64
	// FaultFrom..FaultTo (local clock, any day) it reports inverterMode FAULT and no power.
	FaultFrom, FaultTo time.Time
}

// Site is one made-up site.
type Site struct {
	ID        int64
	Name      string
	TimeZone  string
	Start     string // first day of data, YYYY-MM-DD
	Inverters []Inverter
}

// Server is the stand-in.
type Server struct {
	Sites  []Site
	Keys   map[string]bool // keys it accepts
	Budget int             // calls per key per day (0: solaredge.DailyBudget)
	Now    func() time.Time

	mu     sync.Mutex
	calls  map[string]int // key + "/" + UTC day → calls
	paths  map[string]int // path → calls, all keys, all days
	fail   int            // the next fail calls answer failStatus
	status int
}

// Step is the reading interval.
const Step = 5 * time.Minute

// FailNext makes the next n calls answer status (e.g. 503).
func (s *Server) FailNext(n, status int) {
	s.mu.Lock()
	s.fail, s.status = n, status
	s.mu.Unlock()
}

// Calls is how many calls key made on the stand-in's current day (refused ones included).
func (s *Server) Calls(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[key+"/"+s.Now().UTC().Format("2006-01-02")]
}

// PathCalls is how many calls named a path starting with prefix, all days.
func (s *Server) PathCalls(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, c := range s.paths {
		if strings.HasPrefix(p, prefix) {
			n += c
		}
	}
	return n
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Query().Get("api_key")
	if !s.Keys[key] {
		http.Error(w, `{"String":"Invalid token"}`, http.StatusForbidden)
		return
	}
	s.mu.Lock()
	if s.calls == nil {
		s.calls, s.paths = map[string]int{}, map[string]int{}
	}
	day := key + "/" + s.Now().UTC().Format("2006-01-02")
	s.calls[day]++
	s.paths[r.URL.Path]++
	used, budget := s.calls[day], s.Budget
	failing := s.fail > 0
	if failing {
		s.fail--
	}
	status := s.status
	s.mu.Unlock()
	if budget == 0 {
		budget = solaredge.DailyBudget
	}
	if used > budget {
		http.Error(w, `{"String":"Too many requests"}`, http.StatusTooManyRequests)
		return
	}
	if failing {
		http.Error(w, "unavailable", status)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "sites" && parts[1] == "list":
		s.sitesList(w, r)
	case len(parts) == 3 && parts[0] == "site":
		site := s.site(parts[1])
		if site == nil {
			http.Error(w, "no such site", http.StatusForbidden)
			return
		}
		switch parts[2] {
		case "details":
			writeJSON(w, solaredge.DetailsAnswer{Details: info(site)})
		case "dataPeriod":
			var a solaredge.DataPeriodAnswer
			a.DataPeriod.StartDate, a.DataPeriod.EndDate = site.Start, s.Now().In(site.loc()).Format(solaredge.DateLayout)
			writeJSON(w, a)
		case "power":
			s.power(w, r, site)
		case "energy":
			s.energy(w, r, site)
		default:
			http.NotFound(w, r)
		}
	case len(parts) == 3 && parts[0] == "equipment" && parts[2] == "list":
		site := s.site(parts[1])
		if site == nil {
			http.Error(w, "no such site", http.StatusForbidden)
			return
		}
		var a solaredge.EquipmentAnswer
		for _, inv := range site.Inverters {
			a.Reporters.List = append(a.Reporters.List, solaredge.Reporter{Name: inv.Name, Manufacturer: "SolarEdge",
				Model: inv.Model, SerialNumber: inv.Serial})
		}
		a.Reporters.Count = len(a.Reporters.List)
		writeJSON(w, a)
	case len(parts) == 4 && parts[0] == "equipment" && parts[3] == "data":
		site := s.site(parts[1])
		if site == nil {
			http.Error(w, "no such site", http.StatusForbidden)
			return
		}
		s.equipmentData(w, r, site, parts[2])
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) sitesList(w http.ResponseWriter, r *http.Request) {
	size, start := 100, 0
	if v := r.URL.Query().Get("size"); v != "" {
		size, _ = strconv.Atoi(v)
	}
	if v := r.URL.Query().Get("startIndex"); v != "" {
		start, _ = strconv.Atoi(v)
	}
	if size < 1 || size > 100 || start < 0 {
		http.Error(w, "size must be 1..100", http.StatusBadRequest)
		return
	}
	var a solaredge.SitesAnswer
	a.Sites.Count = len(s.Sites)
	a.Sites.Site = []solaredge.SiteInfo{}
	for i := start; i < len(s.Sites) && i < start+size; i++ {
		a.Sites.Site = append(a.Sites.Site, info(&s.Sites[i]))
	}
	writeJSON(w, a)
}

func info(site *Site) solaredge.SiteInfo {
	i := solaredge.SiteInfo{ID: site.ID, Name: site.Name, Status: "Active", InstallationDate: site.Start, Type: "Optimizers & Inverters"}
	for _, inv := range site.Inverters {
		i.PeakPower += inv.PeakW / 1000
	}
	i.Location.TimeZone, i.Location.Country, i.Location.CountryCode, i.Location.Address = site.TimeZone, "Germany", "DE", "Sonnenweg 1"
	i.Currency = "EUR"
	return i
}

func (s *Server) site(id string) *Site {
	for i := range s.Sites {
		if strconv.FormatInt(s.Sites[i].ID, 10) == id {
			return &s.Sites[i]
		}
	}
	return nil
}

func (site *Site) loc() *time.Location {
	l, err := time.LoadLocation(site.TimeZone)
	if err != nil {
		return time.UTC
	}
	return l
}

// timeRange reads startTime and endTime (local, inclusive) and checks the span.
func (s *Server) timeRange(w http.ResponseWriter, r *http.Request, site *Site, span time.Duration) (from, to time.Time, ok bool) {
	loc := site.loc()
	from, err1 := time.ParseInLocation(solaredge.TimeLayout, r.URL.Query().Get("startTime"), loc)
	to, err2 := time.ParseInLocation(solaredge.TimeLayout, r.URL.Query().Get("endTime"), loc)
	if err1 != nil || err2 != nil || to.Before(from) {
		http.Error(w, "startTime and endTime: yyyy-MM-dd hh:mm:ss", http.StatusBadRequest)
		return from, to, false
	}
	if to.Sub(from) > span {
		http.Error(w, "the requested range is too long", http.StatusForbidden)
		return from, to, false
	}
	return from, to, true
}

// readings calls fn for each five-minute reading of inv in [from, to], not after now.
func (s *Server) readings(site *Site, inv *Inverter, from, to time.Time, fn func(at time.Time, w, wh float64, mode string)) {
	loc := site.loc()
	first, err := time.ParseInLocation(solaredge.DateLayout, site.Start, loc)
	if err != nil {
		return
	}
	if now := s.Now(); to.After(now) {
		to = now
	}
	if from.Before(first) {
		from = first
	}
	// the counter: whole local days since the first one, then the readings of this day
	t := from.Truncate(Step)
	if t.Before(from) {
		t = t.Add(Step)
	}
	for ; !t.After(to); t = t.Add(Step) {
		lt := t.In(loc)
		minute := lt.Hour()*60 + lt.Minute()
		wh := madeup.CounterWh(inv.PeakW, first, lt)
		w := inv.power(minute, lt)
		mode := "MPPT"
		switch {
		case inv.faulty(lt):
			mode = "FAULT"
		case w == 0:
			mode = "SLEEPING"
		}
		fn(t, w, wh, mode)
	}
}

// power is the output in W at a minute of the local day; at a fault (lt given) none is
// reported, though the counter is kept as if it ran, so history stays whole.
func (inv *Inverter) power(minute int, lt time.Time) float64 {
	if !lt.IsZero() && inv.faulty(lt) {
		return 0
	}
	return madeup.PowerW(inv.PeakW, minute)
}

func (inv *Inverter) faulty(lt time.Time) bool {
	if inv.FaultFrom.IsZero() {
		return false
	}
	c := lt.Hour()*60 + lt.Minute()
	return c >= inv.FaultFrom.Hour()*60+inv.FaultFrom.Minute() && c < inv.FaultTo.Hour()*60+inv.FaultTo.Minute()
}

func (s *Server) equipmentData(w http.ResponseWriter, r *http.Request, site *Site, serial string) {
	var inv *Inverter
	for i := range site.Inverters {
		if site.Inverters[i].Serial == serial {
			inv = &site.Inverters[i]
		}
	}
	if inv == nil {
		http.Error(w, "no such equipment", http.StatusForbidden)
		return
	}
	from, to, ok := s.timeRange(w, r, site, solaredge.EquipmentSpan)
	if !ok {
		return
	}
	var a solaredge.EquipmentDataAnswer
	a.Data.Telemetries = []solaredge.Telemetry{}
	loc := site.loc()
	s.readings(site, inv, from, to, func(at time.Time, pw, wh float64, mode string) {
		dc := 0.0
		if pw > 0 {
			dc = 380 + pw/100
		}
		a.Data.Telemetries = append(a.Data.Telemetries, solaredge.Telemetry{Date: at.In(loc).Format(solaredge.TimeLayout),
			TotalActivePower: pw, DCVoltage: &dc, PowerLimit: 100, TotalEnergy: wh, Temperature: 25 + pw/1000,
			InverterMode: mode, L1Data: &solaredge.Phase{ACVoltage: 230, ACFrequency: 50, ActivePower: pw}})
	})
	a.Data.Count = len(a.Data.Telemetries)
	writeJSON(w, a)
}

// power serves the site's quarter-hour power: the mean of the inverters' readings.
func (s *Server) power(w http.ResponseWriter, r *http.Request, site *Site) {
	from, to, ok := s.timeRange(w, r, site, solaredge.PowerSpan)
	if !ok {
		return
	}
	sums := map[time.Time]float64{}
	for i := range site.Inverters {
		s.readings(site, &site.Inverters[i], from, to, func(at time.Time, pw, _ float64, _ string) {
			sums[at.Truncate(15*time.Minute)] += pw / 3
		})
	}
	var a solaredge.PowerAnswer
	a.Power.TimeUnit, a.Power.Unit = "QUARTER_OF_AN_HOUR", "W"
	loc := site.loc()
	for t := from.Truncate(15 * time.Minute); !t.After(to); t = t.Add(15 * time.Minute) {
		v := solaredge.PowerValue{Date: t.In(loc).Format(solaredge.TimeLayout)}
		if x, ok := sums[t]; ok {
			v.Value = &x
		}
		a.Power.Values = append(a.Power.Values, v)
	}
	writeJSON(w, a)
}

// energy serves daily energy (timeUnit=DAY, at most a year) in Wh.
func (s *Server) energy(w http.ResponseWriter, r *http.Request, site *Site) {
	loc := site.loc()
	from, err1 := time.ParseInLocation(solaredge.DateLayout, r.URL.Query().Get("startDate"), loc)
	to, err2 := time.ParseInLocation(solaredge.DateLayout, r.URL.Query().Get("endDate"), loc)
	if err1 != nil || err2 != nil || r.URL.Query().Get("timeUnit") != "DAY" {
		http.Error(w, "startDate, endDate (yyyy-MM-dd) and timeUnit=DAY", http.StatusBadRequest)
		return
	}
	if to.Sub(from) > 366*24*time.Hour {
		http.Error(w, "the requested range is too long", http.StatusForbidden)
		return
	}
	var a solaredge.EnergyAnswer
	a.Energy.TimeUnit, a.Energy.Unit = "DAY", "Wh"
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		sum, any := 0.0, false
		for i := range site.Inverters {
			s.readings(site, &site.Inverters[i], d, d.AddDate(0, 0, 1).Add(-time.Second), func(_ time.Time, pw, _ float64, _ string) {
				sum += pw * 5 / 60
				any = true
			})
		}
		v := solaredge.PowerValue{Date: d.Format(solaredge.TimeLayout)}
		if any {
			v.Value = &sum
		}
		a.Energy.Values = append(a.Energy.Values, v)
	}
	writeJSON(w, a)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(v)
}
