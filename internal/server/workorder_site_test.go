package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// On site through the server: an administrator's checklist template, an order given to the
// operator, who accepts it, takes the checklist, checks in with the phone's position (the
// distance from the station is computed), answers the items (a reading needs its value, a
// photo its attachment) and cannot finish before the required items are done; then can.
func TestWorkOrderOnSite(t *testing.T) {
	e := apitest.NewWithFleet(t)
	do := func(as, url, body string) *apitest.Result {
		t.Helper()
		return e.Do(t, apitest.Scenario{Method: "POST", URL: url, As: as, Body: body, Code: -1})
	}
	ok := func(r *apitest.Result) map[string]any {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var env struct {
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.Body), &env); err != nil {
			t.Fatal(err)
		}
		return env.Data
	}
	tpl := ok(do("admin", "/v2/checklist/template/add", `{"name":"Inverter service","items":[
		{"key":"clean","label":"Clean the air filters","kind":"check","required":true},
		{"key":"photo","label":"Photo of the open cabinet","kind":"photo","required":true},
		{"key":"voc","label":"String 1 open-circuit voltage","kind":"reading","unit":"V","required":true},
		{"key":"remark","label":"Anything else","kind":"check","required":false}]}`))
	// an operator does not write templates; a bad template is refused by field
	if r := do("operator", "/v2/checklist/template/add", `{"name":"x","items":[{"key":"a","label":"A","kind":"check"}]}`); r.Status != 403 {
		t.Fatalf("operator adds a template: %d", r.Status)
	}
	if r := do("admin", "/v2/checklist/template/add", `{"name":"Bad","items":[{"key":"a","label":"A","kind":"dance"},{"key":"a","label":"B","kind":"check"}]}`); r.Status != 400 ||
		!strings.Contains(r.Body, "items.0.kind") || !strings.Contains(r.Body, "items.1.key") {
		t.Fatalf("bad template: %d %s", r.Status, r.Body)
	}
	var station int64
	if err := e.DB.QueryRow(t.Context(), "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key).Scan(&station); err != nil {
		t.Fatal(err)
	}
	order := ok(do("admin", "/v2/workorder/add", fmt.Sprintf(`{"stationId":%d,"title":"Service inverter 1","priority":2,
		"plannedStart":"2026-11-29T08:00:00Z","plannedEnd":"2026-11-29T12:00:00Z","assigneeUserId":%d}`, station, e.Accounts.OperatorID)))
	id := int64(order["id"].(float64))
	u := func(path string) string { return fmt.Sprintf("/v2/workorder/%s/%d", path, id) }
	// not on site before it is accepted
	if r := do("operator", u("checkin"), `{"kind":"in"}`); r.Status != 409 {
		t.Fatalf("check in before accepting: %d %s", r.Status, r.Body)
	}
	ok(do("operator", u("transition"), `{"action":"accept"}`))
	ok(do("operator", u("checklist"), fmt.Sprintf(`{"templateId":%v}`, tpl["id"])))
	// checked in 600 m from Golmud's station, position optional the second time
	var lat, lng float64
	if err := e.DB.QueryRow(t.Context(), "SELECT lat, lng FROM stations WHERE id = ?", station).Scan(&lat, &lng); err != nil {
		t.Fatal(err)
	}
	d := ok(do("operator", u("checkin"), fmt.Sprintf(`{"kind":"in","lat":%f,"lng":%f,"accuracyM":8}`, lat+0.0054, lng)))
	ins := d["checkIns"].([]any)
	if dist, _ := ins[0].(map[string]any)["distanceM"].(float64); len(ins) != 1 || dist < 590 || dist > 610 {
		t.Fatalf("check-in: %v, want one about 600 m from the station", ins)
	}
	if r := do("operator", u("checkin"), `{"kind":"in","lat":91,"lng":0}`); r.Status != 400 || !strings.Contains(r.Body, `"lat"`) {
		t.Fatalf("latitude 91: %d %s", r.Status, r.Body)
	}
	ok(do("operator", u("transition"), `{"action":"start"}`))
	// a reading needs its value, a photo its attachment of this order
	if r := do("operator", u("checklist/answer"), `{"key":"voc","done":true}`); r.Status != 400 || !strings.Contains(r.Body, `"value"`) {
		t.Fatalf("reading without a value: %d %s", r.Status, r.Body)
	}
	if r := do("operator", u("checklist/answer"), `{"key":"photo","done":true}`); r.Status != 400 || !strings.Contains(r.Body, `"attachmentId"`) {
		t.Fatalf("photo without an attachment: %d %s", r.Status, r.Body)
	}
	ok(do("operator", u("checklist/answer"), `{"key":"clean","done":true}`))
	ok(do("operator", u("checklist/answer"), `{"key":"voc","done":true,"value":842.5}`))
	// finishing with the photo missing is refused
	if r := do("operator", u("transition"), `{"action":"finish","comment":"Filters cleaned"}`); r.Status != 409 || !strings.Contains(r.Body, "checklist") {
		t.Fatalf("finish with the photo missing: %d %s", r.Status, r.Body)
	}
	att := ok(do("operator", u("attachment"), `{"name":"cabinet.png","data":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}`))
	files := att["attachments"].([]any)
	fileID := files[len(files)-1].(map[string]any)["id"]
	d = ok(do("operator", u("checklist/answer"), fmt.Sprintf(`{"key":"photo","done":true,"attachmentId":%v}`, fileID)))
	if c := d["checklist"].(map[string]any); c["missing"].(float64) != 0 {
		t.Fatalf("checklist: %v, want nothing missing", c)
	}
	ok(do("operator", u("checkin"), `{"kind":"out"}`))
	d = ok(do("operator", u("transition"), `{"action":"finish","comment":"Filters cleaned, cabinet photographed"}`))
	if d["status"].(float64) != 4 {
		t.Fatalf("finished order: status %v", d["status"])
	}
	// another organisation sees nothing of it
	if r := do("other", u("checkin"), `{"kind":"in"}`); r.Status != 404 {
		t.Fatalf("another organisation checks in: %d", r.Status)
	}
}
