package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/notify/mailpittest"
	"github.com/helio-energy/helio/internal/store"
)

// recipient adds a user of the rig's organisation with an address (verified when verified),
// a console language and a digest period.
func (r *rig) user(t *testing.T, name, email string, verified bool, locale string, digest int) int64 {
	t.Helper()
	ctx := context.Background()
	v := ""
	if verified {
		v = email
	}
	id, err := r.db.Insert(ctx, `INSERT INTO users (org_id, username, password_hash, role, email, email_verified, settings, created_at, updated_at)
		VALUES (?, ?, 'x', 'user', ?, ?, ?, 0, 0)`, r.org, name, email, v, `{"locale":"`+locale+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.db.Exec(ctx, `INSERT INTO alarm_notify_settings (user_id, levels, frequency, daily_limit, methods, allowed, timezone, digest_minutes, updated_at)
		VALUES (?, '1,2', 'high', 20, '1,3', 1, 'UTC', ?, 0)`, id, digest); err != nil {
		t.Fatal(err)
	}
	return id
}

// mail writes an alarm e-mail to a user as the notification pass does.
func (r *rig) mail(t *testing.T, user int64, a Alarm) {
	t.Helper()
	err := r.db.InTx(context.Background(), func(tx *store.Tx) error {
		_, err := r.outbox.Direct(context.Background(), tx, r.org, ChannelEmail, user, AlarmRaised, a.ID, a)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) relay(t *testing.T) *mailpittest.Server {
	mp := mailpittest.Start(t)
	r.worker.Mail = &SMTP{Addr: mp.SMTP, From: "helio@helio.example", Security: "none", Username: "helio", Password: "secret"}
	return mp
}

// TestAlarmMail: an alarm e-mail reaches the user's verified address, in their language,
// with the time in the station's zone, through a real SMTP server; a user whose address is
// not verified gets none, and the delivery says why.
func TestAlarmMail(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "zh-CN", 0)
	bo := r.user(t, "bo", "bo@helio.example", false, "en-US", 0)
	r.mail(t, li, trip)
	r.mail(t, bo, trip)
	if n, err := r.worker.mailPass(ctx); err != nil || n != 2 {
		t.Fatalf("pass: %d settled, %v", n, err)
	}
	got := mp.Wait(t, 1, 5*time.Second)
	if len(got) != 1 || got[0].To[0].Address != "li@helio.example" {
		t.Fatalf("mails %+v; want one, to li", got)
	}
	m := mp.Message(t, got[0].ID)
	if !strings.Contains(m.Subject, "告警产生") || !strings.Contains(m.Text, "2026-11-29 13:55:00 (Asia/Shanghai)") ||
		!strings.Contains(m.HTML, "Golmud Plant") || !strings.Contains(m.Text, "https://helio.example/#/alarm?detail=41") ||
		!strings.HasPrefix(m.MessageID, "hd_") {
		t.Fatalf("mail %q\n%s", m.Subject, m.Text)
	}
	var reason string
	if err := r.db.QueryRow(ctx, "SELECT last_error FROM notify_outbox WHERE target_id = ? AND channel = 'email' AND state = 'failed'", bo).Scan(&reason); err != nil ||
		!strings.Contains(reason, "no verified e-mail address") {
		t.Fatalf("bo's delivery: %q, %v", reason, err)
	}
}

// TestDigest: with a digest of 15 minutes, five alarms within it make one e-mail, sent 15
// minutes after the first; an alarm after it waits for the next period.
func TestDigest(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 15)
	for i := range 5 {
		a := trip
		a.ID = int64(100 + i)
		r.mail(t, li, a)
		if _, err := r.worker.mailPass(ctx); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(time.Minute)
	}
	if n := len(mp.Messages(t)); n != 0 {
		t.Fatalf("%d e-mails before the digest period ended", n)
	}
	r.clock.Add(10 * time.Minute) // 15 minutes after the first
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	got := mp.Wait(t, 1, 5*time.Second)
	m := mp.Message(t, got[0].ID)
	if len(got) != 1 || m.Subject != "Helio: 5 alarms" || strings.Count(m.Text, "Alarm raised: ") != 5 {
		t.Fatalf("digest %q\n%s", m.Subject, m.Text)
	}
	r.clock.Add(time.Minute)
	r.mail(t, li, trip)
	r.clock.Add(14 * time.Minute)
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(mp.Messages(t)); n != 1 {
		t.Fatalf("%d e-mails 14 minutes into the next period; want still 1", n)
	}
	r.clock.Add(time.Minute)
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	mp.Wait(t, 2, 5*time.Second)
}

// TestRelayDown: a relay that does not answer leaves the e-mail waiting, the attempt logged,
// and it goes once the relay is back.
func TestRelayDown(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 0)
	r.worker.Mail = &SMTP{Addr: "127.0.0.1:9", From: "helio@helio.example", Security: "none", Timeout: time.Second}
	r.mail(t, li, trip)
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	var state string
	var attempts int
	if err := r.db.QueryRow(ctx, "SELECT state, attempts FROM notify_outbox WHERE channel = 'email'").Scan(&state, &attempts); err != nil || state != "pending" || attempts != 1 {
		t.Fatalf("after a refused connection: %s, %d attempts, %v", state, attempts, err)
	}
	mp := r.relay(t)
	r.clock.Add(Backoff(1))
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	if got := mp.Wait(t, 1, 5*time.Second); len(got) != 1 {
		t.Fatalf("%d e-mails after the relay came back", len(got))
	}
}

// TestDigestOfAStorm: sixty alarms in one period make one e-mail, the first fifty in full and
// a line counting the rest; every delivery is settled by it.
func TestDigestOfAStorm(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 5)
	for i := range 60 {
		a := trip
		a.ID = int64(200 + i)
		r.mail(t, li, a)
	}
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(5 * time.Minute)
	for range 3 {
		if _, err := r.worker.mailPass(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := mp.Wait(t, 1, 5*time.Second)
	m := mp.Message(t, got[0].ID)
	var sent int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'sent'").Scan(&sent); err != nil {
		t.Fatal(err)
	}
	if len(mp.Messages(t)) != 1 || m.Subject != "Helio: 60 alarms" || strings.Count(m.Text, "Alarm raised: ") != 50 ||
		!strings.Contains(m.Text, "and 10 more alarms") || sent != 60 {
		t.Fatalf("%d e-mails, %q, %d sent\n%.400s", len(mp.Messages(t)), m.Subject, sent, m.Text)
	}
}

// TestLimitSpeaks: once the daily limit held alarms back, every e-mail of the day says how
// many (in the limit's time zone's day).
func TestLimitSpeaks(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 0)
	st, err := r.db.Insert(ctx, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, 'S', 'UTC', 1, 0, 0)", r.org)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		id, err := r.db.Insert(ctx, `INSERT INTO alarms (org_id, station_id, device_sn, device_name, device_type, rule_key, alarm_type, level, status,
			deal_status, description, msg_key, msg_args, start_at, occurred_at, last_alarm_at, updated_at, notify_pending)
			VALUES (?, ?, 'X', 'X', 'inverter', 'inverter_fault', 1, 2, 1, 0, 'd', 'k', '[]', 0, 0, 0, 0, 0)`, r.org, st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.db.Exec(ctx, "INSERT INTO alarm_notifications (alarm_id, user_id, outcome, created_at, held) VALUES (?, ?, 'limited', ?, 8)",
			id, li, r.clock.Now().Add(-time.Duration(i)*time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	r.mail(t, li, trip)
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	got := mp.Wait(t, 1, 5*time.Second)
	if m := mp.Message(t, got[0].ID); !strings.Contains(m.Text, "Your daily e-mail limit held back 3 alarms today (time zone UTC)") {
		t.Fatalf("mail without the held count:\n%s", m.Text)
	}
}

// TestEscalationSkipsDigest: an escalation e-mail does not wait for the user's digest period:
// it goes at once and takes the alarms waiting for the digest along.
func TestEscalationSkipsDigest(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 60)
	for i := range 2 {
		a := trip
		a.ID = int64(200 + i)
		r.mail(t, li, a)
	}
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Minute)
	if n := len(mp.Messages(t)); n != 0 {
		t.Fatalf("%d e-mails inside the digest period", n)
	}
	esc := trip
	esc.ID = 202
	esc.Escalation = &Escalation{Rule: "Faults", Step: 1, AfterMinutes: 5, Notified: []string{"li"}}
	if err := r.db.InTx(ctx, func(tx *store.Tx) error {
		return r.outbox.DirectMany(ctx, tx, []Row{{OrgID: r.org, Channel: ChannelEmail, Target: li, Event: AlarmEscalated, SubjectID: esc.ID, Data: esc}})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.worker.mailPass(ctx); err != nil {
		t.Fatal(err)
	}
	got := mp.Wait(t, 1, 5*time.Second)
	m := mp.Message(t, got[0].ID)
	if len(got) != 1 || strings.Count(m.Text, "Alarm escalated: ") != 1 || strings.Count(m.Text, "Alarm raised: ") != 2 {
		t.Fatalf("escalation e-mail %q\n%s", m.Subject, m.Text)
	}
}
