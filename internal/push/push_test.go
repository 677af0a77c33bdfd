package push_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// replica is one server: its database handle, sessions, message store, hub and engine.
type replica struct {
	db       *store.DB
	sessions *auth.Sessions
	msgs     *message.Store
	hub      *push.Hub
	eng      *alarm.Engine
	srv      *httptest.Server
}

func newReplica(t *testing.T, db *store.DB, bus push.Bus, opt push.Options) *replica {
	t.Helper()
	r := &replica{db: db, sessions: &auth.Sessions{DB: db, TTL: time.Hour}}
	r.msgs = &message.Store{DB: db}
	opt.Messages, opt.Sessions, opt.Bus = r.msgs, r.sessions, bus
	hub, err := push.NewHub(opt)
	if err != nil {
		t.Fatal(err)
	}
	r.hub = hub
	r.msgs.Pub = hub
	r.eng = alarm.NewEngine(db, alarm.Options{Messages: r.msgs})
	api := httpapi.New(r.sessions.Authenticate)
	hub.Routes(api)
	r.srv = httptest.NewServer(httpapi.Chain(api))
	t.Cleanup(func() {
		hub.Close()
		r.srv.Close()
	})
	return r
}

func seed(t *testing.T, db *store.DB) *demo.Accounts {
	t.Helper()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	ctx := context.Background()
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		t.Fatal(err)
	}
	return acc
}

func (r *replica) token(t *testing.T, userID int64) string {
	t.Helper()
	tok, _, err := r.sessions.Create(context.Background(), userID, "test")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// conn is a client connection whose frames arrive on a channel.
type conn struct {
	c      *websocket.Conn
	frames chan frame
	closed chan error
}

type frame struct {
	Type   string          `json:"type"`
	Data   json.RawMessage `json:"data"`
	Counts *message.Counts `json:"counts"`
	at     time.Time
}

func (r *replica) dial(t *testing.T, token string) *conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(r.srv.URL, "http")+"/v2/webpush/message?token="+token, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	x := &conn{c: c, frames: make(chan frame, 64), closed: make(chan error, 1)}
	go func() {
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				x.closed <- err
				return
			}
			var f frame
			if err := json.Unmarshal(b, &f); err == nil {
				f.at = time.Now()
				x.frames <- f
			}
		}
	}()
	t.Cleanup(func() { c.CloseNow() })
	return x
}

// next waits for the next frame of a type (skipping others).
func (x *conn) next(t *testing.T, typ string, within time.Duration) frame {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case f := <-x.frames:
			if f.Type == typ {
				return f
			}
		case <-deadline:
			t.Fatalf("no %s frame within %s", typ, within)
		}
	}
}

// none checks that no frame of a type arrives for a while.
func (x *conn) none(t *testing.T, typ string, wait time.Duration) {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case f := <-x.frames:
			if f.Type == typ {
				t.Fatalf("unexpected %s frame: %s", typ, f.Data)
			}
		case <-deadline:
			return
		}
	}
}

func counts(t *testing.T, f frame) message.Counts {
	var c message.Counts
	if err := json.Unmarshal(f.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRefusesBadTokens(t *testing.T) {
	db := storetest.SQLite(t)
	acc := seed(t, db)
	r := newReplica(t, db, push.NewLocal(), push.Options{})
	revoked := r.token(t, acc.OperatorID)
	if err := r.sessions.RevokeUser(context.Background(), acc.OperatorID); err != nil {
		t.Fatal(err)
	}
	base := "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/v2/webpush/message"
	for name, c := range map[string]struct {
		url  string
		code int
	}{
		"missing token":  {base, 401},
		"empty token":    {base + "?token=", 401},
		"unknown token":  {base + "?token=not-a-token", 401},
		"revoked token":  {base + "?token=" + revoked, httpapi.CodeSessionEnded},
		"tampered token": {base + "?token=" + revoked + "x", 401},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c0, resp, err := websocket.Dial(ctx, c.url, nil)
			if err == nil {
				c0.CloseNow()
				t.Fatal("connected")
			}
			if resp == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("response %v", resp)
			}
			var env httpapi.Envelope
			if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Code != c.code {
				t.Fatalf("envelope %+v (%v), want code %d", env, err, c.code)
			}
		})
	}
	if r.hub.Connections() != 0 {
		t.Fatalf("%d connections held", r.hub.Connections())
	}
}

func TestDeliversToTheUsersConnections(t *testing.T) {
	db := storetest.SQLite(t)
	acc := seed(t, db)
	r := newReplica(t, db, push.NewLocal(), push.Options{PingInterval: 50 * time.Millisecond, RecheckInterval: 100 * time.Millisecond})
	adminTok := r.token(t, acc.AdminID)
	tab1, tab2 := r.dial(t, adminTok), r.dial(t, r.token(t, acc.AdminID))
	opTok := r.token(t, acc.OperatorID)
	op := r.dial(t, opTok)
	other := r.dial(t, r.token(t, acc.OtherID))
	for _, c := range []*conn{tab1, tab2, op, other} {
		c.next(t, "hello", time.Second)
		if n := counts(t, c.next(t, "counts", time.Second)); n.Unread != 0 {
			t.Fatalf("initial counts %+v", n)
		}
	}
	if r.hub.Connections() != 4 {
		t.Fatalf("%d connections", r.hub.Connections())
	}
	// Several pings go by; the connections stay.
	time.Sleep(200 * time.Millisecond)

	start := time.Now()
	if _, err := r.msgs.Create(context.Background(), message.New{UserID: acc.AdminID, OrgID: acc.OrgID, Kind: message.KindSystem,
		Title: message.Text{Key: "alarm_rule_grid_fault"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*conn{tab1, tab2} {
		f := c.next(t, "message", time.Second)
		var m message.Message
		_ = json.Unmarshal(f.Data, &m)
		if m.Title != "Grid fault" || m.MessageType != "system" || m.Status != 0 {
			t.Fatalf("message frame %s", f.Data)
		}
		if d := f.at.Sub(start); d > time.Second {
			t.Fatalf("delivered after %s", d)
		}
		if f.Counts == nil || f.Counts.Unread != 1 {
			t.Fatalf("counters on the message frame: %+v", f.Counts)
		}
	}
	op.none(t, "message", 300*time.Millisecond)
	other.none(t, "message", 0)

	// Reading on one tab updates the other's counters.
	var id int64
	_ = db.QueryRow(context.Background(), "SELECT id FROM messages WHERE user_id = ?", acc.AdminID).Scan(&id)
	if _, _, err := r.msgs.MarkRead(context.Background(), acc.AdminID, []int64{id}); err != nil {
		t.Fatal(err)
	}
	if n := counts(t, tab2.next(t, "counts", time.Second)); n.Unread != 0 {
		t.Fatalf("counts after read: %+v", n)
	}
	// The next message counts from there.
	if _, err := r.msgs.Create(context.Background(), message.New{UserID: acc.AdminID, OrgID: acc.OrgID, Kind: message.KindSystem,
		Title: message.Plain("Second")}); err != nil {
		t.Fatal(err)
	}
	if f := tab2.next(t, "message", time.Second); f.Counts == nil || f.Counts.Unread != 1 {
		t.Fatalf("counters after read and a new message: %+v", f.Counts)
	}
	tab1.next(t, "message", time.Second)

	// A connection whose counters are not read yet gets the message frame at once and
	// its counters right after.
	late := r.dial(t, adminTok)
	if _, err := r.msgs.Create(context.Background(), message.New{UserID: acc.AdminID, OrgID: acc.OrgID, Kind: message.KindSystem,
		Title: message.Plain("Third")}); err != nil {
		t.Fatal(err)
	}
	late.next(t, "message", time.Second)
	if n := counts(t, late.next(t, "counts", time.Second)); n.Unread != 2 {
		t.Fatalf("late connection's counters: %+v", n)
	}

	// A session ended elsewhere closes its connections (and only those).
	if err := r.sessions.End(context.Background(), auth.HashToken(opTok)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-op.closed:
		if websocket.CloseStatus(err) != push.StatusSessionEnded {
			t.Fatalf("closed with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the signed-out session's connection stayed open")
	}
	select {
	case err := <-tab1.closed:
		t.Fatalf("another connection closed: %v", err)
	default:
	}
}

// TestAlarmReachesTheRightSockets raises alarms with the engine and checks who is told.
func TestAlarmReachesTheRightSockets(t *testing.T) {
	db := storetest.SQLite(t)
	acc := seed(t, db)
	r := newReplica(t, db, push.NewLocal(), push.Options{})
	admin := r.dial(t, r.token(t, acc.AdminID))
	op := r.dial(t, r.token(t, acc.OperatorID))
	other := r.dial(t, r.token(t, acc.OtherID))
	for _, c := range []*conn{admin, op, other} {
		c.next(t, "counts", time.Second) // connected and counted
	}
	ids, err := demo.DeviceIDs(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	raise := func(key string) time.Time {
		start := time.Now()
		err := r.eng.Observe(context.Background(), []telemetry.Sample{{DeviceID: ids[key], Time: time.Now(), Status: telemetry.StatusFault,
			ACVoltageV: 230, FrequencyHz: 50}})
		if err != nil {
			t.Fatal(err)
		}
		return start
	}
	// A station not granted to the operator.
	start := raise("za-stellenbosch-1-inv01")
	f := admin.next(t, "message", time.Second)
	if d := f.at.Sub(start); d > time.Second || !strings.Contains(string(f.Data), `"messageType":"alarm"`) || !strings.Contains(string(f.Data), `"alarmId":`) {
		t.Fatalf("admin frame after %s: %s", d, f.Data)
	}
	if c := f.Counts; c == nil || c.Unread != 1 || c.UnprocessedAlarm != 1 {
		t.Fatalf("admin counts %+v", c)
	}
	op.none(t, "message", 300*time.Millisecond)
	other.none(t, "message", 0)
	// A granted station: the operator too, never the other organisation.
	raise("cn-golmud-1-inv01")
	admin.next(t, "message", time.Second)
	op.next(t, "message", time.Second)
	other.none(t, "message", 300*time.Millisecond)
	// The other organisation's station: its own user only.
	raise("other-tw-tainan-1-inv01")
	other.next(t, "message", time.Second)
	admin.none(t, "message", 300*time.Millisecond)
	op.none(t, "message", 0)
}

// TestCrossReplicaOverNATS runs two replicas on one PostgreSQL database, each with its
// own hub on a NATS bus: an alarm raised on replica A reaches a WebSocket client of
// replica B.
func TestCrossReplicaOverNATS(t *testing.T) {
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB, err := store.Open(context.Background(), "", storetest.SchemaURL(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbB.Close() })
	acc := seed(t, dbA)
	subject := "helio.test." + randomHex()
	busA, err := push.DialNATS(natsURL(), subject)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busA.Close() })
	busB, err := push.DialNATS(natsURL(), subject)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busB.Close() })
	a := newReplica(t, dbA, busA, push.Options{})
	b := newReplica(t, dbB, busB, push.Options{})

	admin := b.dial(t, b.token(t, acc.AdminID))
	other := b.dial(t, b.token(t, acc.OtherID))
	adminA := a.dial(t, a.token(t, acc.AdminID))
	for _, c := range []*conn{admin, other, adminA} {
		c.next(t, "counts", 2*time.Second)
	}
	ids, err := demo.DeviceIDs(context.Background(), dbA)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := a.eng.Observe(context.Background(), []telemetry.Sample{{DeviceID: ids["cn-golmud-2-inv03"], Time: time.Now(),
		Status: telemetry.StatusFault, ACVoltageV: 400, FrequencyHz: 50}}); err != nil {
		t.Fatal(err)
	}
	f := admin.next(t, "message", time.Second)
	if d := f.at.Sub(start); d > time.Second {
		t.Fatalf("crossed replicas in %s", d)
	}
	t.Logf("alarm on replica A → frame on replica B in %s", f.at.Sub(start).Round(time.Microsecond))
	if c := f.Counts; c == nil || c.Unread != 1 || c.UnprocessedAlarm != 1 {
		t.Fatalf("counts on replica B: %+v", c)
	}
	adminA.next(t, "message", time.Second) // and on A's own client
	other.none(t, "message", 300*time.Millisecond)
	// Exactly once per client, although both replicas hear the event.
	admin.none(t, "message", 200*time.Millisecond)
	if b.hub.Connections() != 2 || a.hub.Connections() != 1 {
		t.Fatalf("connections: A %d, B %d", a.hub.Connections(), b.hub.Connections())
	}
}

func natsURL() string {
	if u := os.Getenv("HELIO_TEST_NATS"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

func randomHex() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func TestLocalBus(t *testing.T) {
	b := push.NewLocal()
	got := make(chan string, 4)
	stop, err := b.Subscribe(func(d []byte) { got <- string(d) })
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Publish(context.Background(), []byte("one"))
	if s := <-got; s != "one" {
		t.Fatal(s)
	}
	stop()
	_ = b.Publish(context.Background(), []byte("two"))
	select {
	case s := <-got:
		t.Fatalf("delivered after unsubscribe: %s", s)
	case <-time.After(50 * time.Millisecond):
	}
	_ = b.Close()
	if err := b.Publish(context.Background(), []byte("x")); !errors.Is(err, push.ErrClosed) {
		t.Fatalf("publish on a closed bus: %v", err)
	}
}
