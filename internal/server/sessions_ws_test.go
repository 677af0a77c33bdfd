package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/push"
)

// Logout, a password reset and disabling the user close the user's WebSocket at once
// through the real API (they stayed open until a 2-minute recheck).
func TestSessionEndClosesWebSocketAtOnce(t *testing.T) {
	e := apitest.New(t)
	srv := httptest.NewServer(e.Server.Handler())
	defer srv.Close()
	dial := func(token string) chan websocket.StatusCode {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/v2/webpush/message?token="+token, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		if _, _, err := c.Read(ctx); err != nil { // hello
			t.Fatal(err)
		}
		done := make(chan websocket.StatusCode, 1)
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					done <- websocket.CloseStatus(err)
					return
				}
			}
		}()
		return done
	}
	post := func(token, path, body string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %v %v", path, res.StatusCode, err)
		}
		res.Body.Close()
	}
	expectClosed := func(done chan websocket.StatusCode, what string) {
		t.Helper()
		select {
		case code := <-done:
			if code != push.StatusSessionEnded {
				t.Fatalf("%s: closed with %d, want %d", what, code, push.StatusSessionEnded)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: the WebSocket is still open", what)
		}
	}
	admin := e.Tokens["admin"]
	op := e.Accounts.OperatorID

	tok := e.Login(t, "operator", demo.Password)
	ws := dial(tok)
	post(tok, "/v2/logout", "")
	expectClosed(ws, "logout")

	ws = dial(e.Login(t, "operator", demo.Password))
	post(admin, fmt.Sprintf("/v2/org/user/resetpwd/%d", op), `{"password":"NewPassw0rd"}`)
	expectClosed(ws, "password reset")

	ws = dial(e.Login(t, "operator", "NewPassw0rd"))
	post(admin, fmt.Sprintf("/v2/org/user/validdisable/%d", op), "")
	expectClosed(ws, "disabled")
}
