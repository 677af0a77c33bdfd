package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// The demo's notifications: a webhook receiver of its own on 127.0.0.1 that takes every
// delivery (204), so the Webhooks screen shows deliveries at work, and, when the demo runs
// with an SMTP relay (make demo starts Mailpit), the administrator's address verified and
// e-mail among their methods, with a 15-minute digest. docs/notifications.md, "In the demo".
const demoWebhookName = "Control room (demo receiver)"

// startDemoNotify serves the demo receiver until ctx ends and points the demo organisation's
// webhook at it (made on a fresh database, moved to the new address after a restart).
func (s *Server) startDemoNotify(ctx context.Context, orgID, adminID int64, fresh bool) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("demo webhook receiver: %w", err)
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() { _ = srv.Serve(ln) }()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	url := "http://" + ln.Addr().String() + "/helio"
	now := time.Now().UnixMilli()
	if fresh {
		if _, err := s.DB.Exec(ctx, `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
			VALUES (?, ?, ?, 'helio', ?, 'en-US', ?, 1, ?, ?)`, orgID, demoWebhookName, url,
			",alarm.raised,alarm.recovered,alarm.dealt,workorder.created,workorder.transitioned,report.ready,", "whsec_demo", now, now); err != nil {
			return fmt.Errorf("demo webhook: %w", err)
		}
		if s.Cfg.SMTPAddr != "" {
			if _, err := s.DB.Exec(ctx, "UPDATE users SET email_verified = email WHERE id = ?", adminID); err != nil {
				return err
			}
			if _, err := s.DB.Exec(ctx, `INSERT INTO alarm_notify_settings (user_id, levels, frequency, daily_limit, methods, allowed, timezone,
				digest_minutes, updated_at) VALUES (?, '1,2', 'high', 50, '1,3', 1, 'Asia/Shanghai', 15, ?) ON CONFLICT (user_id) DO NOTHING`, adminID, now); err != nil {
				return err
			}
		}
	} else if _, err := s.DB.Exec(ctx, "UPDATE webhooks SET url = ? WHERE org_id = ? AND name = ?", url, orgID, demoWebhookName); err != nil {
		return err
	}
	slog.Info("demo webhook receiver", "address", url)
	return nil
}
