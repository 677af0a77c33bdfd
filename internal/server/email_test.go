package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/notify/mailpittest"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestAlarmEmail: through the real server and a real SMTP server, the operator proves their
// address by the link mailed to it, chooses e-mail among their notification methods, and an
// alarm raised by the simulator's samples reaches them by e-mail in their language, with the
// alarm's time in its station's zone.
func TestAlarmEmail(t *testing.T) {
	mp := mailpittest.Start(t)
	cfg := apitest.Config()
	cfg.SMTPAddr, cfg.SMTPFrom, cfg.SMTPSecurity = mp.SMTP, "helio@helio.example", "none"
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	e.Fleet = demo.Fleet()
	ctx := context.Background()
	if err := demo.SeedFleet(ctx, e.DB, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	// the admin sees every station; the language comes from their console settings
	if _, err := e.DB.Exec(ctx, `UPDATE users SET email = 'ada@helio.example', settings = '{"locale":"ja-JP"}' WHERE id = ?`, e.Accounts.AdminID); err != nil {
		t.Fatal(err)
	}
	state := func() (out struct {
		Email           string
		Verified, Relay bool
	}) {
		r := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/user/email", As: "admin", Status: 200})
		var env struct {
			Data any `json:"data"`
		}
		env.Data = &out
		_ = json.Unmarshal([]byte(r.Body), &env)
		return out
	}
	if s := state(); s.Verified || !s.Relay || s.Email != "ada@helio.example" {
		t.Fatalf("before: %+v", s)
	}
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/user/email/verify", As: "admin", Status: 200, Headers: map[string]string{"Accept-Language": "en-US"}})
	got := mp.Wait(t, 1, 5*time.Second)
	link := regexp.MustCompile(`http://[^\s]+/v2/email/confirm/[0-9a-f]{64}`).FindString(mp.Message(t, got[0].ID).Text)
	if link == "" {
		t.Fatalf("no link in %q", mp.Message(t, got[0].ID).Text)
	}
	path := link[strings.Index(link, "/v2/"):]
	req := httptest.NewRequest("GET", path, nil)
	rec := httptest.NewRecorder()
	e.Server.API.ServeHTTP(rec, req)
	if rec.Code != http.StatusFound || !strings.HasSuffix(rec.Header().Get("Location"), "/#/user/settings?email=verified") {
		t.Fatalf("confirm: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	if s := state(); !s.Verified {
		t.Fatalf("after the link: %+v", s)
	}
	// the link is good once
	rec = httptest.NewRecorder()
	e.Server.API.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if !strings.HasSuffix(rec.Header().Get("Location"), "email=expired") {
		t.Fatalf("second use: %s", rec.Header().Get("Location"))
	}

	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/warn/notify/settings", As: "admin", Status: 200,
		Body: `{"levels":[1,2],"frequency":"high","dailyLimit":50,"methods":[1,3],"allowed":1,"timezone":"UTC","digestMinutes":0}`})
	now := time.Now().UTC().Truncate(5 * time.Minute)
	eng := e.Simulate(t, now.Add(-24*time.Hour), now.Add(-30*time.Minute))
	target := e.Fleet.Stations[4].Children[0].Devices[0]
	if _, err := eng.Sim.InjectFault(sim.FaultRequest{Kind: sim.FaultInverterTrip, Target: target.Key, Start: now.Add(-25 * time.Minute), Duration: 2 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	for at := now.Add(-25 * time.Minute); !at.After(now); at = at.Add(5 * time.Minute) {
		if _, err := eng.StepNow(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	e.Server.Alarms.Settle()
	for i := 0; i < 50; i++ { // one e-mail per alarm, one alarm a turn
		if _, err := e.Server.Notify.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var alarmID int64
	var zone string
	var start int64
	if err := e.DB.QueryRow(ctx, `SELECT a.id, s.timezone, a.start_at FROM alarms a JOIN stations s ON s.id = a.station_id
		WHERE a.rule_key = 'inverter_fault' ORDER BY a.id LIMIT 1`).Scan(&alarmID, &zone, &start); err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation(zone)
	want := time.UnixMilli(start).In(loc).Format("2006-01-02 15:04:05") + " (" + zone + ")"
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, s := range mp.Messages(t) {
			m := mp.Message(t, s.ID)
			if strings.Contains(m.Subject, "アラーム発生") && strings.Contains(m.Text, want) && s.To[0].Address == "ada@helio.example" {
				return
			}
		}
		if time.Now().After(deadline) {
			debugOutbox(t, e)
			t.Fatalf("no Japanese alarm e-mail with %s among %+v", want, mp.Messages(t))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// debugOutbox logs the outbox and the admin's notification decisions (a failed test says
// where its e-mail stopped).
func debugOutbox(t *testing.T, e *apitest.Env) {
	rows, _ := e.DB.Query(context.Background(), "SELECT channel, target_id, event, state, last_error FROM notify_outbox")
	for rows.Next() {
		var a, c, d, f string
		var b int64
		_ = rows.Scan(&a, &b, &c, &d, &f)
		t.Log(a, b, c, d, f)
	}
	rows.Close()
	t.Log("decisions", e.Count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ?", e.Accounts.AdminID))
}
