package server_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// webhookBodies are the webhook calls' example bodies for the matrices.
func webhookBodies() map[string]string {
	return map[string]string{
		"POST /v2/webhook/add":       `{"name":"Matrix hook","url":"http://127.0.0.1:9/hook","format":"helio","events":["alarm.raised"],"language":"en-US","enabled":true}`,
		"POST /v2/webhook/edit/{id}": `{"name":"Matrix hook 2","url":"https://hooks.example/x","format":"slack","events":["alarm.raised","report.ready"],"language":"zh-CN","enabled":false,"rotateSecret":true}`,
		"POST /v2/webhook/test/{id}": ``,
		"POST /v2/user/email/verify": ``,
		"POST /v2/push/subscribe":    `{"endpoint":"https://push.example/send/matrix","keys":{"p256dh":"BEYwj8Tqw4og2TPfWWdL7bbipqByR25pJD3WHoOACUoF8M4bsGlGmn3NJUi5WdHbINrsL2D0xl723b_yo9iiaY0","auth":"36rqpZs5KAed9pdgrsRSYA"}}`,
		"POST /v2/push/unsubscribe":  `{"endpoint":"https://push.example/send/matrix"}`,
	}
}

// webhookFixture is a webhook of the demo organisation, for the matrices' paths; disabled and
// aimed at a closed port, so nothing leaves the test.
func webhookFixture(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	id, err := e.DB.Insert(context.Background(), `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled,
		created_at, updated_at) VALUES (?, 'Matrix', 'http://127.0.0.1:9/hook', 'helio', ',alarm.raised,', 'en-US', 'whsec_matrix', 0, 0, 0)`, e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
