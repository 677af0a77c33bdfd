package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/report"
	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Serving: the listener, the background loops and a graceful shutdown.

// Run serves until ctx is cancelled, then shuts down gracefully.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.Cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: unable to listen on %s: %w", s.Cfg.Addr, err)
	}
	readTimeout := s.Cfg.ReadTimeout
	if readTimeout <= 0 {
		readTimeout = time.Minute
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: min(10*time.Second, readTimeout),
		ReadTimeout:       readTimeout,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if s.Cfg.PprofAddr != "" {
		go servePprof(ctx, s.Cfg.PprofAddr)
	}
	if s.Cfg.MetricsAddr != "" {
		go serveMetrics(ctx, s.Cfg.MetricsAddr, s.Cfg.MetricsToken)
	}
	url := "http://" + ln.Addr().String()
	slog.Info("listening", "addr", url)

	bgCtx, stopBg := context.WithCancel(ctx)
	defer stopBg()
	go s.Reports.Worker.Run(bgCtx)
	go (&report.Scheduler{Service: s.Reports}).Run(bgCtx)
	go func() {
		// a stop with streaming roll-up changes waiting: add them before anything reads
		// the roll-ups
		if _, err := s.Writer.Recover(bgCtx); err != nil {
			slog.Error("start-up failed", "err", err)
			errc <- err
			return
		}
		if err := s.Bootstrap(bgCtx); err != nil {
			slog.Error("start-up failed", "err", err)
			errc <- err
			return
		}
		s.Ready.Set("fleet", 0, "in-memory fleet figures")
		if err := s.Fleet.Ensure(bgCtx); err != nil {
			errc <- err
			return
		}
		go s.Fleet.Run(bgCtx, time.Minute)
		if s.Cfg.MQTTURL != "" {
			m, err := ingest.StartMQTT(s.Writer, ingest.MQTTOptions{URL: s.Cfg.MQTTURL, ClientID: s.Cfg.MQTTClientID,
				SharedGroup: s.Cfg.MQTTShareGroup, InFlight: s.Cfg.MQTTInFlight, Mapping: s.Ingest.Mapping})
			if err != nil {
				errc <- err
				return
			}
			s.mqtt.Store(m)
			// ready means subscribed: on a first start the broker keeps nothing for this
			// client before its first subscription
			select {
			case <-m.Ready():
				slog.Info("taking device samples over MQTT", "broker", s.Cfg.MQTTURL)
			case <-time.After(15 * time.Second):
				slog.Warn("MQTT broker not reached yet; ready without it, still retrying", "broker", s.Cfg.MQTTURL)
			case <-bgCtx.Done():
				return
			}
		}
		s.Ready.Ready()
		if s.Cfg.Demo {
			fmt.Printf("\nHelio is ready: open %s and sign in as admin / %s (or operator / %s)\n\n", url, demo.Password, demo.Password)
		} else {
			fmt.Printf("\nHelio is ready: open %s\n\n", url)
		}
		go s.pruneSessions(bgCtx)
		// jobs that must run once across replicas take a lock (PostgreSQL advisory lock)
		go s.DB.RunExclusive(bgCtx, "retention", func(ctx context.Context) { s.Writer.RunPruner(ctx, time.Hour) })
		go s.DB.RunExclusive(bgCtx, "sample-sealer", func(ctx context.Context) { s.Writer.RunSealer(ctx, time.Hour) })
		go s.DB.RunExclusive(bgCtx, "month-packer", func(ctx context.Context) { s.Writer.RunPacker(ctx, 10*time.Minute) })
		go s.DB.RunExclusive(bgCtx, "alarm-sweeper", func(ctx context.Context) { s.Alarms.RunSweeper(ctx, time.Minute) })
		go s.Library.Run(bgCtx)
		s.Scada.Start(bgCtx, 30*time.Second) // on one replica: the lock's holder polls
		go s.DB.RunExclusive(bgCtx, "cloud-sync", s.Cloud.Run)
		go s.DB.RunExclusive(bgCtx, "notify-sender", s.Notify.Run)
		go s.DB.RunExclusive(bgCtx, "escalation", s.Escalate.Run)
		go s.DB.RunExclusive(bgCtx, "syslog-retention", func(ctx context.Context) { s.SysLog.RunPruner(ctx, time.Hour) })
		// import jobs: each replica runs one runner, and each job's lease lets one run it
		go s.Import.Run(bgCtx)
		if s.Engine != nil {
			s.UseEngine(s.Engine)
			go s.DB.RunExclusive(bgCtx, "simulator", s.Engine.Run)
		}
	}()

	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		shutdown(srv)
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	stopBg()
	shutdown(srv)
	if m := s.mqtt.Load(); m != nil {
		m.Stop() // writes and acknowledges what is pending; the broker keeps the rest
	}
	s.Ingest.Close()
	s.Line.Close()
	s.Alarms.Settle() // notifications of alarms already opened
	s.Scada.Wait()    // the field connections closed, the last statuses written
	_ = s.Hub.Close()
	return s.DB.Close()
}

// shareScada has link edits reach the polling replica at once, and routes the other
// replicas' remote-debugging calls to it (helio.scada and helio.scada.debug).
func (s *Server) shareScada(url string) {
	bus, err := push.DialNATS(url, "helio.scada")
	if err != nil {
		slog.Error("NATS unreachable: link edits reach the polling replica at its next reload", "err", err)
		return
	}
	relay, err := push.DialNATS(url, "helio.scada.debug")
	if err != nil {
		slog.Error("NATS unreachable: debug calls use a connection of the replica they reach", "err", err)
		relay = nil
	}
	var r scada.Relay
	if relay != nil {
		r = relay
	}
	if _, err := s.Scada.Share(bus, r); err != nil {
		slog.Error("field link edits not shared between replicas", "err", err)
	}
}

// writeField hands polled samples to the write path.
func (s *Server) writeField(ctx context.Context, samples []telemetry.Sample) {
	if _, err := s.Writer.Write(ctx, "modbus", samples); err != nil && ctx.Err() == nil {
		slog.Error("polled samples not written", "err", err)
	}
}

func shutdown(srv *http.Server) {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(c)
}

func (s *Server) pruneSessions(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if n, err := s.Sessions.Prune(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("session prune failed", "err", err)
		} else if n > 0 {
			slog.Info("sessions pruned", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
