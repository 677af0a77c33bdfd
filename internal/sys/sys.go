// Package sys serves the console's system calls: the server-provided menu, external
// URLs, health and readiness, metrics and the OpenAPI document.
package sys

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
)

// Readiness tracks start-up work; /readyz answers 200 only when it is done.
type Readiness struct {
	mu       sync.Mutex
	phase    string
	progress float64
	detail   string
	ready    bool
	started  time.Time
}

// NewReadiness starts in the "starting" phase.
func NewReadiness() *Readiness { return &Readiness{phase: "starting", started: time.Now()} }

// Set records the current phase and its progress (0..1).
func (r *Readiness) Set(phase string, progress float64, detail string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phase, r.progress, r.detail = phase, progress, detail
}

// Ready marks start-up as done.
func (r *Readiness) Ready() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phase, r.progress, r.detail, r.ready = "ready", 1, "", true
}

// ReadyState is the body of /readyz.
type ReadyState struct {
	Ready    bool    `json:"ready"`
	Phase    string  `json:"phase"`
	Progress float64 `json:"progress"`
	Detail   string  `json:"detail,omitempty"`
	Seconds  float64 `json:"seconds"`
}

// State returns a snapshot.
func (r *Readiness) State() ReadyState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ReadyState{Ready: r.ready, Phase: r.phase, Progress: r.progress, Detail: r.detail, Seconds: time.Since(r.started).Seconds()}
}

// URLResponse carries an external address (empty when not configured).
type URLResponse struct {
	URL string `json:"url"`
}

// Service holds what the system calls need.
type Service struct {
	DB         *store.DB
	Ready      *Readiness
	LogoutURL  string
	MonitorURL string
	Version    string
	// MetricsToken, when set, is the bearer token /metrics requires.
	MetricsToken string
	// MetricsElsewhere leaves /metrics off this router (served on --metrics-addr).
	MetricsElsewhere bool
}

// Routes registers the system calls and mounts health, readiness and metrics.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/sys/eplat/logouturl", Tag: "sys", Summary: "External page to open after logout",
		Access: httpapi.Public, Resp: URLResponse{}, Handle: func(*http.Request) (any, error) { return URLResponse{s.LogoutURL}, nil }})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/sys/monitor/url", Tag: "sys", Summary: "External real-time monitor address",
		Access: httpapi.Signed, Resp: URLResponse{}, Handle: func(*http.Request) (any, error) { return URLResponse{s.MonitorURL}, nil }})
	api.Add(httpapi.Route{Method: "POST", Path: "/api/user/menu", Tag: "sys", Summary: "The server-provided menu, filtered by role",
		Access: httpapi.Signed, Resp: []MenuItem{}, Handle: func(r *http.Request) (any, error) {
			return MenuFor(httpapi.Caller(r).Role), nil
		}})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/openapi.json", Tag: "sys", Summary: "This API's OpenAPI 3.1 document",
		Access: httpapi.Public, RawTypes: []string{"application/json"}, Raw: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(api.OpenAPI(s.Version))
		}})
	api.Mount("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.DB.SQL.PingContext(r.Context()); err != nil {
			httpapi.WriteJSON(w, http.StatusServiceUnavailable, httpapi.Envelope{Code: http.StatusServiceUnavailable, Msg: err.Error()})
			return
		}
		httpapi.WriteJSON(w, http.StatusOK, httpapi.Envelope{Code: http.StatusOK, Msg: "ok"})
	}))
	api.Mount("GET /readyz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := s.Ready.State()
		code := http.StatusOK
		if !st.Ready {
			code = http.StatusServiceUnavailable
		}
		httpapi.WriteJSON(w, code, httpapi.Envelope{Code: code, Msg: st.Phase, Data: st})
	}))
	if s.MetricsElsewhere {
		api.Mount("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			httpapi.Fail(w, r, httpapi.NotFound())
		}))
		return
	}
	api.Mount("GET /metrics", MetricsHandler(s.MetricsToken))
}

// MetricsHandler serves the Prometheus text format, behind a bearer token when token is
// set (compared in constant time; 401 otherwise).
func MetricsHandler(token string) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			httpapi.Fail(w, r, httpapi.Unauthorized())
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		metrics.Default.Write(w)
	})
}
