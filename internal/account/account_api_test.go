package account_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func data[T any](t *testing.T, r *apitest.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Env.Data, &v); err != nil {
		t.Fatalf("%s: %v", r.Body, err)
	}
	return v
}

func topStations(t *testing.T, e *apitest.Env) []int64 {
	rows, err := e.DB.Query(context.Background(), "SELECT id FROM stations WHERE org_id = ? AND parent_id IS NULL ORDER BY id", e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// The promise end to end: a department granted two stations, a user in it who sees
// exactly those, disabled and deleted with their sessions ended at once (50012).
func TestDepartmentUserAuthority(t *testing.T) {
	e := apitest.NewWithFleet(t)
	st := topStations(t, e)
	if len(st) < 5 {
		t.Fatalf("fleet has %d stations", len(st))
	}
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/dept/addchild", As: "admin",
		Body: fmt.Sprintf(`{"parentId":%d,"name":"North crew","stationIds":[%d,%d]}`, e.Accounts.HQDeptID, st[3], st[4])})
	if r.Status != 200 {
		t.Fatalf("add dept: %s", r.Body)
	}
	dept := data[struct{ ID int64 }](t, r).ID
	add := func(username, password string) *apitest.Result {
		return e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/user/add", As: "admin", Body: fmt.Sprintf(
			`{"username":%q,"password":%q,"name":"Nora North","deptId":%d,"email":"nora@example.com","phone":"+1 555 0100","role":"user","stationAuthority":"authorized"}`,
			username, password, dept)})
	}
	for _, bad := range []string{"short1A", "nouppercase1", "NOLOWER123", "NoDigitsHere", "With Space1"} {
		if bad == "short1A" {
			bad = "Ab1" // 3 characters
		}
		if r := add("nora", bad); r.Status != 400 || !strings.Contains(r.Body, `"password"`) {
			t.Errorf("password %q: %d %s", bad, r.Status, r.Body)
		}
	}
	if e.Count(t, "SELECT COUNT(*) FROM users WHERE username = 'nora'") != 0 {
		t.Fatal("a refused add stored the user")
	}
	r = add("nora", "North#2026")
	if r.Status != 200 {
		t.Fatalf("add user: %s", r.Body)
	}
	uid := data[struct{ ID int64 }](t, r).ID
	if r := add("nora", "North#2026"); r.Status != 409 {
		t.Errorf("duplicate username: %d", r.Status)
	}
	tok := e.Login(t, "nora", "North#2026")
	r = e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/site/list?pageSize=50", Token: tok})
	got := map[int64]bool{}
	for _, it := range data[struct{ List []struct{ ID int64 } }](t, r).List {
		got[it.ID] = true
	}
	if len(got) != 2 || !got[st[3]] || !got[st[4]] {
		t.Fatalf("nora sees %v, want exactly %d and %d", got, st[3], st[4])
	}
	if r := e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", st[0]), Token: tok}); r.Status != 404 {
		t.Errorf("a station outside the grants: %d", r.Status)
	}
	// The department cannot go while it has a member.
	if r := e.Do(t, apitest.Scenario{Method: "POST", URL: fmt.Sprintf("/v2/org/dept/delete/%d", dept), As: "admin"}); r.Status != 409 || !strings.Contains(r.Env.Msg, "1") {
		t.Errorf("delete a department with a member: %d %s", r.Status, r.Body)
	}
	if r := e.Do(t, apitest.Scenario{Method: "POST", URL: fmt.Sprintf("/v2/org/dept/delete/%d", e.Accounts.HQDeptID), As: "admin"}); r.Status != 409 {
		t.Errorf("delete a department with sub-departments: %d %s", r.Status, r.Body)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "disable", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validdisable/%d", uid), As: "admin", Status: 200},
		{Name: "the open session ends at once", Method: "GET", URL: "/v2/site/list", Token: tok, Status: 401, Code: 50012},
		{Name: "a disabled user cannot sign in", Method: "POST", URL: "/v2/login", Body: `{"username":"nora","password":"North#2026"}`, Status: 403},
		{Name: "enable", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validenable/%d", uid), As: "admin", Status: 200},
		{Name: "the ended session stays ended", Method: "GET", URL: "/v2/site/list", Token: tok, Status: 401, Code: 50012},
		{Name: "admin cannot disable themself", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validdisable/%d", e.Accounts.AdminID), As: "admin", Status: 409},
		{Name: "admin cannot delete the last administrator", Method: "POST", URL: fmt.Sprintf("/v2/org/user/delete/%d", e.Accounts.AdminID), As: "admin", Status: 409},
	})
	tok = e.Login(t, "nora", "North#2026")
	e.Run(t, []apitest.Scenario{
		{Name: "delete", Method: "POST", URL: fmt.Sprintf("/v2/org/user/delete/%d", uid), As: "admin", Status: 200},
		{Name: "the deleted user's session ends", Method: "GET", URL: "/v2/user/info", Token: tok, Status: 401, Code: 50012},
		{Name: "the deleted user is gone from the list", Method: "GET", URL: "/v2/org/user/list?keyword=nora", As: "admin", Status: 200, NotContains: []string{"Nora"}},
		{Name: "a deleted user is not found", Method: "GET", URL: fmt.Sprintf("/v2/org/user/get/%d", uid), As: "admin", Status: 404},
		{Name: "the department is empty now", Method: "POST", URL: fmt.Sprintf("/v2/org/dept/delete/%d", dept), As: "admin", Status: 200},
	})
	if r := add("nora", "North#2026"); r.Status != 400 { // the department is gone
		t.Errorf("add into a deleted department: %d %s", r.Status, r.Body)
	}
	if r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/user/add", As: "admin", Body: fmt.Sprintf(
		`{"username":"nora","password":"North#2026","name":"Nora","deptId":%d,"email":"n@example.com","phone":"12345","role":"user"}`,
		e.Accounts.HQDeptID)}); r.Status != 200 {
		t.Errorf("a deleted user's name is free again: %d %s", r.Status, r.Body)
	}
}

func TestUserFormRules(t *testing.T) {
	e := apitest.New(t)
	base := map[string]any{"username": "sam", "password": "Sam12345", "name": "Sam", "deptId": e.Accounts.HQDeptID,
		"email": "sam@example.com", "phone": "12345", "role": "user"}
	cases := []struct {
		field string
		value any
	}{
		{"username", ""}, {"username", "a b"}, {"username", "x"}, {"name", " "}, {"deptId", 0}, {"deptId", e.Accounts.OtherDeptID},
		{"email", ""}, {"email", "not-an-email"}, {"phone", ""}, {"phone", "call me"}, {"role", ""}, {"role", "root"},
		{"stationAuthority", "everything"}, {"password", "sam"},
	}
	for _, c := range cases {
		body := map[string]any{}
		for k, v := range base {
			body[k] = v
		}
		body[c.field] = c.value
		b, _ := json.Marshal(body)
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/user/add", As: "admin", Body: string(b)})
		if r.Status != 400 || !strings.Contains(r.Body, `"`+c.field+`"`) {
			t.Errorf("%s=%v: %d %s", c.field, c.value, r.Status, r.Body)
		}
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM users WHERE username = 'sam'"); n != 0 {
		t.Fatal("a refused form stored a user")
	}
}

func TestChangePassword(t *testing.T) {
	e := apitest.New(t)
	other := e.Login(t, "operator", "helio-demo") // a second session of the operator
	url := fmt.Sprintf("/v2/org/user/changepwd/%d", e.Accounts.OperatorID)
	e.Run(t, []apitest.Scenario{
		{Name: "wrong current password", Method: "POST", URL: url, As: "operator", Body: `{"oldPassword":"nope","password":"Better123","confirmPassword":"Better123"}`, Status: 400, Contains: []string{"oldPassword"}},
		{Name: "confirmation differs", Method: "POST", URL: url, As: "operator", Body: `{"oldPassword":"helio-demo","password":"Better123","confirmPassword":"Better124"}`, Status: 400, Contains: []string{"confirmPassword"}},
		{Name: "weak", Method: "POST", URL: url, As: "operator", Body: `{"oldPassword":"helio-demo","password":"better","confirmPassword":"better"}`, Status: 400, Contains: []string{`"password"`}},
		{Name: "another user's password", Method: "POST", URL: fmt.Sprintf("/v2/org/user/changepwd/%d", e.Accounts.AdminID), As: "operator", Body: `{"oldPassword":"helio-demo","password":"Better123","confirmPassword":"Better123"}`, Status: 404},
		{Name: "changed", Method: "POST", URL: url, As: "operator", Body: `{"oldPassword":"helio-demo","password":"Better123","confirmPassword":"Better123"}`, Status: 200},
		{Name: "this session goes on", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200},
		{Name: "the other session ended", Method: "GET", URL: "/v2/user/info", Token: other, Status: 401, Code: 50012},
	})
	e.Login(t, "operator", "Better123")
}

func TestCertificationFlow(t *testing.T) {
	e := apitest.New(t)
	body := `{"accountType":"enterprise","legalPerson":"Oscar","legalCertType":"id_card","legalCertNumber":"X1","enterpriseName":"East O&M","enterpriseCertType":"uscc","organizationCode":"913100"}`
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/user/certification/submit", As: "operator", Body: body})
	if r.Status != 200 {
		t.Fatal(r.Body)
	}
	first := data[struct{ ID int64 }](t, r).ID
	e.Run(t, []apitest.Scenario{
		{Name: "one audit at a time", Method: "POST", URL: "/v2/user/certification/submit", As: "operator", Body: body, Status: 409},
		{Name: "an ordinary user cannot pass", Method: "POST", URL: fmt.Sprintf("/v2/org/certification/pass/%d", first), As: "operator", Status: 403},
		{Name: "another organisation cannot pass", Method: "POST", URL: fmt.Sprintf("/v2/org/certification/pass/%d", first), As: "other", Status: 404},
		{Name: "withdraw while auditing", Method: "POST", URL: fmt.Sprintf("/v2/user/certification/withdraw/%d", first), As: "operator", Status: 200},
		{Name: "withdrawn cannot pass", Method: "POST", URL: fmt.Sprintf("/v2/org/certification/pass/%d", first), As: "admin", Status: 409},
	})
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/user/certification/submit", As: "operator", Body: body})
	second := data[struct{ ID int64 }](t, r).ID
	e.Run(t, []apitest.Scenario{
		{Name: "refusal needs a reason", Method: "POST", URL: fmt.Sprintf("/v2/org/certification/refuse/%d", second), As: "admin", Body: `{"reason":""}`, Status: 400},
		{Name: "admin passes", Method: "POST", URL: fmt.Sprintf("/v2/org/certification/pass/%d", second), As: "admin", Status: 200},
		{Name: "passed cannot be withdrawn", Method: "POST", URL: fmt.Sprintf("/v2/user/certification/withdraw/%d", second), As: "operator", Status: 409},
		{Name: "the user is certified", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200, Contains: []string{`"certification":1`}},
		{Name: "the records", Method: "GET", URL: "/v2/user/certification/list", As: "operator", Status: 200, Contains: []string{`"withdrawn"`, `"passed"`}},
	})
}

// pngOf is a PNG of the given size; huge sizes are written by hand (header only).
func pngOf(w, h int) string {
	var buf bytes.Buffer
	if w*h <= 4096*4096 {
		_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h)))
	} else {
		buf.WriteString("\x89PNG\r\n\x1a\n")
		ihdr := make([]byte, 13)
		binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
		binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
		ihdr[8], ihdr[9] = 8, 6
		chunk := append([]byte("IHDR"), ihdr...)
		_ = binary.Write(&buf, binary.BigEndian, uint32(13))
		buf.Write(chunk)
		_ = binary.Write(&buf, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestAvatar(t *testing.T) {
	e := apitest.New(t)
	up := func(img string) *apitest.Result {
		return e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/user/avatar", As: "operator", Body: `{"image":"` + img + `"}`})
	}
	e.Run(t, []apitest.Scenario{
		{Name: "JPEG refused", Method: "POST", URL: "/v2/user/avatar", As: "operator", Body: `{"image":"data:image/jpeg;base64,/9j/4AAQ"}`, Status: 400},
		{Name: "not base64", Method: "POST", URL: "/v2/user/avatar", As: "operator", Body: `{"image":"data:image/png;base64,@@@"}`, Status: 400},
	})
	if r := up(pngOf(100000, 100000)); r.Status != 400 || !strings.Contains(r.Body, "100000") {
		t.Errorf("a PNG declaring 100000² pixels: %d %s", r.Status, r.Body)
	}
	if r := up("data:image/png;base64," + strings.Repeat("A", 3<<20)); r.Status != 413 {
		t.Errorf("over 2 MB: %d", r.Status)
	}
	r := up(pngOf(600, 400))
	if r.Status != 200 {
		t.Fatal(r.Body)
	}
	url := data[struct{ URL string }](t, r).URL
	got := e.Do(t, apitest.Scenario{Method: "GET", URL: url})
	cfg, err := png.DecodeConfig(strings.NewReader(got.Body))
	if got.Status != 200 || err != nil || cfg.Width != 256 || cfg.Height != 256 {
		t.Fatalf("served avatar: %d %v %dx%d", got.Status, err, cfg.Width, cfg.Height)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "shown in the profile", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200, Contains: []string{url}},
		{Name: "an unknown avatar", Method: "GET", URL: "/v2/user/avatar/1-0123456789abcdef0123456789abcdef.png", Status: 404},
	})
}

func TestProfileSettingsAndLog(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "profile needs country and area", Method: "POST", URL: "/v2/user/profile", As: "operator", Body: `{"name":"Oscar","email":"o@example.com","country":"","area":""}`, Status: 400, Contains: []string{`"country"`, `"area"`}},
		{Name: "profile up to 200 characters", Method: "POST", URL: "/v2/user/profile", As: "operator", Body: `{"name":"Oscar","email":"o@example.com","country":"CN","area":"Zhejiang","introduction":"` + strings.Repeat("x", 201) + `"}`, Status: 400, Contains: []string{`"introduction"`}},
		{Name: "profile", Method: "POST", URL: "/v2/user/profile", As: "operator", Body: `{"name":"Oscar O.","email":"o@example.com","country":"CN","area":"Zhejiang","personalWebsite":"https://o.example"}`, Status: 200},
		{Name: "settings must be an object", Method: "POST", URL: "/v2/user/settings", As: "operator", Body: `{"settings":[1]}`, Status: 400},
		{Name: "settings kept", Method: "POST", URL: "/v2/user/settings", As: "operator", Body: `{"settings":{"theme":"dark","locale":"ja-JP"}}`, Status: 200},
		{Name: "settings follow the user", Method: "GET", URL: "/v2/user/settings", As: "operator", Status: 200, Contains: []string{`"theme":"dark"`}},
		{Name: "security answer hashed", Method: "POST", URL: "/v2/user/security", As: "operator", Body: `{"securityQuestion":"First plant?","securityAnswer":"Golmud","phone":"12345","email":"o@example.com"}`, Status: 200},
		{Name: "the log is for admins", Method: "GET", URL: "/v2/syslog/list", As: "operator", Status: 403},
		{Name: "the profile edit with before and after", Method: "GET", URL: "/v2/syslog/list?action=user.profile", As: "admin", Status: 200, Contains: []string{"Oscar Operator", "Oscar O."}},
		{Name: "secrets never logged", Method: "GET", URL: "/v2/syslog/list?pageSize=200", As: "admin", Status: 200, NotContains: []string{"Golmud", "helio-demo"}},
		{Name: "another organisation sees none of it", Method: "GET", URL: "/v2/syslog/list?pageSize=200", As: "other", Status: 200, NotContains: []string{"Oscar"}},
		{Name: "bad time", Method: "GET", URL: "/v2/syslog/list?from=yesterday", As: "admin", Status: 400, Contains: []string{`"from"`}},
		{Name: "export", Method: "GET", URL: "/v2/syslog/export?format=csv&user=operator", As: "admin", Status: 200, Contains: []string{"user.profile"}},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM users WHERE security_answer_hash LIKE '$argon2id$%'"); n != 1 {
		t.Fatalf("hashed answers: %d", n)
	}
}

// A route nobody wired into the log is logged anyway: the router records every write.
func TestEveryWriteLogged(t *testing.T) {
	e := apitest.NewWithFleet(t)
	before := e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE route = 'POST /v2/site/tag/add'")
	e.Run(t, []apitest.Scenario{
		{Name: "a tag", Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"logged","color":"cyan"}`, Status: 200},
		{Name: "a refused write", Method: "POST", URL: "/v2/org/dept/add", As: "operator", Body: `{"name":"x"}`, Status: 403},
	})
	if e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE route = 'POST /v2/site/tag/add' AND username = 'admin' AND status = 200") != before+1 {
		t.Fatal("the tag write was not logged")
	}
	if e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE route = 'POST /v2/org/dept/add' AND username = 'operator' AND status = 403") != 1 {
		t.Fatal("the refused write was not logged")
	}
}

func TestCancelAccount(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "what is left", Method: "GET", URL: "/v2/org/account/cancel", As: "admin", Status: 200, Contains: []string{`"departments":2`, `"members":1`}},
		{Name: "wrong password", Method: "POST", URL: "/v2/org/account/cancel", As: "admin", Body: `{"password":"x"}`, Status: 400},
		{Name: "refused while members and departments remain", Method: "POST", URL: "/v2/org/account/cancel", As: "admin", Body: `{"password":"helio-demo"}`, Status: 409},
		{Name: "an ordinary user cannot", Method: "POST", URL: "/v2/org/account/cancel", As: "operator", Body: `{"password":"helio-demo"}`, Status: 403},
	})
	ctx := context.Background()
	for _, q := range []string{"DELETE FROM station_grants", "UPDATE users SET dept_id = NULL WHERE org_id = ?"} {
		args := []any{}
		if strings.Contains(q, "?") {
			args = append(args, e.Accounts.OrgID)
		}
		if _, err := e.DB.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	e.Run(t, []apitest.Scenario{
		{Name: "delete the operator", Method: "POST", URL: fmt.Sprintf("/v2/org/user/delete/%d", e.Accounts.OperatorID), As: "admin", Status: 200},
		{Name: "delete the sub-department", Method: "POST", URL: fmt.Sprintf("/v2/org/dept/delete/%d", e.Accounts.OpsDeptID), As: "admin", Status: 200},
		{Name: "delete the last department", Method: "POST", URL: fmt.Sprintf("/v2/org/dept/delete/%d", e.Accounts.HQDeptID), As: "admin", Status: 200},
		{Name: "cancelled", Method: "POST", URL: "/v2/org/account/cancel", As: "admin", Body: `{"password":"helio-demo"}`, Status: 200},
		{Name: "signed out for good", Method: "GET", URL: "/v2/user/info", As: "admin", Status: 401, Code: 50012},
		{Name: "cannot sign in", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"helio-demo"}`, Status: 401},
	})
}

// The organisation's SQL on both databases: departments, users (list, delete with a freed
// name), security answer, certification and the system log's search.
func TestOrganisationOnEachDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/dept/add", As: "admin", Body: `{"name":"Field_%crew","stationIds":[]}`})
		if r.Status != 200 {
			t.Fatal(r.Body)
		}
		dept := data[struct{ ID int64 }](t, r).ID
		r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/org/user/add", As: "admin", Body: fmt.Sprintf(
			`{"username":"pat","password":"Pat12345","name":"Pat","deptId":%d,"email":"p@example.com","phone":"12345","role":"user"}`, dept)})
		if r.Status != 200 {
			t.Fatal(r.Body)
		}
		uid := data[struct{ ID int64 }](t, r).ID
		e.Run(t, []apitest.Scenario{
			{Name: "list by department", Method: "GET", URL: fmt.Sprintf("/v2/org/user/list?deptId=%d", dept), As: "admin", Status: 200, Contains: []string{`"pat"`, `"total":1`}},
			{Name: "keyword with a wildcard character", Method: "GET", URL: "/v2/org/user/list?keyword=%25", As: "admin", Status: 200, Contains: []string{`"total":0`}},
			{Name: "security", Method: "POST", URL: "/v2/user/security", As: "operator", Body: `{"securityQuestion":"Q?","securityAnswer":"A","phone":"","email":"o@example.com"}`, Status: 200},
			{Name: "security keeps the answer", Method: "POST", URL: "/v2/user/security", As: "operator", Body: `{"securityQuestion":"Q?","securityAnswer":"","phone":"","email":"o@example.com"}`, Status: 200},
			{Name: "delete", Method: "POST", URL: fmt.Sprintf("/v2/org/user/delete/%d", uid), As: "admin", Status: 200},
			{Name: "log search", Method: "GET", URL: "/v2/syslog/list?object=pat&action=user.delete", As: "admin", Status: 200, Contains: []string{`"total":1`}},
			{Name: "log by day", Method: "GET", URL: "/v2/syslog/list?from=2020-01-01&to=2020-01-02", As: "admin", Status: 200, Contains: []string{`"total":0`}},
			{Name: "certification", Method: "POST", URL: "/v2/user/certification/submit", As: "operator", Body: `{"accountType":"individual","legalPerson":"O","legalCertType":"passport","legalCertNumber":"1","enterpriseName":"E","enterpriseCertType":"other","organizationCode":"C"}`, Status: 200},
			{Name: "review", Method: "GET", URL: "/v2/org/certification/list?status=auditing", As: "admin", Status: 200, Contains: []string{`"auditing"`}},
		})
		if n := e.Count(t, "SELECT COUNT(*) FROM users WHERE security_answer_hash <> ''"); n != 1 {
			t.Fatalf("answers kept: %d", n)
		}
		if n := e.Count(t, "SELECT COUNT(*) FROM users WHERE username = 'pat'"); n != 0 {
			t.Fatal("the deleted user's name is still taken")
		}
	})
}
