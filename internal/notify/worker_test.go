package notify

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestDeliveredSignedOnce: an alarm event reaches the webhook that subscribed to it, signed,
// in its language, with the station's zone; not the one that did not subscribe, and not
// twice.
func TestDeliveredSignedOnce(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	rv := newReceiver(t, r.clock)
	other := newReceiver(t, r.clock)
	r.webhook(t, "ops", rv, FormatHelio, "zh-CN", AlarmRaised, AlarmRecovered)
	r.webhook(t, "orders only", other, FormatHelio, "en-US", WorkOrderCreated)
	r.event(t, AlarmRaised, trip)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("first pass: %d deliveries, %v; want 1", n, err)
	}
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("second pass: %d deliveries, %v; want none (sent once)", n, err)
	}
	got := rv.requests()
	if len(got) != 1 || len(other.requests()) != 0 {
		t.Fatalf("receiver got %d, the other %d; want 1 and 0", len(got), len(other.requests()))
	}
	g := got[0]
	if g.verified != nil || g.event != AlarmRaised || !strings.HasPrefix(g.delivery, "hd_") {
		t.Fatalf("headers: event %q delivery %q signature %v", g.event, g.delivery, g.verified)
	}
	var body struct {
		ID, Event, Language, Title string
		Alarm                      struct {
			ID                       int64
			RuleName, LevelName, URL string
			StartAt                  string
			Station                  struct{ Name, TimeZone string }
		}
	}
	if err := json.Unmarshal(g.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.ID != g.delivery || body.Alarm.ID != 41 || body.Language != "zh-CN" || body.Alarm.LevelName != "故障" ||
		body.Alarm.StartAt != "2026-11-29T13:55:00+08:00" || body.Alarm.Station.TimeZone != "Asia/Shanghai" ||
		body.Alarm.URL != "https://helio.example/#/alarm?detail=41" || !strings.Contains(body.Title, "Golmud Plant") {
		t.Fatalf("body %s", g.body)
	}
	if st, n := r.state(t, g.delivery); st != "sent" || n != 1 {
		t.Fatalf("delivery %s after %d attempts; want sent after 1", st, n)
	}
	// a tampered body or an old signature does not verify
	if Verify(rv.secret, g.signature, append(g.body, ' '), r.clock.Now(), time.Minute) == nil {
		t.Fatal("a changed body verified")
	}
	if Verify(rv.secret, g.signature, g.body, r.clock.Now().Add(10*time.Minute), 5*time.Minute) == nil {
		t.Fatal("a signature older than the replay window verified")
	}
}

// TestRetriedWithBackoff: a receiver that fails (5xx, then no answer at all) is tried again
// after 30 s, 1 min, 2 min …, every attempt logged, until it takes the delivery; one that
// never does is given up after 24 hours.
func TestRetriedWithBackoff(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	rv := newReceiver(t, r.clock)
	rv.answer = func(n int) int {
		switch n {
		case 1, 2:
			return 503
		case 3:
			return 0 // hangs: the client's timeout
		}
		return 200
	}
	w := r.webhook(t, "flaky", rv, FormatHelio, "en-US", AlarmRaised)
	r.event(t, AlarmRaised, trip)
	for i := 1; i <= 3; i++ {
		if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 {
			t.Fatalf("attempt %d: %d, %v", i, n, err)
		}
		// not due before its back-off
		r.clock.Add(Backoff(i) - time.Second)
		if n, _ := r.worker.RunOnce(ctx); n != 0 {
			t.Fatalf("attempt %d was tried again before its back-off of %s", i, Backoff(i))
		}
		r.clock.Add(time.Second)
	}
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("fourth attempt: %d, %v", n, err)
	}
	log, err := r.store.Log(ctx, r.org, w.ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []int
	for _, a := range log {
		statuses = append(statuses, a.Status)
	}
	if len(log) != 4 || statuses[0] != 200 || statuses[1] != 0 || statuses[2] != 503 || statuses[3] != 503 || log[0].State != "sent" ||
		log[1].Error == "" || log[0].DeliveryID != log[3].DeliveryID {
		t.Fatalf("log %+v; want 503, 503, no answer, 200 under one delivery id", log)
	}
	ids := map[string]bool{}
	for _, g := range rv.requests() {
		ids[g.delivery] = true
		if g.verified != nil {
			t.Fatal(g.verified)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("delivery ids %v; want one for every attempt", ids)
	}

	// never taken: given up once the next attempt would be past 24 hours
	dead := newReceiver(t, r.clock)
	dead.answer = func(int) int { return 500 }
	r.webhook(t, "dead", dead, FormatSlack, "en-US", AlarmRecovered)
	r.event(t, AlarmRecovered, trip)
	start := r.clock.Now()
	for i := 1; i < 100; i++ {
		if _, err := r.worker.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(Backoff(i))
		if r.clock.Now().Sub(start) > 25*time.Hour {
			break
		}
	}
	got := dead.requests()
	st, n := r.state(t, got[0].delivery)
	if st != "failed" || n != len(got) || n < 20 || r.clock.Now().Sub(start) < RetryFor {
		t.Fatalf("after %d attempts over %s the delivery is %s", n, r.clock.Now().Sub(start), st)
	}
}

// TestCrashBetweenDecisionAndDelivery: a delivery committed with its event is sent by the
// worker of the next start; one sent but not marked (the process stopped mid-send) is sent
// again under the same id, which the receiver uses to take it once.
func TestCrashBetweenDecisionAndDelivery(t *testing.T) {
	r := newRig(t)
	rv := newReceiver(t, r.clock)
	r.webhook(t, "ops", rv, FormatHelio, "en-US", AlarmRaised)
	r.event(t, AlarmRaised, trip) // the decision committed; the process stops before any delivery

	// the next start: its worker stops while the receiver holds the request
	ctx, stop := context.WithCancel(context.Background())
	rv.answer = func(n int) int {
		if n == 1 {
			stop()
			return 0
		}
		return 200
	}
	if _, err := r.worker.RunOnce(ctx); err == nil {
		t.Fatal("the stopped pass reported no error")
	}
	// and the one after that
	after := &Worker{DB: r.db, Now: r.clock.Now, HTTP: r.worker.HTTP}
	if n, err := after.RunOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("after the restart: %d, %v", n, err)
	}
	got := rv.requests()
	if len(got) != 2 || got[0].delivery != got[1].delivery {
		t.Fatalf("requests %+v; want the same delivery twice (at least once, one idempotency id)", got)
	}
	if st, n := r.state(t, got[0].delivery); st != "sent" || n != 1 {
		t.Fatalf("delivery %s after %d logged attempts", st, n)
	}
}

// TestDisabledAndUnsubscribed: a disabled webhook gets no new deliveries; one disabled
// after the event gives the waiting delivery up.
func TestDisabledAndUnsubscribed(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	rv := newReceiver(t, r.clock)
	w := r.webhook(t, "ops", rv, FormatTeams, "en-US", AlarmRaised)
	r.event(t, AlarmRaised, trip)
	in := WebhookInput{Name: w.Name, URL: w.URL, Format: w.Format, Events: w.Events, Language: w.Language, Enabled: false}
	if _, err := r.store.Update(ctx, r.org, w.ID, in); err != nil {
		t.Fatal(err)
	}
	r.event(t, AlarmRaised, trip)
	if _, err := r.worker.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rv.requests()) != 0 {
		t.Fatal("a disabled webhook was sent a delivery")
	}
	log, _ := r.store.Log(ctx, r.org, w.ID, 10)
	if len(log) != 1 || log[0].State != "failed" {
		t.Fatalf("log %+v; want the one waiting delivery given up", log)
	}
}
