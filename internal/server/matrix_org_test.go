package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
)

// orgBodies are the example bodies of the organisation and account calls.
func orgBodies(station, dept int64) map[string]string {
	return map[string]string{
		"POST /v2/org/dept/add":                     fmt.Sprintf(`{"name":"Matrix dept","stationIds":[%d]}`, station),
		"POST /v2/org/dept/addchild":                fmt.Sprintf(`{"parentId":%d,"name":"Matrix child","stationIds":[]}`, dept),
		"POST /v2/org/dept/edit/{uid}":              fmt.Sprintf(`{"name":"Matrix HQ","stationIds":[%d]}`, station),
		"POST /v2/org/user/add":                     fmt.Sprintf(`{"username":"matrix.user","password":"Matrix123","name":"Mat Rix","deptId":%d,"email":"m@example.com","phone":"+86 123456","role":"user","stationAuthority":"authorized","jobName":"tester"}`, dept),
		"POST /v2/org/user/edit/{uid}":              fmt.Sprintf(`{"name":"Ada Admin","deptId":%d,"email":"admin@example.com","phone":"123456","role":"admin","stationAuthority":"all","jobName":"manager"}`, dept),
		"POST /v2/org/user/changepwd/{uid}":         `{"oldPassword":"helio-demo","password":"Matrix123","confirmPassword":"Matrix123"}`,
		"POST /v2/org/account/cancel":               `{"password":"helio-demo"}`,
		"POST /v2/org/settings":                     `{"name":"Matrix Energy","timezone":"Asia/Tokyo"}`,
		"POST /v2/org/money":                        `{"base":"CNY","rates":[{"currency":"USD","month":"2026-01","rate":7.1}]}`,
		"POST /v2/user/profile":                     `{"name":"Ada","email":"ada@example.com","country":"CN","area":"Shanghai","address":"1 Road","introduction":"hi","personalWebsite":"https://example.com","phone":"123456"}`,
		"POST /v2/user/security":                    `{"securityQuestion":"First plant?","securityAnswer":"Golmud","phone":"123456","email":"ada@example.com"}`,
		"POST /v2/user/settings":                    `{"settings":{"theme":"dark","locale":"en-US"}}`,
		"POST /v2/user/avatar":                      `{"image":"` + pngDataURL(32, 24) + `"}`,
		"POST /v2/user/certification/submit":        `{"accountType":"enterprise","legalPerson":"Ada","legalCertType":"id_card","legalCertNumber":"X1","enterpriseName":"Helio Demo Energy","enterpriseCertType":"uscc","organizationCode":"91310000"}`,
		"POST /v2/org/certification/refuse/{id}":    `{"reason":"The code does not match"}`,
		"POST /v2/user/certification/withdraw/{id}": ``,
		"POST /v2/org/certification/pass/{id}":      ``,
		"POST /v2/org/user/delete/{uid}":            ``,
		"POST /v2/org/dept/delete/{uid}":            ``,
	}
}

// pngDataURL is a w×h PNG as a data URL.
func pngDataURL(w, h int) string {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h)))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// orgCert is an auditing certification of the demo administrator, for the matrices.
func orgCert(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	c := &org.Certification{AccountType: "enterprise", LegalPerson: "Ada", LegalCertType: "id_card", LegalCertNumber: "X1",
		EnterpriseName: "Helio Demo Energy", EnterpriseCertType: "uscc", OrganizationCode: "91310000"}
	if err := org.SubmitCert(context.Background(), e.DB, e.Accounts.OrgID, e.Accounts.AdminID, c); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// Every organisation, user and system-log call: an ordinary user is refused (403, or 404
// for another user's record), another organisation's administrator finds nothing (404 for
// anything named by id, none of the organisation's data in a list), and nothing changes.
func TestOrganisationMatrix(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	var station int64
	if err := e.DB.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE org_id = ? AND parent_id IS NULL", e.Accounts.OrgID).Scan(&station); err != nil {
		t.Fatal(err)
	}
	cert := orgCert(t, e)
	bodies := orgBodies(station, e.Accounts.HQDeptID)
	bodies["POST /v2/org/user/resetpwd/{uid}"] = `{"password":"Matrix123"}`
	ids := map[string]string{"uid": fmt.Sprint(e.Accounts.AdminID), "id": fmt.Sprint(cert)}
	org := func(path string) bool {
		for _, p := range []string{"/v2/org/", "/v2/syslog/", "/v2/user/certification/"} {
			if len(path) >= len(p) && path[:len(p)] == p {
				return true
			}
		}
		return false
	}
	checked := 0
	for _, rt := range e.Server.API.Routes() {
		if !org(rt.Path) {
			continue
		}
		key := rt.Method + " " + rt.Path
		u := paramRe.ReplaceAllStringFunc(rt.Path, func(m string) string {
			if m == "{uid}" && len(rt.Path) > 13 && rt.Path[:13] == "/v2/org/dept/" {
				return fmt.Sprint(e.Accounts.HQDeptID)
			}
			return ids[m[1:len(m)-1]]
		})
		body, ok := bodies[key]
		if rt.Body != nil && !ok {
			t.Fatalf("no example body for %s", key)
		}
		for _, as := range []string{"operator", "other"} {
			if as == "operator" && rt.Access != httpapi.Admin && !paramRe.MatchString(rt.Path) {
				continue // the user's own records
			}
			t.Run(key+" as "+as, func(t *testing.T) {
				before := snapshot(t, e.DB)
				r := e.Do(t, apitest.Scenario{Method: rt.Method, URL: u, As: as, Body: body})
				named := paramRe.MatchString(rt.Path)
				switch {
				case as == "operator" && rt.Access == httpapi.Admin:
					if r.Status != 403 {
						t.Errorf("%d %s, want 403", r.Status, r.Body)
					}
				case named:
					if r.Status != 404 {
						t.Errorf("%d %s, want 404", r.Status, r.Body)
					}
				default:
					for _, leak := range []string{"Ada Admin", "Headquarters", "operator@demo", "Helio Demo Energy"} {
						if bytes.Contains([]byte(r.Body), []byte(leak)) {
							t.Errorf("another organisation's data (%q) in %s", leak, r.Body)
						}
					}
				}
				if after := snapshot(t, e.DB); after != before && r.Status >= 400 {
					t.Errorf("the refused call changed the database (%s)", changedTables(before, after))
				}
				checked++
			})
		}
	}
	if checked < 30 {
		t.Fatalf("only %d calls checked", checked)
	}
}
