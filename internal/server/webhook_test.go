package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/sim"
)

// hookReceiver is a webhook receiver on 127.0.0.1 that keeps what it was sent, with each
// signature checked.
type hookReceiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	got    []map[string]any
	bad    []error
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err := notify.Verify(r.secret, req.Header.Get(notify.HeaderSignature), body, time.Now(), 5*time.Minute); err != nil {
			r.bad = append(r.bad, err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var m map[string]any
		_ = json.Unmarshal(body, &m)
		m["_delivery"] = req.Header.Get(notify.HeaderDelivery)
		r.got = append(r.got, m)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// events returns what arrived of event.
func (r *hookReceiver) events(event string) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, m := range r.got {
		if m["event"] == event {
			out = append(out, m)
		}
	}
	return out
}

// TestWebhookEvents: through the real server, an alarm raised by the simulator's samples,
// its dealing, its recovery and a work order made from it each reach the organisation's
// webhook, signed, in the webhook's language, with the alarm's time in its station's zone;
// the delivery log lists them.
func TestWebhookEvents(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	rv := newHookReceiver(t)
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/webhook/add", As: "admin", Body: fmt.Sprintf(
		`{"name":"ops","url":%q,"format":"helio","events":["alarm.raised","alarm.recovered","alarm.dealt","workorder.created"],"language":"zh-CN","enabled":true}`,
		rv.srv.URL+"/helio")})
	var hook struct {
		Data notify.Webhook `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.Body), &hook); err != nil || r.Status != 200 || hook.Data.Secret == "" {
		t.Fatalf("add: %d %s", r.Status, r.Body)
	}
	rv.secret = hook.Data.Secret

	now := time.Now().UTC().Truncate(5 * time.Minute)
	eng := e.Simulate(t, now.Add(-24*time.Hour), now.Add(-30*time.Minute))
	target := e.Fleet.Stations[4].Children[0].Devices[0]
	if _, err := eng.Sim.InjectFault(sim.FaultRequest{Kind: sim.FaultInverterTrip, Target: target.Key, Start: now.Add(-25 * time.Minute), Duration: 15 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	for at := now.Add(-25 * time.Minute); !at.After(now); at = at.Add(5 * time.Minute) {
		if _, err := eng.StepNow(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	e.Server.Alarms.Settle()
	if _, err := e.Server.Notify.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	raised := rv.events(notify.AlarmRaised)
	recovered := rv.events(notify.AlarmRecovered)
	if len(raised) == 0 || len(recovered) == 0 || len(rv.bad) != 0 {
		t.Fatalf("raised %d, recovered %d, refused signatures %v", len(raised), len(recovered), rv.bad)
	}
	var alarmID int64
	var zone string
	var startAt int64
	var tripped map[string]any
	for _, m := range raised {
		a := m["alarm"].(map[string]any)
		if a["rule"] == "inverter_fault" {
			tripped = a
		}
	}
	if tripped == nil {
		t.Fatalf("no inverter fault among %v", raised)
	}
	alarmID = int64(tripped["id"].(float64))
	if err := e.DB.QueryRow(ctx, "SELECT s.timezone, a.start_at FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.id = ?", alarmID).Scan(&zone, &startAt); err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation(zone)
	if want := time.UnixMilli(startAt).In(loc).Format(time.RFC3339); tripped["startAt"] != want || tripped["levelName"] != "故障" {
		t.Fatalf("alarm %v; want startAt %s in %s and the zh-CN level name", tripped, want, zone)
	}

	// dealt with, and a work order made from it
	e.Do(t, apitest.Scenario{Method: "POST", URL: fmt.Sprintf("/v2/warn/deal/%d", alarmID), As: "admin",
		Body: `{"reason":"Reset the inverter remotely","dealMethod":1}`, Status: 200})
	var stationID int64
	if err := e.DB.QueryRow(ctx, "SELECT station_id FROM alarms WHERE id = ?", alarmID).Scan(&stationID); err != nil {
		t.Fatal(err)
	}
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/workorder/add", As: "admin", Status: 200, Body: fmt.Sprintf(
		`{"title":"Check the inverter","stationId":%d,"alarmId":0,"priority":2,"plannedStart":"2026-12-01T08:00:00Z","plannedEnd":"2026-12-01T12:00:00Z"}`, stationID)})
	if _, err := e.Server.Notify.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	dealt := rv.events(notify.AlarmDealt)
	orders := rv.events(notify.WorkOrderCreated)
	if len(dealt) != 1 || len(orders) != 1 {
		t.Fatalf("dealt %d, orders %d; want one each", len(dealt), len(orders))
	}
	if a := dealt[0]["alarm"].(map[string]any); a["dealReason"] != "Reset the inverter remotely" || a["dealtBy"] == "" || int64(a["id"].(float64)) != alarmID {
		t.Fatalf("dealt %v", a)
	}
	// every delivery once, each under its own id; the log lists them all as sent
	ids := map[any]bool{}
	for _, m := range rv.got {
		if ids[m["_delivery"]] {
			t.Fatalf("delivery %v came twice", m["_delivery"])
		}
		ids[m["_delivery"]] = true
	}
	var log struct {
		Data []notify.Attempt `json:"data"`
	}
	r = e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/webhook/log/%d", hook.Data.ID), As: "admin", Status: 200})
	if err := json.Unmarshal([]byte(r.Body), &log); err != nil || len(log.Data) != len(rv.got) {
		t.Fatalf("log of %d attempts for %d deliveries: %s", len(log.Data), len(rv.got), r.Body)
	}
	for _, a := range log.Data {
		if a.State != "sent" || a.Status != http.StatusNoContent {
			t.Fatalf("log entry %+v", a)
		}
	}
}
