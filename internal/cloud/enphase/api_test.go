package enphase_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/enphase/standin"
)

// The administrator's calls, through the server's router, against the stand-in.
func TestAdminConnectsDiscoversConfirmsAndSeesTheState(t *testing.T) {
	e := apitest.New(t)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	en := &standin.Server{APIKey: "APIKEYA", ClientID: "CLIENTA", ClientSecret: "SECRETA", Now: time.Now, MinuteLimit: -1,
		Systems: []standin.System{{ID: 77, Name: "Dachpark", TimeZone: "Europe/Berlin", Country: "DE", Micros: 30, MicroW: 400,
			Start: time.Now().In(berlin).AddDate(0, 0, -2).Format("2006-01-02")}}}
	en.Grant("REFRESHA")
	srv := httptest.NewServer(en)
	defer srv.Close()
	w := e.Server.Cloud
	w.BaseURLs = map[string]string{"enphase": srv.URL}
	w.Store.Sealer = cloud.NewSealer("server secret")
	fields := func(omit string) string {
		m := map[string]string{"apiKey": "APIKEYA", "clientId": "CLIENTA", "clientSecret": "SECRETA", "refreshToken": "REFRESHA"}
		delete(m, omit)
		b, _ := json.Marshal(m)
		q, _ := json.Marshal(string(b))
		return fmt.Sprintf(`{"vendor":"enphase","name":"Dachpark","credentials":%s,"dailyBudget":0}`, q)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "the vendor's fields are listed", Method: "GET", URL: "/v2/cloud/vendors", As: "admin", Status: 200,
			Contains: []string{`"name":"enphase"`, `"label":"Enphase"`, `"defaultBudget":32`, `{"key":"clientId","secret":false,"optional":false}`,
				`{"key":"refreshToken","secret":true,"optional":false}`}},
		{Name: "operator may not", Method: "POST", URL: "/v2/cloud/connection/add", As: "operator", Body: fields(""), Status: 403},
		{Name: "a missing field is named", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: fields("clientSecret"),
			Status: 400, Contains: []string{`"credentials.clientSecret"`}},
		{Name: "not an object", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400, Contains: []string{`"credentials"`},
			Body: `{"vendor":"enphase","name":"X","credentials":"REFRESHA"}`},
		{Name: "added; the credentials are never answered", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: fields(""),
			Status: 200, Contains: []string{`"state":"new"`, `"dailyBudget":32`}, NotContains: []string{"SECRETA", "REFRESHA", "APIKEYA"}},
	})
	var id int64
	if err := e.DB.QueryRow(context.Background(), "SELECT id FROM cloud_connections").Scan(&id); err != nil {
		t.Fatal(err)
	}
	u := func(what string) string { return fmt.Sprintf("/v2/cloud/connection/%s/%d", what, id) }
	e.Run(t, []apitest.Scenario{
		{Name: "another organisation's admin sees nothing", Method: "GET", URL: u("discover"), As: "other", Status: 404},
		{Name: "discovery lists the system as one device", Method: "GET", URL: u("discover"), As: "admin", Status: 200,
			Contains: []string{`"id":"77"`, `"serial":"enphase-77"`, `"deviceId":0`, `"peakKw":12`}},
		{Name: "confirm an unknown serial", Method: "POST", URL: u("confirm"), As: "admin", Status: 400, Contains: []string{`"sites"`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["NOPE"]}]}`},
		{Name: "confirm", Method: "POST", URL: u("confirm"), As: "admin", Status: 200, Contains: []string{`"stationsCreated":1`, `"devicesCreated":1`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["enphase-77"]}]}`},
	})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/cloud/connections", As: "admin"})
	var list []cloud.Connection
	if err := json.Unmarshal(r.Env.Data, &list); err != nil || len(list) != 1 {
		t.Fatalf("list: %v %s", err, r.Body)
	}
	if c := list[0]; c.State != cloud.StateLive || c.QuotaUsed == 0 || !c.NextSync.After(time.Now()) || c.Devices != 1 {
		t.Fatalf("after a sync: %+v", c)
	}
	// the owner withdraws the application's access: the list says so
	en.Revoke()
	if _, err := e.DB.Exec(context.Background(), "UPDATE cloud_cursors SET synced_to = synced_to - 3600000"); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{{Name: "sync now", Method: "POST", URL: u("sync"), As: "admin", Status: 200}})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "refusal shown", Method: "GET", URL: "/v2/cloud/connections", As: "admin", Status: 200,
			Contains: []string{`"state":"refused"`, "refused the credentials"}, NotContains: []string{"SECRETA", "REFRESHA"}},
		{Name: "new credentials with a missing field are refused", Method: "POST", URL: u("edit"), As: "admin", Status: 400,
			Body: fields("refreshToken"), Contains: []string{`"credentials.refreshToken"`}},
		{Name: "delete", Method: "POST", URL: u("delete"), As: "admin", Status: 200},
		{Name: "gone", Method: "GET", URL: u("discover"), As: "admin", Status: 404},
	})
}
