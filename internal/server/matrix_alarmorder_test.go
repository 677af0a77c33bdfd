package server_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
)

// An order opened from an alarm, and the alarm's list of its orders, follow the alarm's
// authority: whoever may not see the alarm can neither open an order from it nor learn of
// its orders; the administrator can, and the alarm then names its open order.
func TestAlarmOrderMatrix(t *testing.T) {
	f := newFixture(t)
	e := f.e
	add := fmt.Sprintf(`{"title":"","alarmId":%d,"priority":2,"plannedStart":"2026-03-01T08:00:00Z","plannedEnd":"2026-03-01T12:00:00Z"}`, f.alarm)
	for _, user := range []string{"other", "operator"} {
		before := snapshot(t, e.DB)
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/workorder/add", As: user, Body: add})
		if r.Status != 404 {
			t.Errorf("%s opens an order from a hidden alarm: %d %s", user, r.Status, r.Body)
		}
		if after := snapshot(t, e.DB); after != before {
			t.Errorf("the refused call changed the database (%s)", changedTables(before, after))
		}
	}
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/workorder/add", As: "admin", Body: add})
	if r.Status != 200 {
		t.Fatalf("admin opens an order from the alarm: %d %s", r.Status, r.Body)
	}
	var o struct {
		ID       int64  `json:"id"`
		Number   string `json:"number"`
		DeviceID int64  `json:"deviceId"`
		DeviceSN string `json:"deviceSn"`
	}
	_ = json.Unmarshal(r.Env.Data, &o)
	if o.DeviceID != f.device || o.DeviceSN == "" {
		t.Fatalf("the order does not keep the alarm's device: %s", r.Body)
	}
	detail := fmt.Sprintf("/v2/warn/detail/%d", f.alarm)
	e.Run(t, []apitest.Scenario{
		{Name: "admin sees the alarm's open order", Method: "GET", URL: detail, As: "admin", Status: 200,
			Contains: []string{`"openOrder":{"id":` + fmt.Sprint(o.ID), o.Number}},
		{Name: "operator may not see the alarm", Method: "GET", URL: detail, As: "operator", Status: 404, NotContains: []string{o.Number}},
		{Name: "other organisation may not see the alarm", Method: "GET", URL: detail, As: "other", Status: 404, NotContains: []string{o.Number}},
		{Name: "a second open order is refused, naming the first", Method: "POST", URL: "/v2/workorder/add", As: "admin", Body: add,
			Status: 409, Contains: []string{o.Number}},
	})
	for _, user := range []string{"other", "operator"} {
		r := e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/workorder/list?alarmId=%d", f.alarm), As: user})
		var page httpapi.Page[struct{ ID int64 }]
		_ = json.Unmarshal(r.Env.Data, &page)
		if r.Status != 200 || page.Total != 0 || len(page.List) != 0 {
			t.Errorf("%s lists the hidden alarm's orders: %d %s", user, r.Status, r.Body)
		}
	}
	for _, bad := range []string{`"abc"`, `-1`, `1e400`, `1.5`, `99999999999999999999`} {
		body := fmt.Sprintf(`{"title":"","alarmId":%s,"priority":2,"plannedStart":"2026-03-01T08:00:00Z","plannedEnd":"2026-03-01T12:00:00Z"}`, bad)
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/workorder/add", As: "admin", Body: body})
		if r.Status != 400 {
			t.Errorf("alarmId %s: %d %s", bad, r.Status, r.Body)
		}
	}
}
