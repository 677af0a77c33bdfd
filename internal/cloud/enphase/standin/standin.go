// Package standin is an Enphase Monitoring API v4 of our own for tests: one developer
// application (API key, client id and secret) whose OAuth refresh tokens are good for one
// refresh each, the documented paths and JSON shapes (/api/v4/systems page by page,
// /systems/{system_id}/summary, /systems/{system_id}/telemetry/production_micro with
// start_at in epoch seconds and granularity 15mins, day or week), and the Watt plan's
// limits: it counts the application's calls per minute and per month and answers 429 with
// the period past either. Its made-up systems produce a sine between 06:00 and 18:00 local
// time; its clock is the test's.
//
// What the published documentation did not settle, and is chosen here:
//   - the interval length: the text says a day holds at most 288 five-minute intervals, its
//     example is 15 minutes apart; the stand-in answers 15-minute intervals (the client
//     takes whatever end_at says);
//   - whether token calls count against the plan (here they do not) and whether refused or
//     throttled calls do (here every API call with the application's key counts);
//   - the status and body of a refused refresh token (here 400 {"error":"invalid_grant"},
//     as OAuth 2.0 says; wrong client credentials answer 401) and of an unknown API key
//     (here 401 like an expired access token);
//   - that a start_at after the last interval answers an empty list and one more than two
//     years back answers 422, as the description says, with the example's 422 body;
//   - the minute window: whole clock minutes (the example's period_start and period_end
//     are 60 s apart on a minute boundary).
package standin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/cloud/enphase"
)

// System is one made-up system: Micros microinverters of MicroW peak each, producing from
// its first day.
type System struct {
	ID       int64
	Name     string
	TimeZone string
	Start    string // first day, YYYY-MM-DD local (operational_at is its midnight)
	Country  string
	Micros   int
	MicroW   float64
}

// Server is the stand-in.
type Server struct {
	Systems []System
	// The one application it knows.
	APIKey, ClientID, ClientSecret string
	Now                            func() time.Time
	// MinuteLimit and MonthLimit are the plan's calls (0: the Watt plan's 10 and 1,000;
	// MinuteLimit < 0: none).
	MinuteLimit, MonthLimit int
	// TokenLife is an access token's life (0: a day).
	TokenLife time.Duration

	mu      sync.Mutex
	refresh map[string]bool      // refresh tokens good for one refresh
	access  map[string]time.Time // access token → expiry
	calls   map[string]int       // "minute:…", "month:…", "day:…", "token:day" → calls
	paths   map[string]int       // path → calls, all days
	fail    int
	status  int
}

// issued numbers the tokens of every stand-in in the process.
var issued atomic.Int64

// Step is the interval length.
const Step = 15 * time.Minute

// Grant makes a refresh token good (the owner authorised the application).
func (s *Server) Grant(refreshToken string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	s.refresh[refreshToken] = true
}

// Revoke makes every token refused (the owner withdrew the application's access).
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refresh, s.access = map[string]bool{}, map[string]time.Time{}
}

// RefreshTokens are the refresh tokens good now.
func (s *Server) RefreshTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for t := range s.refresh {
		out = append(out, t)
	}
	return out
}

// FailNext makes the next n API calls answer status (e.g. 503).
func (s *Server) FailNext(n, status int) {
	s.mu.Lock()
	s.fail, s.status = n, status
	s.mu.Unlock()
}

// Calls is how many API calls the application made on the stand-in's current UTC day
// (refused and throttled ones included; token calls not).
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls["day:"+s.Now().UTC().Format("2006-01-02")]
}

// TokenCalls is how many token calls were made on the stand-in's current UTC day.
func (s *Server) TokenCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls["token:"+s.Now().UTC().Format("2006-01-02")]
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

func (s *Server) init() {
	if s.calls == nil {
		s.calls, s.paths = map[string]int{}, map[string]int{}
	}
	if s.refresh == nil {
		s.refresh, s.access = map[string]bool{}, map[string]time.Time{}
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.init()
	s.paths[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path == "/oauth/token" {
		s.token(w, r)
		return
	}
	if !strings.HasPrefix(r.URL.Path, enphase.APIPath+"/") {
		http.NotFound(w, r)
		return
	}
	if r.URL.Query().Get("key") != s.APIKey || s.APIKey == "" {
		writeError(w, enphase.ErrorAnswer{Message: "Not Authorized", Details: "Invalid API key", Code: 401})
		return
	}
	now := s.Now()
	s.mu.Lock()
	s.calls["day:"+now.UTC().Format("2006-01-02")]++
	s.calls["minute:"+now.UTC().Truncate(time.Minute).Format(time.RFC3339)]++
	s.calls["month:"+now.UTC().Format("2006-01")]++
	minute, month := s.calls["minute:"+now.UTC().Truncate(time.Minute).Format(time.RFC3339)], s.calls["month:"+now.UTC().Format("2006-01")]
	bearer := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	expires, known := s.access[bearer]
	failing := s.fail > 0
	if failing {
		s.fail--
	}
	status := s.status
	s.mu.Unlock()
	minuteLimit, monthLimit := s.MinuteLimit, s.MonthLimit
	if minuteLimit == 0 {
		minuteLimit = enphase.MinuteCalls
	}
	if monthLimit == 0 {
		monthLimit = enphase.MonthlyCalls
	}
	if !known || !now.Before(expires) {
		writeError(w, enphase.ErrorAnswer{Message: "Not Authorized", Details: "User is not authorized", Code: 401})
		return
	}
	if minuteLimit > 0 && minute > minuteLimit {
		start := now.UTC().Truncate(time.Minute)
		writeError(w, enphase.ErrorAnswer{Message: "Too Many Requests", Details: "Usage limit exceeded for plan Watt", Code: 429,
			Period: "minute", PeriodStart: start.Unix(), PeriodEnd: start.Add(time.Minute).Unix(), Limit: minuteLimit})
		return
	}
	if month > monthLimit {
		m := time.Date(now.UTC().Year(), now.UTC().Month(), 1, 0, 0, 0, 0, time.UTC)
		writeError(w, enphase.ErrorAnswer{Message: "Too Many Requests", Details: "Usage limit exceeded for plan Watt", Code: 429,
			Period: "month", PeriodStart: m.Unix(), PeriodEnd: m.AddDate(0, 1, 0).Unix(), Limit: monthLimit})
		return
	}
	if failing {
		http.Error(w, `{"message":"Internal Server Error","details":"unavailable","code":`+strconv.Itoa(status)+`}`, status)
		return
	}
	parts := strings.Split(strings.Trim(strings.TrimPrefix(r.URL.Path, enphase.APIPath), "/"), "/")
	switch {
	case len(parts) == 1 && parts[0] == "systems":
		s.systems(w, r)
	case len(parts) >= 3 && parts[0] == "systems":
		sys := s.system(parts[1])
		if sys == nil {
			writeError(w, enphase.ErrorAnswer{Message: "Not Found", Details: fmt.Sprintf("System not found for {:id=>%q}", parts[1]), Code: 404})
			return
		}
		switch strings.Join(parts[2:], "/") {
		case "summary":
			s.summary(w, sys)
		case "telemetry/production_micro":
			s.productionMicro(w, r, sys)
		default:
			http.NotFound(w, r)
		}
	default:
		http.NotFound(w, r)
	}
}

// token is POST /oauth/token?grant_type=refresh_token&refresh_token=… with the client id
// and secret as HTTP Basic credentials.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	now := s.Now()
	s.mu.Lock()
	s.calls["token:"+now.UTC().Format("2006-01-02")]++
	s.mu.Unlock()
	id, secret, ok := r.BasicAuth()
	if r.Method != "POST" || !ok || id != s.ClientID || secret != s.ClientSecret {
		writeJSON(w, http.StatusUnauthorized, enphase.TokenError{Error: "unauthorized", ErrorDescription: "Bad credentials"})
		return
	}
	q := r.URL.Query()
	if q.Get("grant_type") != "refresh_token" {
		writeJSON(w, http.StatusBadRequest, enphase.TokenError{Error: "unsupported_grant_type", ErrorDescription: "Unsupported grant type"})
		return
	}
	rt := q.Get("refresh_token")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.refresh[rt] {
		writeJSON(w, http.StatusBadRequest, enphase.TokenError{Error: "invalid_grant", ErrorDescription: "Invalid refresh token: " + rt})
		return
	}
	delete(s.refresh, rt) // each refresh token serves once
	n := issued.Add(1)    // unique across stand-ins, as a real token is
	life := s.TokenLife
	if life <= 0 {
		life = 24 * time.Hour
	}
	a := enphase.TokenAnswer{AccessToken: fmt.Sprintf("AT-%d", n), TokenType: "bearer",
		RefreshToken: fmt.Sprintf("RT-%d", n), ExpiresIn: int64(life / time.Second), Scope: "read write"}
	s.access[a.AccessToken] = now.Add(life)
	s.refresh[a.RefreshToken] = true
	writeJSON(w, http.StatusOK, a)
}

func writeError(w http.ResponseWriter, e enphase.ErrorAnswer) { writeJSON(w, e.Code, e) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
