package solaredge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
)

// The administrator's calls, through the server's router, against the stand-in.
func TestAdminConnectsDiscoversConfirmsAndSeesTheState(t *testing.T) {
	e := apitest.New(t)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	se := &standin.Server{Keys: map[string]bool{"SECRETKEY1": true}, Now: time.Now, Sites: []standin.Site{
		{ID: 77, Name: "Dachpark", TimeZone: "Europe/Berlin", Start: time.Now().In(berlin).AddDate(0, 0, -2).Format(solaredge.DateLayout),
			Inverters: []standin.Inverter{{Serial: "7E77-01", Name: "WR 1", Model: "SE17K", PeakW: 17000}}}}}
	srv := httptest.NewServer(se)
	defer srv.Close()
	w := e.Server.Cloud
	w.BaseURLs = map[string]string{"solaredge": srv.URL}
	add := `{"vendor":"solaredge","name":"Dachpark","credentials":"SECRETKEY1","dailyBudget":0}`
	e.Run(t, []apitest.Scenario{
		{Name: "no secret key: refused, naming it", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: add,
			Status: 400, Contains: []string{`"credentials"`, "HELIO_SECRET_KEY"}},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM cloud_connections"); n != 0 {
		t.Fatalf("%d connections stored without a key", n)
	}
	w.Store.Sealer = cloud.NewSealer("server secret")
	e.Run(t, []apitest.Scenario{
		{Name: "operator may not", Method: "POST", URL: "/v2/cloud/connection/add", As: "operator", Body: add, Status: 403},
		{Name: "unknown vendor", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400, Contains: []string{`"vendor"`},
			Body: `{"vendor":"acme","name":"X","credentials":"K"}`},
		{Name: "added; the key is never answered", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: add,
			Status: 200, Contains: []string{`"state":"new"`, `"dailyBudget":300`}, NotContains: []string{"SECRETKEY1"}},
	})
	var id int64
	if err := e.DB.QueryRow(context.Background(), "SELECT id FROM cloud_connections").Scan(&id); err != nil {
		t.Fatal(err)
	}
	var sealed string
	_ = e.DB.QueryRow(context.Background(), "SELECT sealed_credentials FROM cloud_connections").Scan(&sealed)
	if sealed == "" || sealed == "SECRETKEY1" {
		t.Fatalf("stored credentials %q", sealed)
	}
	u := func(what string) string { return fmt.Sprintf("/v2/cloud/connection/%s/%d", what, id) }
	e.Run(t, []apitest.Scenario{
		{Name: "another organisation's admin sees nothing", Method: "GET", URL: u("discover"), As: "other", Status: 404},
		{Name: "nor syncs it", Method: "POST", URL: u("sync"), As: "other", Status: 404},
		{Name: "discovery lists the site", Method: "GET", URL: u("discover"), As: "admin", Status: 200,
			Contains: []string{`"id":"77"`, `"serial":"7E77-01"`, `"deviceId":0`}},
		{Name: "confirm an unknown serial", Method: "POST", URL: u("confirm"), As: "admin", Status: 400, Contains: []string{`"sites"`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["NOPE"]}]}`},
		{Name: "confirm", Method: "POST", URL: u("confirm"), As: "admin", Status: 200, Contains: []string{`"stationsCreated":1`, `"devicesCreated":1`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["7E77-01"]}]}`},
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
	// the key is revoked at the vendor: the list says so
	delete(se.Keys, "SECRETKEY1")
	// (an hour back, so the next round has readings to ask for whatever the clock says)
	if _, err := e.DB.Exec(context.Background(), "UPDATE cloud_cursors SET synced_to = synced_to - 3600000"); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{{Name: "sync now", Method: "POST", URL: u("sync"), As: "admin", Status: 200}})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "refusal shown", Method: "GET", URL: "/v2/cloud/connections", As: "admin", Status: 200,
			Contains: []string{`"state":"refused"`, "refused the credentials"}, NotContains: []string{"SECRETKEY1"}},
		{Name: "other organisation's list is empty", Method: "GET", URL: "/v2/cloud/connections", As: "other", Status: 200,
			NotContains: []string{"Dachpark"}},
		{Name: "edit keeps the key when none is given", Method: "POST", URL: u("edit"), As: "admin", Status: 200,
			Body: `{"vendor":"solaredge","name":"Dachpark Süd","credentials":"","dailyBudget":200}`, Contains: []string{`"dailyBudget":200`}},
		{Name: "delete", Method: "POST", URL: u("delete"), As: "admin", Status: 200},
		{Name: "gone", Method: "GET", URL: u("discover"), As: "admin", Status: 404},
	})
}
