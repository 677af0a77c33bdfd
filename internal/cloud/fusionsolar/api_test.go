package fusionsolar_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar/standin"
)

// The administrator's calls, through the server's router, against the stand-in.
func TestAdminConnectsDiscoversConfirmsAndSeesTheState(t *testing.T) {
	e := apitest.New(t)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	fs := &standin.Server{Accounts: map[string]string{"dach_api": "Syst3mCode!"}, Now: time.Now, Plants: []standin.Plant{
		{Code: "NE=77", Name: "Dachpark", TimeZone: "Europe/Berlin", Start: time.Now().In(berlin).AddDate(0, 0, -2).Format("2006-01-02"),
			Inverters: []standin.Inverter{{ID: 7701, Serial: "HV77000001", Name: "WR 1", Inv: "SUN2000-17KTL", PeakW: 17000}}}}}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	w := e.Server.Cloud
	w.BaseURLs = map[string]string{"fusionsolar": srv.URL}
	w.Store.Sealer = cloud.NewSealer("server secret")
	add := `{"vendor":"fusionsolar","name":"Dachpark","credentials":"{\"userName\":\"dach_api\",\"systemCode\":\"Syst3mCode!\",\"host\":\"\"}","dailyBudget":0}`
	e.Run(t, []apitest.Scenario{
		{Name: "vendors list the fields", Method: "GET", URL: "/v2/cloud/vendors", As: "admin", Status: 200,
			Contains: []string{`"name":"fusionsolar"`, `"key":"userName"`, `{"key":"systemCode","secret":true,"optional":false}`, `{"key":"host","secret":false,"optional":true}`}},
		{Name: "a missing system code is named", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400,
			Body:     `{"vendor":"fusionsolar","name":"X","credentials":"{\"userName\":\"dach_api\"}"}`,
			Contains: []string{`"credentials.systemCode"`}},
		{Name: "a missing user name is named", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400,
			Body:     `{"vendor":"fusionsolar","name":"X","credentials":"{\"systemCode\":\"S\"}"}`,
			Contains: []string{`"credentials.userName"`}},
		{Name: "one secret is not the fields", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400,
			Body: `{"vendor":"fusionsolar","name":"X","credentials":"Syst3mCode!"}`, Contains: []string{`"credentials"`}},
		{Name: "added; the system code is never answered", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: add,
			Status: 200, Contains: []string{`"state":"new"`, `"dailyBudget":48`, `"vendor":"fusionsolar"`}, NotContains: []string{"Syst3mCode!"}},
	})
	var id int64
	if err := e.DB.QueryRow(context.Background(), "SELECT id FROM cloud_connections").Scan(&id); err != nil {
		t.Fatal(err)
	}
	u := func(what string) string { return fmt.Sprintf("/v2/cloud/connection/%s/%d", what, id) }
	e.Run(t, []apitest.Scenario{
		{Name: "another organisation's admin sees nothing", Method: "GET", URL: u("discover"), As: "other", Status: 404},
		{Name: "discovery lists the plant", Method: "GET", URL: u("discover"), As: "admin", Status: 200,
			Contains: []string{`"id":"NE=77"`, `"serial":"HV77000001"`, `"deviceId":0`}, NotContains: []string{"DONGLE"}},
		{Name: "confirm an unknown serial", Method: "POST", URL: u("confirm"), As: "admin", Status: 400, Contains: []string{`"sites"`},
			Body: `{"sites":[{"siteId":"NE=77","stationId":0,"serials":["NOPE"]}]}`},
		{Name: "confirm", Method: "POST", URL: u("confirm"), As: "admin", Status: 200, Contains: []string{`"stationsCreated":1`, `"devicesCreated":1`},
			Body: `{"sites":[{"siteId":"NE=77","stationId":0,"serials":["HV77000001"]}]}`},
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
	// the account is removed at the vendor: the list says so
	delete(fs.Accounts, "dach_api")
	if _, err := e.DB.Exec(context.Background(), "UPDATE cloud_cursors SET synced_to = synced_to - 3600000"); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{{Name: "sync now", Method: "POST", URL: u("sync"), As: "admin", Status: 200}})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "refusal shown", Method: "GET", URL: "/v2/cloud/connections", As: "admin", Status: 200,
			Contains: []string{`"state":"refused"`, "refused the credentials"}, NotContains: []string{"Syst3mCode!"}},
		{Name: "new credentials clear it", Method: "POST", URL: u("edit"), As: "admin", Status: 200,
			Body:     `{"vendor":"fusionsolar","name":"Dachpark","credentials":"{\"userName\":\"dach_api\",\"systemCode\":\"N3w\"}","dailyBudget":48}`,
			Contains: []string{`"state":"backfill"`}},
	})
}
