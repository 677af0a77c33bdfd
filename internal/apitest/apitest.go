// Package apitest runs API scenarios against a real server on a fresh database: a
// table of calls, each with who makes it, what it sends and what must (and must not)
// come back.
package apitest

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/server"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Env is a server on a fresh database seeded with the demo accounts, and a signed-in
// token for each of them.
type Env struct {
	Server   *server.Server
	DB       *store.DB
	Accounts *demo.Accounts
	Tokens   map[string]string
	// Fleet is the simulated fleet whose stations and devices NewWithFleet stored.
	Fleet sim.Fleet
}

// NewWithFleet builds an Env on SQLite with the demo fleet's stations and devices
// (no telemetry: tests write what they need through the write path).
func NewWithFleet(t testing.TB) *Env {
	t.Helper()
	e := New(t)
	e.Fleet = demo.Fleet()
	if err := demo.SeedFleet(context.Background(), e.DB, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	return e
}

// Config returns the configuration tests start from.
func Config() *config.Config {
	return &config.Config{Addr: "127.0.0.1:0", SessionTTL: time.Hour, RawRetention: 14 * 24 * time.Hour,
		LogoutURL: "https://sso.example/logout", MonitorURL: "https://monitor.example/", SimSpeed: 1, Seed: 1, EmissionFactor: 0.5}
}

// New builds an Env on SQLite.
func New(t testing.TB) *Env { return NewOn(t, storetest.SQLite(t)) }

// NewOn builds an Env on the given database.
func NewOn(t testing.TB, db *store.DB) *Env {
	t.Helper()
	return NewWith(t, db, Config())
}

// NewWith builds an Env on the given database and configuration.
func NewWith(t testing.TB, db *store.DB, cfg *config.Config) *Env {
	t.Helper()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	acc, _, err := demo.SeedAccounts(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s := server.NewWithDB(cfg, db)
	// field polling runs as on a started server (on this replica: no other holds the lock)
	pollCtx, stopPolling := context.WithCancel(context.Background())
	s.Scada.Start(pollCtx, 30*time.Second)
	t.Cleanup(func() { stopPolling(); s.Scada.Wait() })
	e := &Env{Server: s, DB: db, Accounts: acc, Tokens: map[string]string{}}
	for _, u := range []string{"admin", "operator", "other"} {
		e.Tokens[u] = e.Login(t, u, demo.Password)
	}
	return e
}

// Login signs a user in and returns the token.
func (e *Env) Login(t testing.TB, username, password string) string {
	t.Helper()
	res := e.Do(t, Scenario{Method: "POST", URL: "/v2/login", Body: `{"username":"` + username + `","password":"` + password + `"}`})
	if res.Status != 200 {
		t.Fatalf("login %s: %d %s", username, res.Status, res.Body)
	}
	var out struct {
		Data struct{ Token string } `json:"data"`
	}
	_ = json.Unmarshal([]byte(res.Body), &out)
	return out.Data.Token
}

// Simulate runs the demo simulator for the fleet from `from` to `to` through the
// telemetry write path (back-fill, then one live step at `to`) and returns the engine.
func (e *Env) Simulate(t testing.TB, from, to time.Time) *demo.Engine {
	t.Helper()
	ctx := context.Background()
	ids, err := demo.DeviceIDs(ctx, e.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(e.Fleet, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.Server.Writer.Refresh()
	eng := &demo.Engine{Sim: s, Writer: e.Server.Writer, Reader: e.Server.Reader, IDs: ids}
	if _, err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Backfill(ctx, from, to); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.StepNow(ctx, to); err != nil {
		t.Fatal(err)
	}
	e.Server.UseEngine(eng)
	e.Server.Figures.Weather = demo.WeatherSource(s)
	return eng
}

// Scenario is one call and what must come of it.
type Scenario struct {
	Name   string
	Method string
	URL    string
	// As names the signed-in user ("admin", "operator", "other"); Token overrides it.
	As          string
	Token       string
	Headers     map[string]string
	Body        string
	ContentType string // default application/json when Body is set
	RemoteAddr  string

	Status      int      // expected HTTP status
	Code        int      // expected envelope code (default: Status); -1 to skip
	Contains    []string // substrings the body must contain
	NotContains []string // substrings it must not contain
	Check       func(t *testing.T, r *Result)
}

// Result is what came back.
type Result struct {
	Status int
	Header http.Header
	Body   string
	Env    struct {
		Code int             `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
}

// Do makes one call.
func (e *Env) Do(t testing.TB, s Scenario) *Result {
	t.Helper()
	var body io.Reader
	if s.Body != "" {
		body = strings.NewReader(s.Body)
	}
	req := httptest.NewRequest(s.Method, s.URL, body)
	if s.Body != "" {
		ct := s.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	tok := s.Token
	if tok == "" && s.As != "" {
		tok = e.Tokens[s.As]
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for k, v := range s.Headers {
		req.Header.Set(k, v)
	}
	if s.RemoteAddr != "" {
		req.RemoteAddr = s.RemoteAddr
	}
	rec := httptest.NewRecorder()
	e.Server.Handler().ServeHTTP(rec, req)
	r := &Result{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &r.Env)
	return r
}

// Run runs each scenario as a subtest.
func (e *Env) Run(t *testing.T, scenarios []Scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			r := e.Do(t, s)
			if r.Status != s.Status {
				t.Fatalf("%s %s: status %d, want %d; body %s", s.Method, s.URL, r.Status, s.Status, r.Body)
			}
			want := s.Code
			if want == 0 {
				want = s.Status
			}
			if want != -1 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && r.Env.Code != want {
				t.Fatalf("%s %s: envelope code %d, want %d; body %s", s.Method, s.URL, r.Env.Code, want, r.Body)
			}
			for _, c := range s.Contains {
				if !strings.Contains(r.Body, c) {
					t.Errorf("body lacks %q: %s", c, r.Body)
				}
			}
			for _, c := range s.NotContains {
				if strings.Contains(r.Body, c) {
					t.Errorf("body must not contain %q: %s", c, r.Body)
				}
			}
			if s.Check != nil {
				s.Check(t, r)
			}
		})
	}
}

// Count returns a single integer from a query (for "nothing changed" checks).
func (e *Env) Count(t testing.TB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
