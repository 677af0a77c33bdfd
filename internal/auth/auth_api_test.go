package auth_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestLoginScenarios(t *testing.T) {
	e := apitest.New(t)
	big := `{"username":"admin","password":"` + strings.Repeat("x", 2<<20) + `"}`
	e.Run(t, []apitest.Scenario{
		{Name: "success", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"helio-demo"}`,
			Status: 200, Contains: []string{`"token":"`, `"expiresAt":"`}},
		{Name: "username trimmed", Method: "POST", URL: "/v2/login", Body: `{"username":"  operator ","password":"helio-demo"}`,
			Status: 200, Contains: []string{`"token":"`}},
		{Name: "wrong password", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"nope"}`,
			Status: 401, Contains: []string{"Wrong username or password"}, NotContains: []string{"token"}},
		{Name: "unknown user says the same", Method: "POST", URL: "/v2/login", Body: `{"username":"ghost","password":"nope"}`,
			Status: 401, Contains: []string{"Wrong username or password"}},
		{Name: "translated", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"nope"}`,
			Headers: map[string]string{"Accept-Language": "zh-CN,zh;q=0.9"}, RemoteAddr: "10.9.9.9:1",
			Status: 401, Contains: []string{"用户名或密码错误"}},
		{Name: "empty fields named", Method: "POST", URL: "/v2/login", Body: `{"username":" ","password":""}`,
			Status: 400, Contains: []string{`"username":"Required"`, `"password":"Required"`}},
		{Name: "missing fields named", Method: "POST", URL: "/v2/login", Body: `{}`,
			Status: 400, Contains: []string{`"username":"Required"`, `"password":"Required"`}},
		{Name: "malformed JSON", Method: "POST", URL: "/v2/login", Body: `{"username":"admin",`,
			Status: 400, Contains: []string{"not valid JSON"}},
		{Name: "trailing data", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"helio-demo"} {}`,
			Status: 400, Contains: []string{"not valid JSON"}},
		{Name: "empty body", Method: "POST", URL: "/v2/login", Body: " ", Status: 400, Contains: []string{"empty"}},
		{Name: "wrong content type", Method: "POST", URL: "/v2/login", Body: `username=admin`, ContentType: "application/x-www-form-urlencoded",
			Status: 415, Contains: []string{"application/json"}},
		{Name: "unknown field", Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"helio-demo","role":"admin"}`,
			Status: 400, Contains: []string{`"role":"Unknown field"`}},
		{Name: "wrong type", Method: "POST", URL: "/v2/login", Body: `{"username":["admin"],"password":"helio-demo"}`,
			Status: 400, Contains: []string{`"username":"Must be a string"`}},
		{Name: "oversized body", Method: "POST", URL: "/v2/login", Body: big, Status: 413},
		{Name: "GET not allowed", Method: "GET", URL: "/v2/login", Status: 405},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM users"); n != 3 {
		t.Fatalf("bad input changed users: %d", n)
	}
}

func TestRateLimit(t *testing.T) {
	e := apitest.New(t)
	bad := apitest.Scenario{Method: "POST", URL: "/v2/login", Body: `{"username":"admin","password":"wrong"}`, RemoteAddr: "192.0.2.7:5000"}
	for i := 0; i < 5; i++ {
		if r := e.Do(t, bad); r.Status != 401 {
			t.Fatalf("attempt %d: %d", i+1, r.Status)
		}
	}
	good := bad
	good.Body = `{"username":"admin","password":"helio-demo"}`
	e.Run(t, []apitest.Scenario{
		withName("sixth attempt refused even with the right password", good, 429, "Too many failed sign-in attempts"),
		withName("another client address is not locked out", func() apitest.Scenario { s := good; s.RemoteAddr = "192.0.2.8:1"; return s }(), 200, "token"),
		withName("another account from the same address is not locked out",
			func() apitest.Scenario {
				s := good
				s.Body = `{"username":"operator","password":"helio-demo"}`
				return s
			}(), 200, "token"),
	})
	r := e.Do(t, good)
	if r.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
}

func withName(name string, s apitest.Scenario, status int, contains string) apitest.Scenario {
	s.Name, s.Status, s.Contains = name, status, []string{contains}
	return s
}

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		op := e.Accounts.OperatorID
		e.Run(t, []apitest.Scenario{
			{Name: "user info", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200,
				Contains:    []string{`"username":"operator"`, `"role":"user"`, `"stationAuthority":"authorized"`, `"organizationName":"Helio Demo Energy"`},
				NotContains: []string{"password", "argon2"}},
			{Name: "no token", Method: "GET", URL: "/v2/user/info", Status: 401, Contains: []string{"Login has expired"}},
			{Name: "garbage token", Method: "GET", URL: "/v2/user/info", Token: "garbage", Status: 401},
			{Name: "non-admin cannot reset passwords", Method: "POST", URL: fmt.Sprintf("/v2/org/user/resetpwd/%d", e.Accounts.AdminID),
				As: "operator", Body: `{"password":"Secret123"}`, Status: 403},
			{Name: "another organisation's admin gets 404", Method: "POST", URL: fmt.Sprintf("/v2/org/user/resetpwd/%d", op),
				As: "other", Body: `{"password":"Secret123"}`, Status: 404},
			{Name: "another organisation cannot disable", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validdisable/%d", op),
				As: "other", Status: 404},
			{Name: "weak password refused", Method: "POST", URL: fmt.Sprintf("/v2/org/user/resetpwd/%d", op),
				As: "admin", Body: `{"password":"abcdefgh"}`, Status: 400, Contains: []string{`"password":"More than 6 characters`}},
			{Name: "id that cannot exist", Method: "POST", URL: "/v2/org/user/validdisable/abc", As: "admin", Status: 404},
			{Name: "path traversal id", Method: "POST", URL: "/v2/org/user/validdisable/..%2f1", As: "admin", Status: 404},
			{Name: "operator still signed in", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 200},
		})

		// A reset password ends the user's sessions at once: the next call gets 50012.
		e.Run(t, []apitest.Scenario{
			{Name: "admin resets operator password", Method: "POST", URL: fmt.Sprintf("/v2/org/user/resetpwd/%d", op),
				As: "admin", Body: `{"password":"NewSecret123"}`, Status: 200},
			{Name: "operator's old session ended elsewhere", Method: "GET", URL: "/v2/user/info", As: "operator",
				Status: 401, Code: 50012, Contains: []string{"logged out"}},
			{Name: "old password no longer works", Method: "POST", URL: "/v2/login", RemoteAddr: "198.51.100.1:1",
				Body: `{"username":"operator","password":"helio-demo"}`, Status: 401},
		})
		e.Tokens["operator"] = e.Login(t, "operator", "NewSecret123")

		// Disabling ends sessions too, and a disabled user cannot sign in.
		e.Run(t, []apitest.Scenario{
			{Name: "admin disables operator", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validdisable/%d", op), As: "admin", Status: 200},
			{Name: "disabled operator's session ended", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 401, Code: 50012},
			{Name: "disabled operator cannot sign in", Method: "POST", URL: "/v2/login", Body: `{"username":"operator","password":"NewSecret123"}`,
				Status: 403, Contains: []string{"disabled"}},
			{Name: "admin cannot disable themself", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validdisable/%d", e.Accounts.AdminID), As: "admin", Status: 409},
			{Name: "admin enables operator", Method: "POST", URL: fmt.Sprintf("/v2/org/user/validenable/%d", op), As: "admin", Status: 200},
		})
		e.Tokens["operator"] = e.Login(t, "operator", "NewSecret123")

		// Logout ends only this session, with a plain 401 afterwards.
		other := e.Login(t, "operator", "NewSecret123")
		e.Run(t, []apitest.Scenario{
			{Name: "logout", Method: "POST", URL: "/v2/logout", As: "operator", Status: 200},
			{Name: "after logout: login expired, not 50012", Method: "GET", URL: "/v2/user/info", As: "operator", Status: 401, Code: 401},
			{Name: "the user's other session lives on", Method: "GET", URL: "/v2/user/info", Token: other, Status: 200},
		})
	})
}

func TestSessionExpiry(t *testing.T) {
	e := apitest.New(t)
	now := time.Now()
	e.Server.Sessions.Now = func() time.Time { return now.Add(2 * time.Hour) } // TTL is 1h
	e.Run(t, []apitest.Scenario{
		{Name: "expired session", Method: "GET", URL: "/v2/user/info", As: "admin", Status: 401, Code: 401},
	})
}
