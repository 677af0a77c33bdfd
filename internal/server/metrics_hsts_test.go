package server_test

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestMetricsBehindTokenOrElsewhere(t *testing.T) {
	cfg := apitest.Config()
	cfg.MetricsToken = "m3trics-t0ken"
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	e.Run(t, []apitest.Scenario{
		{Name: "no token", Method: "GET", URL: "/metrics", Status: 401, NotContains: []string{"helio_http_requests_total"}},
		{Name: "wrong token", Method: "GET", URL: "/metrics", Headers: map[string]string{"Authorization": "Bearer nope"}, Status: 401},
		{Name: "a session token is not the metrics token", Method: "GET", URL: "/metrics", As: "admin", Status: 401},
		{Name: "the token", Method: "GET", URL: "/metrics", Headers: map[string]string{"Authorization": "Bearer m3trics-t0ken"}, Status: 200, Code: -1,
			Contains: []string{"helio_http_requests_total"}},
	})
	cfg = apitest.Config()
	cfg.MetricsAddr = "127.0.0.1:0"
	e = apitest.NewWith(t, storetest.SQLite(t), cfg)
	e.Run(t, []apitest.Scenario{
		{Name: "served elsewhere", Method: "GET", URL: "/metrics", Status: 404, NotContains: []string{"helio_http_requests_total"}},
	})
}

func TestHSTSAndForwardedClientOnlyBehindATrustedProxy(t *testing.T) {
	e := apitest.New(t)
	get := func(tlsOn bool, headers map[string]string) (hsts string) {
		r := httptest.NewRequest("GET", "/healthz", nil)
		if tlsOn {
			r.TLS = &tls.ConnectionState{}
		}
		for k, v := range headers {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		e.Server.Handler().ServeHTTP(w, r)
		return w.Header().Get("Strict-Transport-Security")
	}
	fwd := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.1, 203.0.113.9"}
	if get(false, nil) != "" || get(false, fwd) != "" {
		t.Fatal("HSTS over plain HTTP, or from a header any client can send")
	}
	if get(true, nil) == "" {
		t.Fatal("no HSTS over TLS")
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("X-Forwarded-For", fwd["X-Forwarded-For"])
	if got := httpapi.ClientAddr(r); got != "192.0.2.1" {
		t.Fatalf("untrusted X-Forwarded-For taken: %s", got)
	}
	httpapi.TrustProxy(true)
	defer httpapi.TrustProxy(false)
	if get(false, fwd) == "" {
		t.Fatal("no HSTS behind a trusted proxy that says https")
	}
	if got := httpapi.ClientAddr(r); got != "203.0.113.9" {
		t.Fatalf("client behind the proxy: %s, want the address the proxy saw", got)
	}
}
