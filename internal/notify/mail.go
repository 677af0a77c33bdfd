package notify

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Alarm e-mails: each delivery of the e-mail channel is one alarm notification decided for a
// user (internal/alarm). A user without a digest gets one e-mail per alarm; one with a digest
// of N minutes gets, N minutes after the first alarm waiting, one e-mail holding every alarm
// waiting then (so at most one e-mail per N minutes). Mails go only to the address the user
// proved (email_verified) while it is still the profile's.

// A digest holds at most maxDigest alarms (the rest go in the next), the first digestDetail
// of them in full and a line counting the others.
const (
	maxDigest    = 5000
	digestDetail = 50
)

// recipient is a user as the e-mail and push senders need them.
type recipient struct {
	id             int64
	email, locale  string
	digest         int // minutes
	verified, okay bool
	zone           string // the daily limit's
	held           int    // alarms held back by the daily limit today (the zone's day)
}

func (w *Worker) recipient(ctx context.Context, id int64) (recipient, error) {
	u := recipient{id: id}
	var verified, settings string
	var status int
	var digest int64
	err := w.DB.QueryRow(ctx, `SELECT u.email, u.email_verified, u.settings, u.status, COALESCE(n.digest_minutes, 0), COALESCE(n.timezone, 'UTC')
		FROM users u LEFT JOIN alarm_notify_settings n ON n.user_id = u.id WHERE u.id = ?`, id).Scan(&u.email, &verified, &settings, &status, &digest, &u.zone)
	if errors.Is(err, sql.ErrNoRows) {
		return u, store.ErrNotFound
	}
	if err != nil {
		return u, fmt.Errorf("notify: unable to read a user: %w", err)
	}
	u.verified = u.email != "" && strings.EqualFold(strings.TrimSpace(verified), strings.TrimSpace(u.email))
	u.okay = status == 1
	u.digest = int(digest)
	var s struct {
		Locale string `json:"locale"`
	}
	_ = json.Unmarshal([]byte(settings), &s)
	u.locale = httpapi.Locales[0]
	for _, l := range httpapi.Locales {
		if l == s.Locale {
			u.locale = l
		}
	}
	loc, err := time.LoadLocation(u.zone)
	if err != nil {
		loc, u.zone = time.UTC, "UTC"
	}
	local := w.now().In(loc)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	if err := w.DB.QueryRow(ctx, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome IN ('sent', 'limited') AND created_at >= ? AND held & 8 <> 0",
		id, day.UnixMilli()).Scan(&u.held); err != nil {
		return u, fmt.Errorf("notify: unable to count held alarms: %w", err)
	}
	return u, nil
}

// mailPass sends the e-mail channel's due deliveries, a user at a time; it returns how many
// deliveries it settled.
func (w *Worker) mailPass(ctx context.Context) (int, error) {
	now := w.now().UnixMilli()
	users, err := store.IDs(ctx, w.DB, `SELECT DISTINCT target_id FROM notify_outbox WHERE channel = 'email' AND state = 'pending' AND next_at <= ?
		ORDER BY target_id LIMIT 200`, now)
	if err != nil {
		return 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	n := 0
	var later []putOff
	for _, uid := range users {
		k, due, err := w.mailTo(ctx, uid)
		n += k
		if err != nil {
			return n, err
		}
		if due > 0 {
			later = append(later, putOff{uid, due})
		}
	}
	return n, w.putOff(ctx, ChannelEmail, later)
}

// mailTo sends what waits for one user. A digest not yet due is not read: mailTo returns when
// it is due, and mailPass puts the user's deliveries off until then.
func (w *Worker) mailTo(ctx context.Context, uid int64) (int, int64, error) {
	var firstAt int64
	var firstAttempts int
	err := w.DB.QueryRow(ctx, `SELECT created_at, attempts FROM notify_outbox WHERE channel = 'email' AND target_id = ? AND state = 'pending'
		ORDER BY id LIMIT 1`, uid).Scan(&firstAt, &firstAttempts)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	now := w.now().UnixMilli()
	u, uerr := w.recipient(ctx, uid)
	if uerr != nil && !errors.Is(uerr, store.ErrNotFound) {
		return 0, 0, uerr
	}
	if uerr == nil && u.okay && u.verified && w.Mail.Enabled() && u.digest > 0 && firstAttempts == 0 {
		// a digest goes once the oldest alarm waiting has waited its period, or at once when an
		// escalation waits (someone must act now): it takes the rest along
		due := firstAt + int64(u.digest)*time.Minute.Milliseconds()
		if now < due {
			var one int
			err := w.DB.QueryRow(ctx, `SELECT 1 FROM notify_outbox WHERE channel = 'email' AND target_id = ? AND state = 'pending'
				AND event = ? LIMIT 1`, uid, AlarmEscalated).Scan(&one)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return 0, 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
			}
			if err != nil {
				return 0, due, nil
			}
		}
	}
	rows, err := w.DB.Query(ctx, `SELECT id, org_id, event, subject_id, payload, created_at, attempts FROM notify_outbox
		WHERE channel = 'email' AND target_id = ? AND state = 'pending' ORDER BY id LIMIT ?`, uid, maxDigest)
	if err != nil {
		return 0, 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	var list []Delivery
	for rows.Next() {
		var d Delivery
		if err := rows.Scan(&d.ID, &d.OrgID, &d.Event, &d.SubjectID, &d.Payload, &d.CreatedAt, &d.Attempts); err != nil {
			rows.Close()
			return 0, 0, err
		}
		list = append(list, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(list) == 0 {
		return 0, 0, err
	}
	switch {
	case uerr != nil || !u.okay:
		return len(list), 0, w.settle(ctx, list, "the user is no longer active", 0, 0)
	case !u.verified:
		return len(list), 0, w.settle(ctx, list, "the user has no verified e-mail address", 0, 0)
	case !w.Mail.Enabled():
		return len(list), 0, w.settle(ctx, list, ErrNoRelay.Error(), 0, 0)
	}
	if u.digest <= 0 {
		list = list[:1] // one alarm, one e-mail; the rest in the next turns
	}
	m, err := renderMail(list, u, w.Base)
	if err != nil {
		return len(list), 0, w.settle(ctx, list, err.Error(), 0, 0)
	}
	start := w.now()
	sendErr := w.Mail.Send(ctx, m)
	if ctx.Err() != nil {
		return 0, 0, ctx.Err()
	}
	took := w.now().Sub(start)
	if sendErr == nil {
		return len(list), 0, w.settle(ctx, list, "", 250, took)
	}
	return len(list), 0, w.retry(ctx, list, sendErr, Status(sendErr), start, took)
}

var mailHTML = template.Must(template.New("mail").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: -apple-system, 'Segoe UI', 'PingFang SC', 'Microsoft YaHei', sans-serif; color: #1d2129; line-height: 1.5">
{{range .Items}}<h2 style="font-size: 16px; margin: 16px 0 8px">{{.Title}}</h2>
<table style="border-collapse: collapse">{{range .Facts}}<tr><td style="padding: 2px 12px 2px 0; color: #86909c">{{index . 0}}</td><td style="padding: 2px 0">{{index . 1}}</td></tr>{{end}}</table>
{{if .Link}}<p><a href="{{.Link}}">{{$.Open}}</a></p>{{end}}{{end}}
<p style="color: #86909c; font-size: 12px; margin-top: 24px">{{.Footer}}</p>
</body></html>
`))

type mailItem struct {
	Title string
	Facts [][2]string
	Link  string
}

// renderMail is the e-mail of the deliveries (one: its alarm; several: a digest) in the
// user's language.
func renderMail(list []Delivery, u recipient, base string) (Mail, error) {
	t := func(key string, args ...any) string { return httpapi.T(u.locale, key, args...) }
	items := make([]mailItem, 0, min(len(list), digestDetail))
	var text strings.Builder
	for i, d := range list {
		if i == digestDetail {
			more := t("mail_digest_more", len(list)-digestDetail)
			items = append(items, mailItem{Title: more})
			text.WriteString(more + "\n\n")
			break
		}
		m, err := describe(d, u.locale, base)
		if err != nil {
			return Mail{}, err
		}
		items = append(items, mailItem{Title: m.title, Facts: m.facts, Link: m.link})
		text.WriteString(m.title + "\n")
		for _, f := range m.facts {
			text.WriteString("  " + f[0] + ": " + f[1] + "\n")
		}
		if m.link != "" {
			text.WriteString("  " + m.link + "\n")
		}
		text.WriteString("\n")
	}
	subject := items[0].Title
	if len(list) > 1 {
		subject = t("mail_digest_subject", len(list))
	}
	footer := t("mail_footer")
	if u.held > 0 {
		// the daily limit speaks: what it held back today, in every e-mail of the day
		footer = t("mail_held", u.held, u.zone) + " " + footer
	}
	text.WriteString("-- \n" + footer + "\n")
	var html strings.Builder
	if err := mailHTML.Execute(&html, map[string]any{"Lang": u.locale, "Subject": subject, "Items": items, "Open": t("webhook_open"), "Footer": footer}); err != nil {
		return Mail{}, err
	}
	return Mail{To: u.email, Subject: subject, Text: text.String(), HTML: html.String(), ID: DeliveryID(list[0].ID)}, nil
}
