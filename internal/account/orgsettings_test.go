package account_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// An administrator names the organisation and sets its time zone; bad input changes nothing,
// an ordinary user may not, and every member reads the zone with their profile.
func TestOrganisationSettings(t *testing.T) {
	e := apitest.New(t)
	ctx := context.Background()
	got := data[struct{ Name, Timezone string }](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/org/settings", As: "admin", Status: 200}))
	if got.Name != "Helio Demo Energy" || got.Timezone != "Asia/Shanghai" {
		t.Fatalf("demo organisation: %+v", got)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "unknown zone", Method: "POST", URL: "/v2/org/settings", As: "admin", Status: 400, Contains: []string{`"timezone"`},
			Body: `{"name":"Helio Demo Energy","timezone":"Mars/Olympus"}`},
		{Name: "a path for a zone", Method: "POST", URL: "/v2/org/settings", As: "admin", Status: 400, Contains: []string{`"timezone"`},
			Body: `{"name":"Helio Demo Energy","timezone":"../../etc/passwd"}`},
		{Name: "no zone", Method: "POST", URL: "/v2/org/settings", As: "admin", Status: 400, Contains: []string{`"timezone"`},
			Body: `{"name":"Helio Demo Energy","timezone":""}`},
		{Name: "blank name", Method: "POST", URL: "/v2/org/settings", As: "admin", Status: 400, Contains: []string{`"name"`},
			Body: `{"name":"   ","timezone":"Europe/Madrid"}`},
		{Name: "an ordinary user", Method: "POST", URL: "/v2/org/settings", As: "operator", Status: 403,
			Body: `{"name":"Taken over","timezone":"Europe/Madrid"}`},
		{Name: "an ordinary user reads", Method: "GET", URL: "/v2/org/settings", As: "operator", Status: 403},
	})
	var name, zone string
	if err := e.DB.QueryRow(ctx, "SELECT name, timezone FROM organizations WHERE id = ?", e.Accounts.OrgID).Scan(&name, &zone); err != nil ||
		name != "Helio Demo Energy" || zone != "Asia/Shanghai" {
		t.Fatalf("refused calls changed the organisation: %q %q %v", name, zone, err)
	}
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/settings", As: "admin", Status: 200, Body: `{"name":" Helio Energy Europe ","timezone":"Europe/Madrid"}`})
	info := data[struct {
		OrganizationName     string
		OrganizationTimezone string
	}](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200}))
	if info.OrganizationName != "Helio Energy Europe" || info.OrganizationTimezone != "Europe/Madrid" {
		t.Fatalf("a member's profile: %+v", info)
	}
	// the other organisation is untouched
	if err := e.DB.QueryRow(ctx, "SELECT timezone FROM organizations WHERE id = ?", e.Accounts.OtherOrgID).Scan(&zone); err != nil || zone != "Europe/Berlin" {
		t.Fatalf("other organisation's zone %q %v", zone, err)
	}
}
