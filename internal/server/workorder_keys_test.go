package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// Work-order writes sent twice under one Idempotency-Key (a phone's offline queue) answer as
// the first time and change nothing: an order opened once, a comment stored once, a transition
// taken once (the repeat is not refused as a move from the wrong status). Without a key a
// repeat is a second write; a bad key is a 400 naming the header.
func TestWorkOrderIdempotencyKeys(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	var station int64
	if err := e.DB.QueryRow(ctx, "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key).Scan(&station); err != nil {
		t.Fatal(err)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := e.DB.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	send := func(url, body, key, as string) *apitest.Result {
		t.Helper()
		s := apitest.Scenario{Method: "POST", URL: url, As: as, Body: body, Code: -1}
		if key != "" {
			s.Headers = map[string]string{"Idempotency-Key": key}
		}
		return e.Do(t, s)
	}
	add := fmt.Sprintf(`{"stationId":%d,"title":"Keyed order","priority":2,"plannedStart":"2026-11-29T08:00:00Z","plannedEnd":"2026-11-29T12:00:00Z","assigneeUserId":%d}`,
		station, e.Accounts.OperatorID)
	first := send("/v2/workorder/add", add, "crew-add-0001", "admin")
	again := send("/v2/workorder/add", add, "crew-add-0001", "admin")
	if first.Status != 200 || again.Status != 200 || first.Body != again.Body {
		t.Fatalf("add twice under one key: %d %s / %d %s", first.Status, first.Body, again.Status, again.Body)
	}
	if n := count("SELECT COUNT(*) FROM work_orders WHERE title = 'Keyed order'"); n != 1 {
		t.Fatalf("%d orders opened, want 1", n)
	}
	var id int64
	if err := e.DB.QueryRow(ctx, "SELECT id FROM work_orders WHERE title = 'Keyed order'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	// the operator accepts from the phone: the queue sends it twice
	url := fmt.Sprintf("/v2/workorder/transition/%d", id)
	a1 := send(url, `{"action":"accept"}`, "crew-accept-0001", "operator")
	a2 := send(url, `{"action":"accept"}`, "crew-accept-0001", "operator")
	if a1.Status != 200 || a2.Status != 200 || a1.Body != a2.Body {
		t.Fatalf("accept twice under one key: %d / %d %s", a1.Status, a2.Status, a2.Body)
	}
	if n := count("SELECT COUNT(*) FROM work_order_events WHERE order_id = ? AND action = 'accept'", id); n != 1 {
		t.Fatalf("%d accept events, want 1", n)
	}
	// without a key the same accept is a move from the wrong status
	if r := send(url, `{"action":"accept"}`, "", "operator"); r.Status != 409 {
		t.Fatalf("accept again without a key: %d, want 409", r.Status)
	}
	// comments: one per key
	curl := fmt.Sprintf("/v2/workorder/comment/%d", id)
	for range 3 {
		if r := send(curl, `{"body":"on site"}`, "crew-comment-0001", "operator"); r.Status != 200 {
			t.Fatalf("comment: %d %s", r.Status, r.Body)
		}
	}
	if n := count("SELECT COUNT(*) FROM work_order_comments WHERE order_id = ?", id); n != 1 {
		t.Fatalf("%d comments under one key, want 1", n)
	}
	// a key used for another order's comment, and a malformed key, are refused naming the header
	if r := send(url, `{"action":"start"}`, "crew-comment-0001", "operator"); r.Status != 400 || !strings.Contains(r.Body, "Idempotency-Key") {
		t.Fatalf("a key reused on another request: %d %s", r.Status, r.Body)
	}
	if r := send(curl, `{"body":"x"}`, "no", "operator"); r.Status != 400 || !strings.Contains(r.Body, "Idempotency-Key") {
		t.Fatalf("a malformed key: %d %s", r.Status, r.Body)
	}
	// another organisation's user cannot reach the order with a key either
	if r := send(curl, `{"body":"x"}`, "other-comment-0001", "other"); r.Status != 404 {
		t.Fatalf("another organisation's comment: %d, want 404", r.Status)
	}
}
