package notify

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/notify/pushtest"
	"github.com/helio-energy/helio/internal/store"
)

// TestAppPush: an alarm pushed to a user reaches each browser they subscribed, encrypted so
// that only that browser reads it (the stand-in decrypts with the browser's key and checks
// the VAPID token), in their language, opening the alarm; a browser whose subscription is
// gone (410) is forgotten, and the key pair is made once and kept.
func TestAppPush(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	svc := pushtest.Start(t)
	r.worker.Push = &PushKeys{DB: r.db, Subject: "mailto:ops@helio.example"}
	li := r.user(t, "li", "", false, "zh-CN", 0)
	phone, laptop := svc.Subscribe(t), svc.Subscribe(t)
	for _, s := range []pushtest.Subscription{phone, laptop} {
		if _, err := r.db.Exec(ctx, "INSERT INTO webpush_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, 0)",
			li, s.Endpoint, s.P256dh, s.Auth); err != nil {
			t.Fatal(err)
		}
	}
	svc.Expire(laptop.Endpoint)
	err := r.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := r.outbox.Direct(ctx, tx, r.org, ChannelPush, li, AlarmRaised, trip.ID, trip)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("pass: %d, %v", n, err)
	}
	got := svc.Messages()
	if len(got) != 1 || len(svc.Refused()) != 0 {
		t.Fatalf("pushes %d, refused %v", len(got), svc.Refused())
	}
	var m PushMessage
	if err := json.Unmarshal(got[0].Payload, &m); err != nil {
		t.Fatal(err)
	}
	if m.URL != "/alarm?detail=41" || got[0].Urgency != "high" || got[0].TTL != "86400" {
		t.Fatalf("push %+v (%s, TTL %s)", m, got[0].Urgency, got[0].TTL)
	}
	if !strings.Contains(m.Title, "Golmud Plant") || !strings.Contains(m.Title, "告警产生") || !strings.Contains(m.Body, "2026-11-29 13:55:00 (Asia/Shanghai)") {
		t.Fatalf("push text %q / %q", m.Title, m.Body)
	}
	var left int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM webpush_subscriptions WHERE user_id = ?", li).Scan(&left); err != nil || left != 1 {
		t.Fatalf("%d subscriptions left, %v; want the gone one forgotten", left, err)
	}
	if st, _ := r.state(t, m.ID); st != "sent" {
		t.Fatalf("delivery %s", st)
	}
	// the key pair is made once and kept: a second server reads the same
	again, err := (&PushKeys{DB: r.db}).Get(ctx)
	if err != nil || again.Public != func() string { v, _ := r.worker.Push.Get(ctx); return v.Public }() {
		t.Fatalf("second key %v", err)
	}
}
