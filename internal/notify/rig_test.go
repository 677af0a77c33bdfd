package notify

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// clock is a test's time, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// received is one request a receiver got.
type received struct {
	event, delivery, signature string
	body                       []byte
	verified                   error
}

// receiver is a webhook receiver on 127.0.0.1 that checks each request's signature;
// answer, when set, chooses its status (0: hang until the client gives up).
type receiver struct {
	srv    *httptest.Server
	secret string
	clock  *clock
	mu     sync.Mutex
	got    []received
	answer func(n int) int
}

func newReceiver(t *testing.T, c *clock) *receiver {
	r := &receiver{clock: c}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		got := received{event: req.Header.Get(HeaderEvent), delivery: req.Header.Get(HeaderDelivery),
			signature: req.Header.Get(HeaderSignature), body: body}
		got.verified = Verify(r.secret, got.signature, body, r.clock.Now(), 5*time.Minute)
		r.got = append(r.got, got)
		n := len(r.got)
		answer := r.answer
		r.mu.Unlock()
		status := http.StatusNoContent
		if answer != nil {
			status = answer(n)
		}
		if status == 0 {
			<-req.Context().Done()
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "receiver says "+http.StatusText(status))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// rig is a database with one organisation, its webhook store, an outbox and a worker on a
// test clock.
type rig struct {
	db     *store.DB
	org    int64
	clock  *clock
	store  *Store
	outbox *Outbox
	worker *Worker
}

func newRig(t *testing.T) *rig {
	db := storetest.SQLite(t)
	org, err := db.Insert(context.Background(), "INSERT INTO organizations (name, created_at) VALUES ('Notify', 0)")
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)}
	w := &Worker{DB: db, Now: c.Now, HTTP: &http.Client{Timeout: 300 * time.Millisecond}, Base: "https://helio.example"}
	return &rig{db: db, org: org, clock: c, store: &Store{DB: db, Now: c.Now}, outbox: &Outbox{Now: c.Now, Wake: w.Wake}, worker: w}
}

// webhook adds a webhook to rv for events and returns it with its secret.
func (r *rig) webhook(t *testing.T, name string, rv *receiver, format, lang string, events ...string) *Webhook {
	t.Helper()
	w, err := r.store.Create(context.Background(), r.org, WebhookInput{Name: name, URL: rv.srv.URL + "/hook", Format: format,
		Events: events, Language: lang, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	rv.secret = w.Secret
	return w
}

// event writes an alarm event as the alarm engine does, in a transaction of its own.
func (r *rig) event(t *testing.T, event string, a Alarm) {
	t.Helper()
	err := r.db.InTx(context.Background(), func(tx *store.Tx) error {
		return r.outbox.Enqueue(context.Background(), tx, r.org, event, a.ID, func() (any, error) { return a, nil })
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) state(t *testing.T, id string) (state string, attempts int) {
	t.Helper()
	var n int64
	for _, c := range id[len("hd_"):] {
		n = n*10 + int64(c-'0')
	}
	if err := r.db.QueryRow(context.Background(), "SELECT state, attempts FROM notify_outbox WHERE id = ?", n).Scan(&state, &attempts); err != nil {
		t.Fatal(err)
	}
	return state, attempts
}

var trip = Alarm{ID: 41, Level: 2, Rule: "inverter_fault", MsgKey: "alarm_rule_inverter_fault", StationID: 7, StationName: "Golmud Plant",
	TimeZone: "Asia/Shanghai", DeviceSN: "INV-0007", DeviceName: "Inverter 7", StartAt: time.Date(2026, 11, 29, 5, 55, 0, 0, time.UTC).UnixMilli()}
