package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/helio-energy/helio/internal/sys"
)

// servePprof serves Go's profiler on its own listener (--pprof-addr), apart from the API:
// no session guards it, so it belongs on loopback.
func servePprof(ctx context.Context, addr string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	slog.Info("profiler listening", "addr", "http://"+addr+"/debug/pprof/")
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		slog.Error("profiler stopped", "err", err)
	}
}

// serveMetrics serves /metrics on its own listener (--metrics-addr), e.g. on an address
// only the monitoring network reaches; --metrics-token still applies.
func serveMetrics(ctx context.Context, addr, token string) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", sys.MetricsHandler(token))
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	slog.Info("metrics listening", "addr", "http://"+addr+"/metrics")
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		slog.Error("metrics listener stopped", "err", err)
	}
}
