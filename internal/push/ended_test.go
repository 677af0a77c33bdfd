package push_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// closedWith waits for the connection to close and returns its close code.
func (x *conn) closedWith(t *testing.T, within time.Duration) websocket.StatusCode {
	t.Helper()
	select {
	case err := <-x.closed:
		return websocket.CloseStatus(err)
	case <-time.After(within):
		t.Fatalf("still open after %s", within)
		return 0
	}
}

func (x *conn) stillOpen(t *testing.T, wait time.Duration) {
	t.Helper()
	select {
	case err := <-x.closed:
		t.Fatalf("closed: %v", err)
	case <-time.After(wait):
	}
}

// Sessions ended on replica A close the WebSockets on replica B at once (not at the
// 2-minute recheck): one session by its token hash (logout), or all of a user's.
func TestEndedSessionsCloseSocketsOnEveryReplica(t *testing.T) {
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB, err := store.Open(context.Background(), "", storetest.SchemaURL(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbB.Close() })
	acc := seed(t, dbA)
	subject := "helio.test." + randomHex()
	var buses []*push.NATS
	for range 2 {
		b, err := push.DialNATS(natsURL(), subject)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		buses = append(buses, b)
	}
	a := newReplica(t, dbA, buses[0], push.Options{})
	b := newReplica(t, dbB, buses[1], push.Options{})

	tok1, tok2 := b.token(t, acc.OperatorID), b.token(t, acc.OperatorID)
	first, second := b.dial(t, tok1), b.dial(t, tok2)
	admin := b.dial(t, b.token(t, acc.AdminID))
	for _, c := range []*conn{first, second, admin} {
		c.next(t, "counts", 2*time.Second)
	}
	ctx := context.Background()
	// logout of one session on A
	if err := a.sessions.End(ctx, auth.HashToken(tok1)); err != nil {
		t.Fatal(err)
	}
	a.hub.EndSessions(ctx, acc.OperatorID, auth.HashToken(tok1))
	if code := first.closedWith(t, 2*time.Second); code != push.StatusSessionEnded {
		t.Fatalf("close code %d, want %d", code, push.StatusSessionEnded)
	}
	second.stillOpen(t, 200*time.Millisecond)
	// all of the user's (password reset, disabled)
	if err := a.sessions.RevokeUser(ctx, acc.OperatorID); err != nil {
		t.Fatal(err)
	}
	a.hub.EndSessions(ctx, acc.OperatorID, "")
	if code := second.closedWith(t, 2*time.Second); code != push.StatusSessionEnded {
		t.Fatalf("close code %d", code)
	}
	admin.stillOpen(t, 200*time.Millisecond)
	// a new connection with an ended token is refused
	ctx2, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, _, err := websocket.Dial(ctx2, "ws"+b.srv.URL[4:]+"/v2/webpush/message?token="+tok2, nil); err == nil {
		t.Fatal("an ended session connected")
	}
}
