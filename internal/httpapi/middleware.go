package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/metrics"
)

var (
	requestsTotal   = metrics.Default.NewCounter("helio_http_requests_total", "HTTP requests by route and status.", "method", "route", "status")
	requestDuration = metrics.Default.NewHistogram("helio_http_request_duration_seconds", "HTTP request duration by route.", metrics.DefBuckets, "route")
)

// Chain wraps h in the middleware every request passes: panic recovery, security
// headers, request logging and metrics.
func Chain(h http.Handler) http.Handler {
	return recoverer(securityHeaders(logRequests(h)))
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer (flush, hijack).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		rl := &routeLabel{name: "unmatched"}
		h.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), routeLabelKey{}, rl)))
		d := time.Since(start)
		route := rl.name
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		requestsTotal.Inc(r.Method, route, strconv.Itoa(sw.status))
		requestDuration.Observe(d.Seconds(), route)
		level := slog.LevelInfo
		if sw.status >= 500 && sw.status != http.StatusServiceUnavailable {
			level = slog.LevelError
		}
		slog.Log(r.Context(), level, "request", "method", r.Method, "path", r.URL.Path, "route", route,
			"status", sw.status, "bytes", sw.bytes, "duration_ms", float64(d.Microseconds())/1000, "client", ClientAddr(r))
	})
}

type routeLabelKey struct{}

// routeLabel lets the router tell the logging middleware which route served a request.
type routeLabel struct{ name string }

func setRouteLabel(r *http.Request, name string) {
	if rl, ok := r.Context().Value(routeLabelKey{}).(*routeLabel); ok {
		rl.name = name
	}
}

func recoverer(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				Fail(w, r, Internal(fmt.Errorf("panic: %v", v)))
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// ContentSecurityPolicy allows only the console's own origin; Arco sets inline styles.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' ws: wss:; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", ContentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(self)") // the crew's check-in on site may send the phone's position
		if r.TLS != nil || (trustProxy.Load() && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")) {
			hd.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		h.ServeHTTP(w, r)
	})
}

// trustProxy is set by TrustProxy at start-up.
var trustProxy atomic.Bool

// TrustProxy says whether a reverse proxy stands in front (--trust-proxy): then the
// client address is the last one in X-Forwarded-For (the peer the proxy saw) and
// X-Forwarded-Proto https turns HSTS on. Without it both headers are ignored, since any
// client can send them.
func TrustProxy(on bool) { trustProxy.Store(on) }

// ClientAddr is the caller's IP address: the direct peer, or behind a trusted proxy the
// address it forwarded.
func ClientAddr(r *http.Request) string {
	if trustProxy.Load() {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip := net.ParseIP(strings.TrimSpace(last)); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
