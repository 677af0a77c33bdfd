// Package standin is a Huawei FusionSolar Northbound API ("thirdData") of our own for
// tests. It serves POST /thirdData/login, /thirdData/stations, /thirdData/getDevList and
// /thirdData/getDevFiveMinutes with the documented JSON bodies and the answer envelope
// {success, failCode, data, params, message}; the login answers the session token in an
// xsrf-token header and an XSRF-TOKEN cookie, and every other call must carry it in an
// XSRF-TOKEN header. Its made-up plants' inverters report every five minutes; times are
// epoch milliseconds and a day is the plant's local day. Its clock is the test's.
//
// Answers: a wrong user name or system code failCode 20400; no token, an unknown one or
// one unused for 30 minutes failCode 305 (USER_MUST_RELOGIN); past an interface's daily
// allowance failCode 407 (ACCESS_FREQUENCY_IS_TOO_HIGH). The allowances are the ones
// Huawei documents: Roundup(plants ÷ 100) + 24 calls a day for the plant and device lists,
// Roundup(devices of the type ÷ 10) + 24 for the five-minute history.
//
// What could not be confirmed from the published documentation, and is chosen here as
// the documentation's shapes suggest:
//   - the failCodes of a refused login (20400 here; the client also takes 20001–20003 and
//     20056 as refusals) and that failures come with HTTP 200;
//   - whether the token expires 30 minutes after the login or after its last use (after
//     the last use here), and whether the login call has an allowance of its own (none);
//   - the day the allowances count in (the UTC day here);
//   - the unit of the plant list's capacity (kWp here) and that gridConnectionDate carries
//     the plant's UTC offset (RFC 3339);
//   - that the five-minute history lists every five minutes of the day, night included,
//     and that collectTime may be any instant of the day asked for;
//   - the pageSize default of /thirdData/stations (100, the documented largest page).
package standin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	"github.com/helio-energy/helio/internal/cloud/madeup"
)

// Inverter is one made-up inverter: it produces PeakW × a sine between 06:00 and 18:00
// local time, a reading every five minutes, from its plant's first day.
type Inverter struct {
	ID                int64
	Serial, Name, Inv string
	PeakW             float64
	// FaultFrom..FaultTo (local clock, any day) it reports inverter_state 768 and no power.
	FaultFrom, FaultTo time.Time
}

// Plant is one made-up plant.
type Plant struct {
	Code      string
	Name      string
	TimeZone  string // IANA; gridConnectionDate carries its offset
	Start     string // grid connection day, YYYY-MM-DD
	Inverters []Inverter
}

// Server is the stand-in.
type Server struct {
	Plants   []Plant
	Accounts map[string]string // userName → systemCode
	// DataLimit replaces the documented five-minute allowance when not 0.
	DataLimit int
	Now       func() time.Time

	mu      sync.Mutex
	tokens  map[string]session
	seq     int
	calls   map[string]int // userName + "/" + UTC day → calls
	perPath map[string]int // userName + path + UTC day → calls
	paths   map[string]int // path → calls, all accounts, all days
	fail    int
	status  int
}

type session struct {
	user string
	last time.Time
}

// Step is the reading interval; TokenLife how long an unused session lasts.
const (
	Step      = 5 * time.Minute
	TokenLife = 30 * time.Minute
)

// FailNext makes the next n calls answer status (e.g. 503).
func (s *Server) FailNext(n, status int) {
	s.mu.Lock()
	s.fail, s.status = n, status
	s.mu.Unlock()
}

// Calls is how many calls user made on the stand-in's current UTC day (refused ones included).
func (s *Server) Calls(user string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[user+"/"+s.Now().UTC().Format("2006-01-02")]
}

// PathCalls is how many calls named path, all accounts, all days.
func (s *Server) PathCalls(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[path]
}

// Expire ends every session (the next call answers 305).
func (s *Server) Expire() {
	s.mu.Lock()
	s.tokens = nil
	s.mu.Unlock()
}

type envelope struct {
	Success  bool           `json:"success"`
	FailCode int            `json:"failCode"`
	Data     any            `json:"data"`
	Params   map[string]any `json:"params"`
	Message  *string        `json:"message"`
}

func answer(w http.ResponseWriter, data any) {
	writeJSON(w, envelope{Success: true, Data: data, Params: map[string]any{"currentTime": 0}})
}

func refuse(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, envelope{FailCode: code, Data: msg, Message: &msg})
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != "POST" || !strings.HasPrefix(r.URL.Path, "/thirdData/") {
		http.NotFound(w, r)
		return
	}
	now := s.Now()
	day := now.UTC().Format("2006-01-02")
	s.mu.Lock()
	if s.calls == nil {
		s.calls, s.perPath, s.paths = map[string]int{}, map[string]int{}, map[string]int{}
	}
	if s.tokens == nil {
		s.tokens = map[string]session{}
	}
	s.paths[r.URL.Path]++
	failing := s.fail > 0
	if failing {
		s.fail--
	}
	status := s.status
	s.mu.Unlock()
	if failing {
		http.Error(w, "unavailable", status)
		return
	}
	if r.URL.Path == "/thirdData/login" {
		var in fusionsolar.LoginRequest
		_ = json.NewDecoder(r.Body).Decode(&in)
		s.mu.Lock()
		s.calls[in.UserName+"/"+day]++
		code, ok := s.Accounts[in.UserName]
		if !ok || code != in.SystemCode || code == "" {
			s.mu.Unlock()
			refuse(w, fusionsolar.CodeBadLogin, "USER_OR_VALUE_INVALID")
			return
		}
		s.seq++
		token := fmt.Sprintf("x-%d-%d", s.seq, now.UnixNano()%100000)
		s.tokens[token] = session{user: in.UserName, last: now}
		s.mu.Unlock()
		w.Header().Set("xsrf-token", token)
		http.SetCookie(w, &http.Cookie{Name: "XSRF-TOKEN", Value: token, Path: "/"})
		answer(w, nil)
		return
	}
	s.mu.Lock()
	token := r.Header.Get(fusionsolar.TokenHeader)
	sess, ok := s.tokens[token]
	if !ok || now.Sub(sess.last) > TokenLife {
		delete(s.tokens, token)
		s.mu.Unlock()
		refuse(w, fusionsolar.CodeRelogin, "USER_MUST_RELOGIN")
		return
	}
	if _, still := s.Accounts[sess.user]; !still { // the account was removed meanwhile
		delete(s.tokens, token)
		s.mu.Unlock()
		refuse(w, fusionsolar.CodeRelogin, "USER_MUST_RELOGIN")
		return
	}
	sess.last = now
	s.tokens[token] = sess
	s.calls[sess.user+"/"+day]++
	key := sess.user + r.URL.Path + day
	s.perPath[key]++
	used := s.perPath[key]
	s.mu.Unlock()
	if used > s.allowance(r.URL.Path) {
		refuse(w, fusionsolar.CodeFrequency, "ACCESS_FREQUENCY_IS_TOO_HIGH")
		return
	}
	switch r.URL.Path {
	case "/thirdData/stations":
		s.stations(w, r)
	case "/thirdData/getDevList":
		s.devList(w, r)
	case "/thirdData/getDevFiveMinutes":
		s.fiveMinutes(w, r)
	default:
		http.NotFound(w, r)
	}
}

// allowance is an interface's calls a day, as documented.
func (s *Server) allowance(path string) int {
	devices := 0
	for _, p := range s.Plants {
		devices += len(p.Inverters)
	}
	switch path {
	case "/thirdData/getDevFiveMinutes":
		if s.DataLimit > 0 {
			return s.DataLimit
		}
		return (devices+9)/10 + 24
	default:
		return (len(s.Plants)+99)/100 + 24
	}
}

func (s *Server) stations(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PageNo   int `json:"pageNo"`
		PageSize int `json:"pageSize"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.PageNo < 1 || in.PageSize < 0 || in.PageSize > 100 {
		refuse(w, 20010, "pageNo is required; pageSize is 1..100")
		return
	}
	size := in.PageSize
	if size == 0 {
		size = 100
	}
	page := fusionsolar.StationsPage{List: []fusionsolar.Plant{}, PageNo: in.PageNo, PageSize: size, Total: len(s.Plants),
		PageCount: (len(s.Plants) + size - 1) / size}
	for i := (in.PageNo - 1) * size; i < len(s.Plants) && i < in.PageNo*size; i++ {
		p := &s.Plants[i]
		capacity := 0.0
		for _, inv := range p.Inverters {
			capacity += inv.PeakW / 1000
		}
		start, _ := time.ParseInLocation("2006-01-02", p.Start, p.loc())
		page.List = append(page.List, fusionsolar.Plant{PlantCode: p.Code, PlantName: p.Name, PlantAddress: "Sonnenweg 1",
			Capacity: capacity, GridConnectionDate: start.Add(10 * time.Hour).Format(time.RFC3339), Latitude: 48.1, Longitude: 11.6})
	}
	answer(w, page)
}

func (s *Server) devList(w http.ResponseWriter, r *http.Request) {
	var in fusionsolar.DevListRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.StationCodes == "" {
		refuse(w, 20010, "stationCodes is required")
		return
	}
	codes := strings.Split(in.StationCodes, ",")
	if len(codes) > 100 {
		refuse(w, 20010, "at most 100 plants")
		return
	}
	out := []fusionsolar.Device{}
	for _, code := range codes {
		p := s.plant(code)
		if p == nil {
			continue
		}
		for _, inv := range p.Inverters {
			out = append(out, fusionsolar.Device{ID: inv.ID, DevDn: "NE=" + strconv.FormatInt(inv.ID%100000000, 10), DevName: inv.Name,
				DevTypeID: fusionsolar.TypeStringInverter, EsnCode: inv.Serial, InvType: inv.Inv, StationCode: p.Code, SoftwareVersion: "V100R001C00"})
		}
		// a plant's dongle: listed, not an inverter
		out = append(out, fusionsolar.Device{ID: 9000 + int64(len(out)), DevName: "Dongle", DevTypeID: 62, EsnCode: "DONGLE-" + p.Code, StationCode: p.Code})
	}
	answer(w, out)
}

func (s *Server) plant(code string) *Plant {
	for i := range s.Plants {
		if s.Plants[i].Code == code {
			return &s.Plants[i]
		}
	}
	return nil
}

func (p *Plant) loc() *time.Location {
	l, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return time.UTC
	}
	return l
}

// fiveMinutes serves the local day holding collectTime for up to 10 devices of one type.
func (s *Server) fiveMinutes(w http.ResponseWriter, r *http.Request) {
	var in struct {
		DevIDs      string          `json:"devIds"`
		DevTypeID   json.Number     `json:"devTypeId"`
		CollectTime json.RawMessage `json:"collectTime"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		refuse(w, 20010, "unreadable body")
		return
	}
	ms, err := strconv.ParseInt(strings.Trim(string(in.CollectTime), `"`), 10, 64)
	ids := strings.Split(in.DevIDs, ",")
	if err != nil || ms < 1e11 || in.DevIDs == "" || len(ids) > 10 || in.DevTypeID.String() != "1" {
		refuse(w, 20010, "devIds (at most 10), devTypeId and collectTime (ms) are required")
		return
	}
	out := []fusionsolar.FiveMinutes{}
	for _, id := range ids {
		for pi := range s.Plants {
			p := &s.Plants[pi]
			for ii := range p.Inverters {
				inv := &p.Inverters[ii]
				if strconv.FormatInt(inv.ID, 10) != id {
					continue
				}
				lt := time.UnixMilli(ms).In(p.loc())
				day := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, p.loc())
				s.readings(p, inv, day, day.AddDate(0, 0, 1).Add(-time.Millisecond), func(at time.Time, pw, wh float64, state int) {
					item := map[string]any{"active_power": pw / 1000, "total_cap": wh / 1000, "temperature": 25 + pw/1000,
						"inverter_state": state, "pv1_u": 0.0, "a_u": 230.0, "elec_freq": 50.0, "day_cap": nil}
					if pw > 0 {
						item["pv1_u"] = 380 + pw/100
					}
					out = append(out, fusionsolar.FiveMinutes{DevID: inv.ID, CollectTime: at.UnixMilli(), DataItemMap: item})
				})
			}
		}
	}
	answer(w, out)
}

// readings calls fn for each five-minute reading of inv in [from, to], not after now.
func (s *Server) readings(p *Plant, inv *Inverter, from, to time.Time, fn func(at time.Time, w, wh float64, state int)) {
	loc := p.loc()
	first, err := time.ParseInLocation("2006-01-02", p.Start, loc)
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
		state := 512 // on-grid
		switch {
		case inv.faulty(lt):
			state = 768 // shutdown: fault
		case w == 0:
			state = 40960 // standby: no irradiation
		}
		fn(t, w, wh, state)
	}
}

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

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(v)
}
