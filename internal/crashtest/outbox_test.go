package crashtest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/proctest"
	"github.com/helio-energy/helio/internal/store"
)

// TestOutboxSurvivesKill: webhook deliveries committed with their events (the outbox) are
// sent by the server; killed with SIGKILL while a receiver holds a delivery, and started
// again, it sends every delivery, the interrupted one again under the same id, so the
// receiver, keeping the ids, takes each exactly once; the outbox ends with all sent.
func TestOutboxSurvivesKill(t *testing.T) {
	bin := buildHelio(t)
	dir := t.TempDir()
	ctx := context.Background()

	var mu sync.Mutex
	got := map[string]int{} // delivery id → requests
	var verified []error
	held := make(chan struct{})
	release := make(chan struct{})
	var holdOnce sync.Once
	secret := "whsec_crashtest"
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id := r.Header.Get(notify.HeaderDelivery)
		mu.Lock()
		got[id]++
		if err := notify.Verify(secret, r.Header.Get(notify.HeaderSignature), body, time.Now(), 5*time.Minute); err != nil {
			verified = append(verified, err)
		}
		mu.Unlock()
		first := false
		holdOnce.Do(func() { first = true })
		if first {
			close(held) // the server is killed while this delivery waits for its answer
			<-release
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rv.Close()
	defer close(release)

	// the decisions: twenty deliveries written as the event's transaction writes them
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	org, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES ('Crash Test Solar', 0)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
		VALUES (?, 'ops', ?, 'helio', ',report.ready,', 'en-US', ?, 1, 0, 0)`, org, rv.URL+"/hook", secret); err != nil {
		t.Fatal(err)
	}
	ob := &notify.Outbox{}
	const n = 20
	for i := range n {
		err := db.InTx(ctx, func(tx *store.Tx) error {
			return ob.Enqueue(ctx, tx, org, notify.ReportReady, int64(i+1), func() (any, error) {
				return notify.Report{ID: int64(i + 1), Name: "November", Format: "pdf", At: time.Now().UnixMilli()}, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	srv := &server{t: t, bin: bin, data: dir, addr: proctest.FreeAddr(t), log: &proctest.Log{}}
	defer func() {
		if t.Failed() {
			t.Logf("helio output:\n%s", tail(srv.log.String()))
		}
	}()
	srv.start()
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("no delivery reached the receiver")
	}
	srv.kill()
	srv.start()
	defer srv.stop()
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		distinct := len(got)
		mu.Unlock()
		if distinct == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deliveries arrived", distinct, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	srv.stop()

	mu.Lock()
	defer mu.Unlock()
	twice := 0
	for id, c := range got {
		switch {
		case c == 2:
			twice++
		case c != 1:
			t.Errorf("%s arrived %d times", id, c)
		}
	}
	if twice != 1 || len(verified) != 0 {
		t.Fatalf("%d deliveries arrived twice (want the interrupted one), signatures refused: %v", twice, verified)
	}
	db, err = store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sent int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'sent'").Scan(&sent); err != nil || sent != n {
		t.Fatalf("%d of %d deliveries marked sent, %v", sent, n, err)
	}
}
