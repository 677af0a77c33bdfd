// Package standin is an iSolarCloud OpenAPI of our own for tests: it serves the documented
// paths (/openapi/login, /openapi/getPowerStationList, /openapi/getDeviceList,
// /openapi/getDevicePointMinuteDataList) as POSTs of JSON with the x-access-key and
// sys_code headers and the appkey, lang and token body fields, answers in the
// {req_serial_num, result_code, result_msg, result_data} envelope, pages lists by curPage
// and size, and takes and gives "yyyyMMddHHmmss" plant-local times. Its plants' inverters
// report every five minutes. It counts calls per app key per hour and answers the rate
// limit past the hour's limit, refuses an unknown app or access key, logs in with a
// wrong password as login_state "0", answers an unknown or expired token with E00003,
// and a minute-data range over three hours with a parameter error. Its clock is the test's.
//
// What could not be confirmed from the published documentation, and is therefore shaped
// here as the documentation's other answers suggest:
//   - the result codes of a refused app or access key (E911 here), of the rate limit (E916,
//     er_request_frequency_limit) and of a bad parameter (E00002): the client recognises
//     them by their messages too, and HTTP 401/403/429;
//   - the hourly limit of 2,000 calls per app key, and that it is counted per clock hour;
//   - the login_state of a wrong password ("0") and of a locked account ("2");
//   - the three-hour limit of a minute-data call, its inclusive ends, and that points come
//     as strings in W, Wh, °C, V and Hz (p24 power, p2 total yield, p4 temperature, p5 MPPT 1
//     voltage, p18 phase A voltage, p27 frequency), unscaled;
//   - the largest page (100) of the plant and device lists;
//   - ps_current_time_zone as the plant's fixed offset ("GMT+8").
package standin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
)

// Inverter is one made-up inverter: it produces PeakW × a sine between 06:00 and 18:00
// local time, a reading every five minutes, from its plant's first day.
type Inverter struct {
	Serial, Name, Model string
	Channel             int // the ps_key's last part
	PeakW               float64
}

// Plant is one made-up plant.
type Plant struct {
	ID        int64
	Name      string
	Offset    int    // hours east of UTC
	Start     string // installation day, yyyy-MM-dd
	Inverters []Inverter
	Meter     bool // also lists a meter (device_type 7), which is no inverter
}

// PsKey is an inverter's ps_key.
func (p *Plant) PsKey(inv *Inverter) string { return fmt.Sprintf("%d_1_1_%d", p.ID, inv.Channel) }

func (p *Plant) loc() *time.Location {
	return time.FixedZone(fmt.Sprintf("GMT%+d", p.Offset), p.Offset*3600)
}

// Server is the stand-in.
type Server struct {
	Plants    []Plant
	AppKey    string
	AccessKey string
	Users     map[string]string // account → password
	Limit     int               // calls per app key per hour (0: isolarcloud.HourlyLimit)
	Now       func() time.Time

	mu     sync.Mutex
	hours  map[string]int // hour → calls
	days   map[string]int // UTC day → calls
	paths  map[string]int // path → calls, all days
	tokens map[string]string
	seq    int
	fail   int
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

// ExpireTokens forgets every token given: the next call with one is answered E00003.
func (s *Server) ExpireTokens() {
	s.mu.Lock()
	s.tokens = map[string]string{}
	s.mu.Unlock()
}

// Calls is how many calls the app key made on the stand-in's current UTC day (refused
// ones included).
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.days[s.Now().UTC().Format("2006-01-02")]
}

// PathCalls is how many calls named the path, all days.
func (s *Server) PathCalls(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[path]
}

// request is a call's body: the documented fields, numbers as numbers or strings.
type request struct {
	AppKey       string   `json:"appkey"`
	Lang         string   `json:"lang"`
	Token        string   `json:"token"`
	UserAccount  string   `json:"user_account"`
	UserPassword string   `json:"user_password"`
	CurPage      flexInt  `json:"curPage"`
	Size         flexInt  `json:"size"`
	PsID         flexText `json:"ps_id"`
	PsKeyList    []string `json:"ps_key_list"`
	Points       string   `json:"points"`
	Start        string   `json:"start_time_stamp"`
	End          string   `json:"end_time_stamp"`
	Interval     flexInt  `json:"minute_interval"`
}

type flexInt int

func (f *flexInt) UnmarshalJSON(b []byte) error {
	n, err := strconv.Atoi(strings.Trim(string(b), `"`))
	*f = flexInt(n)
	return err
}

type flexText string

func (f *flexText) UnmarshalJSON(b []byte) error {
	*f = flexText(strings.Trim(string(b), `"`))
	return nil
}

func (s *Server) answer(w http.ResponseWriter, code, msg string, data any) {
	s.mu.Lock()
	s.seq++
	serial := fmt.Sprintf("%032x", s.seq)
	s.mu.Unlock()
	raw, _ := json.Marshal(data)
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(isolarcloud.Answer{ReqSerialNum: serial, ResultCode: code, ResultMsg: msg, ResultData: raw})
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != "POST" {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Lang == "" {
		s.answer(w, isolarcloud.CodeParameter, isolarcloud.MsgParameter, nil)
		return
	}
	if req.AppKey != s.AppKey || r.Header.Get("sys_code") != isolarcloud.SysCode {
		s.answer(w, isolarcloud.CodeKeyRefused, isolarcloud.MsgInvalidAppKey, nil)
		return
	}
	if r.Header.Get("x-access-key") != s.AccessKey {
		s.answer(w, isolarcloud.CodeKeyRefused, isolarcloud.MsgInvalidAccess, nil)
		return
	}
	now := s.Now().UTC()
	s.mu.Lock()
	if s.hours == nil {
		s.hours, s.days, s.paths = map[string]int{}, map[string]int{}, map[string]int{}
	}
	if s.tokens == nil {
		s.tokens = map[string]string{}
	}
	hour := now.Format("2006-01-02T15")
	s.hours[hour]++
	s.days[now.Format("2006-01-02")]++
	s.paths[r.URL.Path]++
	used, limit := s.hours[hour], s.Limit
	failing := s.fail > 0
	if failing {
		s.fail--
	}
	status := s.status
	account, known := s.tokens[req.Token]
	s.mu.Unlock()
	if limit == 0 {
		limit = isolarcloud.HourlyLimit
	}
	if used > limit {
		s.answer(w, isolarcloud.CodeRateLimit, isolarcloud.MsgRateLimit, nil)
		return
	}
	if failing {
		http.Error(w, "unavailable", status)
		return
	}
	if r.URL.Path == isolarcloud.PathLogin {
		s.login(w, req)
		return
	}
	if !known || s.Users[account] == "" {
		s.answer(w, isolarcloud.CodeTokenInvalid, isolarcloud.MsgTokenInvalid, nil)
		return
	}
	switch r.URL.Path {
	case isolarcloud.PathStations:
		s.stations(w, req)
	case isolarcloud.PathDevices:
		s.devices(w, req)
	case isolarcloud.PathMinuteData:
		s.minuteData(w, req)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) login(w http.ResponseWriter, req request) {
	var a isolarcloud.LoginAnswer
	a.UserAccount = req.UserAccount
	pw, ok := s.Users[req.UserAccount]
	if !ok || pw != req.UserPassword {
		a.LoginState, a.ErrTimes = "0", "1"
		s.answer(w, isolarcloud.CodeSuccess, "success", a)
		return
	}
	s.mu.Lock()
	s.seq++
	token := fmt.Sprintf("505120_%032x", s.seq*7919)
	s.tokens[token] = req.UserAccount
	s.mu.Unlock()
	a.Token, a.UserID, a.LoginState, a.ErrTimes = &token, "505120", "1", "0"
	s.answer(w, isolarcloud.CodeSuccess, "success", a)
}

// page checks curPage and size and answers the slice bounds.
func page(req request, n int) (from, to int, ok bool) {
	if req.CurPage < 1 || req.Size < 1 || req.Size > 100 {
		return 0, 0, false
	}
	from = min(int(req.CurPage-1)*int(req.Size), n)
	return from, min(from+int(req.Size), n), true
}
