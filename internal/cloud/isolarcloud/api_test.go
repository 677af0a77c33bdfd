package isolarcloud_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud/standin"
)

// The administrator's calls, through the server's router, against the stand-in.
func TestAdminConnectsWithSeveralFieldsDiscoversAndConfirms(t *testing.T) {
	e := apitest.New(t)
	se := &standin.Server{AppKey: "APPKEY77", AccessKey: "ACCESSSECRET77", Users: map[string]string{"ops@example.com": "PASSWORDSECRET"},
		Now: time.Now, Plants: []standin.Plant{{ID: 77, Name: "Dachpark", Offset: 8,
			Start:     time.Now().In(shanghai).AddDate(0, 0, -2).Format("2006-01-02"),
			Inverters: []standin.Inverter{{Serial: "A77000001", Name: "NB01", Model: "SG33CX", Channel: 1, PeakW: 33000}}}}}
	srv := httptest.NewServer(se)
	defer srv.Close()
	w := e.Server.Cloud
	w.BaseURLs = map[string]string{"isolarcloud": srv.URL}
	w.Store.Sealer = cloud.NewSealer("server secret")
	body := func(fields map[string]string) string {
		c, _ := json.Marshal(fields)
		b, _ := json.Marshal(map[string]any{"vendor": "isolarcloud", "name": "Dachpark", "credentials": string(c), "dailyBudget": 0})
		return string(b)
	}
	full := map[string]string{"appKey": "APPKEY77", "accessKey": "ACCESSSECRET77", "userAccount": "ops@example.com",
		"userPassword": "PASSWORDSECRET"}
	noPassword := map[string]string{"appKey": "APPKEY77", "accessKey": "ACCESSSECRET77", "userAccount": "ops@example.com"}
	e.Run(t, []apitest.Scenario{
		{Name: "the vendor and its fields are offered", Method: "GET", URL: "/v2/cloud/vendors", As: "admin", Status: 200,
			Contains: []string{`"name":"isolarcloud"`, `"label":"iSolarCloud"`, `"defaultBudget":1500`, `"key":"userPassword","secret":true`,
				`"key":"host","secret":false,"optional":true`}},
		{Name: "a missing field is named", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: body(noPassword),
			Status: 400, Contains: []string{`"credentials.userPassword"`}},
		{Name: "not JSON", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Status: 400, Contains: []string{`"credentials"`},
			Body: `{"vendor":"isolarcloud","name":"X","credentials":"APPKEY77"}`},
		{Name: "operator may not", Method: "POST", URL: "/v2/cloud/connection/add", As: "operator", Body: body(full), Status: 403},
		{Name: "added; the secrets are never answered", Method: "POST", URL: "/v2/cloud/connection/add", As: "admin", Body: body(full),
			Status: 200, Contains: []string{`"state":"new"`, `"dailyBudget":1500`, `"vendor":"isolarcloud"`},
			NotContains: []string{"PASSWORDSECRET", "ACCESSSECRET77"}},
	})
	var id int64
	var sealed string
	if err := e.DB.QueryRow(context.Background(), "SELECT id, sealed_credentials FROM cloud_connections").Scan(&id, &sealed); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "PASSWORDSECRET") || strings.Contains(sealed, "ACCESSSECRET77") {
		t.Fatalf("stored credentials %q", sealed)
	}
	u := func(what string) string { return fmt.Sprintf("/v2/cloud/connection/%s/%d", what, id) }
	e.Run(t, []apitest.Scenario{
		{Name: "another organisation's admin sees nothing", Method: "GET", URL: u("discover"), As: "other", Status: 404},
		{Name: "discovery lists the plant", Method: "GET", URL: u("discover"), As: "admin", Status: 200,
			Contains:    []string{`"id":"77"`, `"serial":"A77000001"`, `"deviceId":0`, `"timeZone":"Etc/GMT-8"`, `"peakKw":33`},
			NotContains: []string{"77_1_1_1"}},
		{Name: "confirm an unknown serial", Method: "POST", URL: u("confirm"), As: "admin", Status: 400, Contains: []string{`"sites"`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["NOPE"]}]}`},
		{Name: "confirm", Method: "POST", URL: u("confirm"), As: "admin", Status: 200, Contains: []string{`"stationsCreated":1`, `"devicesCreated":1`},
			Body: `{"sites":[{"siteId":"77","stationId":0,"serials":["A77000001"]}]}`},
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
	if strings.Contains(string(r.Body), "token") {
		t.Fatalf("the list names the token: %s", r.Body)
	}
	// the password is changed at the vendor and the token expires: the list says so
	se.Users["ops@example.com"] = "NEWPASSWORD"
	se.ExpireTokens()
	if _, err := e.DB.Exec(context.Background(), "UPDATE cloud_cursors SET synced_to = synced_to - 3600000"); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{{Name: "sync now", Method: "POST", URL: u("sync"), As: "admin", Status: 200}})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	full["userPassword"] = "NEWPASSWORD"
	e.Run(t, []apitest.Scenario{
		{Name: "refusal shown", Method: "GET", URL: "/v2/cloud/connections", As: "admin", Status: 200,
			Contains: []string{`"state":"refused"`, "refused the credentials"}, NotContains: []string{"PASSWORDSECRET"}},
		{Name: "new credentials", Method: "POST", URL: u("edit"), As: "admin", Status: 200, Body: body(full),
			Contains: []string{`"state":"backfill"`}, NotContains: []string{"NEWPASSWORD"}},
	})
	if err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{{Name: "live again", Method: "GET", URL: "/v2/cloud/connections", As: "admin", Status: 200,
		Contains: []string{`"state":"live"`}}})
}
