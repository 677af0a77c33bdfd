package server_test

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/notify"
)

// TestNotifyBounds: a client subscribing browsers in a loop keeps only its newest
// MaxSubscriptions, and an organisation adds at most MaxWebhooks webhooks (then 409,
// nothing stored).
func TestNotifyBounds(t *testing.T) {
	e := apitest.New(t)
	b64 := base64.RawURLEncoding
	for i := range notify.MaxSubscriptions + 5 {
		k, _ := ecdh.P256().GenerateKey(rand.Reader)
		auth := make([]byte, 16)
		_, _ = rand.Read(auth)
		e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/push/subscribe", As: "operator", Status: 200, Body: fmt.Sprintf(
			`{"endpoint":"https://push.example/send/%d","keys":{"p256dh":%q,"auth":%q}}`, i, b64.EncodeToString(k.PublicKey().Bytes()), b64.EncodeToString(auth))})
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM webpush_subscriptions WHERE user_id = ?", e.Accounts.OperatorID); n != notify.MaxSubscriptions {
		t.Fatalf("%d subscriptions kept, want %d", n, notify.MaxSubscriptions)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM webpush_subscriptions WHERE endpoint = 'https://push.example/send/0'"); n != 0 {
		t.Fatal("the oldest subscription was kept")
	}
	for i := range notify.MaxWebhooks {
		if _, err := e.DB.Exec(context.Background(), `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
			VALUES (?, ?, 'https://hooks.example/x', 'helio', ',alarm.raised,', 'en-US', 's', 1, 0, 0)`, e.Accounts.OrgID, fmt.Sprint("hook ", i)); err != nil {
			t.Fatal(err)
		}
	}
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/webhook/add", As: "admin", Status: 409, Contains: []string{"at most 50 webhooks"},
		Headers: map[string]string{"Accept-Language": "en-US"},
		Body:    `{"name":"one more","url":"https://hooks.example/y","format":"helio","events":["alarm.raised"],"language":"en-US","enabled":true}`})
	if n := e.Count(t, "SELECT COUNT(*) FROM webhooks WHERE org_id = ?", e.Accounts.OrgID); n != notify.MaxWebhooks {
		t.Fatalf("%d webhooks", n)
	}
}
