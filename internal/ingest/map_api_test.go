package ingest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// An administrator adds, lists, edits and deletes mapping rules and applies presets;
// bad rules are refused naming the field and change nothing; an operator is refused;
// another organisation's rule answers 404.
func TestMQTTRuleCalls(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	count := func() int {
		var n int
		if err := e.DB.QueryRow(ctx, "SELECT COUNT(*) FROM mqtt_rules").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	rule := `{"name":"Power","topic":"plant/{serial}/ac/power","device":"{serial}","fields":[{"path":"","field":"powerKw","scale":0.001}]}`
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Body: rule})
	if r.Status != 200 {
		t.Fatalf("add: %d %s", r.Status, r.Body)
	}
	var added struct{ ID int64 }
	_ = json.Unmarshal(r.Env.Data, &added)
	edit := fmt.Sprintf("/v2/ingest/mqtt/rule/edit/%d", added.ID)
	del := fmt.Sprintf("/v2/ingest/mqtt/rule/delete/%d", added.ID)
	root := fmt.Sprintf(`"root":"helio/map/%d/"`, e.Accounts.OrgID)
	e.Run(t, []apitest.Scenario{
		{Name: "listed", Method: "GET", URL: "/v2/ingest/mqtt/rule/list", As: "admin", Status: 200,
			Contains: []string{`"topic":"plant/{serial}/ac/power"`, root}},
		{Name: "the same topic twice", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Body: rule, Status: 400, Contains: []string{`"topic"`}},
		{Name: "bad topic", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Status: 400, Contains: []string{`"topic"`},
			Body: `{"topic":"solar/#/x","device":"A","fields":[{"path":"","field":"powerKw","scale":1}]}`},
		{Name: "device part not in the topic", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Status: 400, Contains: []string{`"device"`, "{sn}"},
			Body: `{"topic":"solar/{serial}","device":"{sn}","fields":[{"path":"","field":"powerKw","scale":1}]}`},
		{Name: "unknown field", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Status: 400, Contains: []string{`"fields[0].field"`},
			Body: `{"topic":"x/{serial}","device":"{serial}","fields":[{"path":"","field":"watts","scale":1}]}`},
		{Name: "bad path", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Status: 400, Contains: []string{`"fields[0].path"`},
			Body: `{"topic":"x/{serial}","device":"{serial}","fields":[{"path":"a..b","field":"soc","scale":1}]}`},
		{Name: "no fields", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "admin", Status: 400, Contains: []string{`"fields"`},
			Body: `{"topic":"x/{serial}","device":"{serial}","fields":[]}`},
		{Name: "operator may not list", Method: "GET", URL: "/v2/ingest/mqtt/rule/list", As: "operator", Status: 403},
		{Name: "operator may not add", Method: "POST", URL: "/v2/ingest/mqtt/rule/add", As: "operator", Body: rule, Status: 403},
		{Name: "operator may not see what arrived", Method: "GET", URL: "/v2/ingest/mqtt/arrived", As: "operator", Status: 403},
		{Name: "another organisation may not edit", Method: "POST", URL: edit, As: "other", Body: rule, Status: 404},
		{Name: "another organisation may not delete", Method: "POST", URL: del, As: "other", Status: 404},
		{Name: "another organisation does not list it", Method: "GET", URL: "/v2/ingest/mqtt/rule/list", As: "other", Status: 200,
			NotContains: []string{"plant/{serial}/ac/power"}},
		{Name: "edited", Method: "POST", URL: edit, As: "admin", Status: 200, Contains: []string{`"tele/{serial}/SENSOR"`},
			Body: `{"name":"Meter","topic":"tele/{serial}/SENSOR","device":"{serial}","fields":[{"path":"ENERGY.Power","field":"powerKw","scale":0.001}]}`},
		{Name: "preset list", Method: "GET", URL: "/v2/ingest/mqtt/preset/list", As: "admin", Status: 200,
			Contains: []string{`"key":"opendtu"`, `"key":"ahoydtu"`, `"key":"tasmota"`, `"key":"victron"`}},
		{Name: "unknown preset", Method: "POST", URL: "/v2/ingest/mqtt/preset/apply", As: "admin", Body: `{"preset":"sma","root":""}`, Status: 400, Contains: []string{`"preset"`}},
		{Name: "wildcard root", Method: "POST", URL: "/v2/ingest/mqtt/preset/apply", As: "admin", Body: `{"preset":"opendtu","root":"solar/#"}`, Status: 400, Contains: []string{`"root"`}},
		{Name: "what arrived", Method: "GET", URL: "/v2/ingest/mqtt/arrived", As: "admin", Status: 200, Contains: []string{root, `"topics":[]`}},
	})
	before := count()
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/mqtt/preset/apply", As: "admin", Body: `{"preset":"opendtu","root":"site-a/dtu"}`})
	if r.Status != 200 || !strings.Contains(r.Body, `"topic":"site-a/dtu/{serial}/0/power"`) || count() != before+8 {
		t.Fatalf("apply: %d %s (%d rules)", r.Status, r.Body, count())
	}
	// applying again adds nothing: its topics are mapped already
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/mqtt/preset/apply", As: "admin", Body: `{"preset":"opendtu","root":"site-a/dtu"}`})
	if r.Status != 200 || !strings.Contains(r.Body, `"skipped":8`) || count() != before+8 {
		t.Fatalf("apply again: %d %s", r.Status, r.Body)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "deleted", Method: "POST", URL: del, As: "admin", Status: 200},
		{Name: "deleted twice", Method: "POST", URL: del, As: "admin", Status: 404},
	})
	if count() != before+7 {
		t.Fatalf("%d rules after the delete", count())
	}
}
