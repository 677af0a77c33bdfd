// Package syslog is the system log: every API write — who, what, when, from which address,
// with what result and, for edits, the object before and after — recorded once by the
// router for every route (httpapi.API.UseWriteLog), so a new route is covered without
// doing anything. Administrators search and export it; it is kept for --syslog-retention.
package syslog

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Log writes and reads the system log (the audit_log table).
type Log struct {
	DB *store.DB
	// Retention is how long entries are kept (0: for ever).
	Retention time.Duration
}

// secretKey matches body fields whose values the log never keeps.
var secretKey = regexp.MustCompile(`(?i)password|secret|token|answer|image|key`)

// maxField caps each stored JSON text.
const maxField = 8 << 10

// Mask returns body with every secret field's value replaced, as compact JSON; a body that
// is not a JSON object is summarised by its size.
func Mask(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "(" + itoa(len(body)) + " bytes)"
	}
	return clip(jsonText(maskValue(v)))
}

func maskValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if secretKey.MatchString(k) {
				if s, ok := val.(string); ok && s == "" {
					continue
				}
				x[k] = "***"
			} else {
				x[k] = maskValue(val)
			}
		}
	case []any:
		for i := range x {
			x[i] = maskValue(x[i])
		}
	}
	return v
}

func jsonText(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func clip(s string) string {
	if len(s) <= maxField {
		return s
	}
	return s[:maxField] + "…"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Record stores one write (the httpapi.WriteLogger). Failing to log never fails the call;
// it is logged to the process log instead.
func (l *Log) Record(ctx context.Context, e *httpapi.WriteEntry) {
	action := e.Action
	if action == "" {
		action = actionOf(e.Route)
	}
	after := ""
	if e.After != nil {
		after = jsonText(e.After)
		var v any
		if json.Unmarshal([]byte(after), &v) == nil {
			after = jsonText(maskValue(v))
		}
	} else {
		after = Mask(e.Body)
	}
	before := ""
	if e.Before != nil {
		before = jsonText(e.Before)
	}
	_, err := l.DB.Exec(ctx, `INSERT INTO audit_log (org_id, user_id, username, action, target, detail, client_addr,
		created_at, method, route, status, before_json, after_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		nullID(e.OrgID), nullID(e.UserID), e.Username, action, clip(targetOf(e)), clip(e.Detail), e.Client,
		e.At.UnixMilli(), e.Method, e.Route, e.Status, clip(before), clip(after))
	if err != nil {
		slog.ErrorContext(ctx, "system log write failed", "route", e.Route, "err", err)
	}
}

// actionOf names a write by its route: POST /v2/site/tag/edit/{id} → site.tag.edit.
func actionOf(route string) string {
	_, path, _ := strings.Cut(route, " ")
	var parts []string
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
		if p == "" || strings.HasPrefix(p, "{") || p == "v1" || p == "v2" || p == "api" {
			continue
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ".")
}

// targetOf is what the write was aimed at: the handler's name for it, else the path.
func targetOf(e *httpapi.WriteEntry) string {
	if e.Target != "" {
		return e.Target
	}
	return e.Path
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// Prune deletes entries older than the retention.
func (l *Log) Prune(ctx context.Context, now time.Time) (int64, error) {
	if l.Retention <= 0 {
		return 0, nil
	}
	res, err := l.DB.Exec(ctx, "DELETE FROM audit_log WHERE created_at < ?", now.Add(-l.Retention).UnixMilli())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RunPruner prunes every interval until ctx ends.
func (l *Log) RunPruner(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := l.Prune(ctx, time.Now()); err != nil && ctx.Err() == nil {
			slog.Warn("system log prune failed", "err", err)
		} else if n > 0 {
			slog.Info("system log pruned", "entries", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
