package server_test

import (
	"context"
	"time"

	"encoding/json"
	"fmt"
	"github.com/coder/websocket"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi/datamodel"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
)

// contractValidator builds an OpenAPI 3.1 validator over the document the server
// publishes (the same one GET /v2/openapi.json serves and the console's types come from).
func contractValidator(t *testing.T, api *httpapi.API) validator.Validator {
	t.Helper()
	raw, err := json.Marshal(api.OpenAPI("contract"))
	if err != nil {
		t.Fatal(err)
	}
	// a tree (a department's children) refers to itself through a list, which may be empty
	doc, err := libopenapi.NewDocumentWithConfiguration(raw, &datamodel.DocumentConfiguration{IgnoreArrayCircularReferences: true})
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc, config.WithoutSecurityValidation())
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	return v
}

// The document itself is valid OpenAPI 3.1 (its meta-schema).
func TestOpenAPIDocumentMetaSchema(t *testing.T) {
	e := apitest.New(t)
	v := contractValidator(t, e.Server.API)
	if ok, errs := v.ValidateDocument(); !ok {
		for _, err := range errs {
			t.Errorf("%s", err.Error())
			for _, se := range err.SchemaValidationErrors {
				t.Errorf("  %s: %s", se.FieldPath, se.Reason)
			}
		}
	}
}

// exampleQuery gives the query a GET call is made with: only the parameters the document
// marks required, and those whose description says when they are required (OpenAPI
// cannot say "required unless the period is custom"), with a value the call accepts.
// Everything else is left out, so a parameter documented as optional that the call
// cannot do without shows as a mismatch.
func (f *fixture) exampleQuery(key, name string) string {
	perRoute := map[string]string{
		"GET /v2/dev/history/{deviceId} metric": "power",
		"GET /v2/dev/history/{deviceId} from":   "2026-01-01T00:00:00Z",
		"GET /v2/dev/history/{deviceId} to":     "2026-01-02T00:00:00Z",
		"GET /v2/warn/listbydate date":          "2026-01-15",
		"GET /v2/plan/proposal/spread totalKwh": "120000",
		"GET /v2/analysis/overview scope":       "fleet",
		"GET /v2/analysis/overview period":      "month",
		"GET /v2/analysis/overview date":        "2026-01",
	}
	if v, ok := perRoute[key+" "+name]; ok {
		return v
	}
	switch name {
	case "stationId":
		return fmt.Sprint(f.station)
	case "deviceId":
		return fmt.Sprint(f.device)
	}
	if key == "DELETE /api/vectorstore/documents" && name == "id" {
		return fmt.Sprint(f.document)
	}
	return ""
}

// contractErrors are what the validator finds wrong in a call and its answer.
func contractErrors(key string, v validator.Validator, req *http.Request, res *http.Response) []string {
	var out []string
	if ok, errs := v.ValidateHttpRequestResponse(req, res); !ok {
		for _, err := range errs {
			msg := err.Message
			for _, se := range err.SchemaValidationErrors {
				msg += fmt.Sprintf(" [%s: %s]", se.FieldPath, se.Reason)
			}
			out = append(out, fmt.Sprintf("%s: %s", key, msg))
		}
	}
	return out
}

func hasQueryParam(op map[string]any, name string) bool {
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		if pm := p.(map[string]any); pm["in"] == "query" && pm["name"] == name {
			return true
		}
	}
	return false
}

// requiredQuery is the query a call is made with (see exampleQuery).
func (f *fixture) requiredQuery(t *testing.T, key string, op map[string]any) url.Values {
	t.Helper()
	q := url.Values{}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		pm := p.(map[string]any)
		desc, _ := pm["description"].(string)
		if pm["in"] != "query" || pm["required"] != true && !strings.Contains(desc, "required") {
			continue
		}
		name := pm["name"].(string)
		val := f.exampleQuery(key, name)
		if val == "" && pm["required"] != true {
			continue // required in a case the call is not made in here
		}
		if val == "" {
			t.Fatalf("%s: no example for the required query parameter %s", key, name)
		}
		q.Set(name, val)
	}
	return q
}

// contractSkipped are operations the contract test makes elsewhere or cannot make here.
var contractSkipped = map[string]string{
	"GET /v2/webpush/message":       "a WebSocket upgrade: TestContractWebSocket",
	"GET /v2/email/confirm/{token}": "a redirect to the console, by the link of an e-mail: TestAlarmEmail",
}

// Every documented GET operation, made by the administrator on the matrices' fixture,
// answers as the document says: a documented status, its content type, and a body the
// response schema accepts.
func TestContractGET(t *testing.T) {
	f := newFixture(t)
	e := f.e
	targets := contractTargets(t, f)
	// and what the demo adds on top: departments and members, manuals, plans, work orders
	ctx, now := context.Background(), time.Now()
	if err := demo.SeedOrganisation(ctx, e.DB, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.SeedManuals(ctx, e.DB, e.Server.Library.Blobs, e.Accounts); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedPlans(ctx, e.DB, e.Fleet, 1, now); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedOperations(ctx, e.DB, e.Accounts, 1, now); err != nil {
		t.Fatal(err)
	}
	v := contractValidator(t, e.Server.API)
	doc := e.Server.API.OpenAPI("contract")
	paths := doc["paths"].(map[string]map[string]any)
	var mismatches []string
	checked := 0
	for _, rt := range e.Server.API.Routes() {
		key := rt.Method + " " + rt.Path
		if rt.Method != "GET" {
			continue
		}
		if _, skip := contractSkipped[key]; skip {
			continue
		}
		op := paths[rt.Path]["get"].(map[string]any)
		q := f.requiredQuery(t, key, op)
		variants := []url.Values{q}
		if hasQueryParam(op, "format") { // an export: its XLSX as well as its CSV
			x := url.Values{"format": {"xlsx"}}
			for k, vs := range q {
				x[k] = vs
			}
			variants = append(variants, x)
		}
		for _, q := range variants {
			u := f.url(rt, targets.params[key])
			if len(q) > 0 {
				u += "?" + q.Encode()
			}
			mk := func() *http.Request {
				req := httptest.NewRequest("GET", u, nil)
				req.Header.Set("Authorization", "Bearer "+e.Tokens["admin"])
				return req
			}
			rec := httptest.NewRecorder()
			e.Server.Handler().ServeHTTP(rec, mk())
			res := rec.Result()
			checked++
			if res.StatusCode >= 300 {
				mismatches = append(mismatches, fmt.Sprintf("%s (%s): %d %.200s", key, u, res.StatusCode, rec.Body.String()))
				continue
			}
			// the validator reads the request again: give it a fresh one
			mismatches = append(mismatches, contractErrors(key, v, mk(), res)...)
		}
	}
	sort.Strings(mismatches)
	for _, m := range mismatches {
		t.Error(m)
	}
	t.Logf("%d GET operations made, %d mismatches", checked, len(mismatches))
	if checked < 90 {
		t.Fatalf("only %d GET operations made", checked)
	}
}

// stateRefusals are writes whose success needs a state the one fixture cannot also
// hold; they are made, and must answer the documented error envelope with this status.
var stateRefusals = map[string]int{
	"POST /v2/plan/proposal/submit/{uid}":       400, // needs a second administrator to approve
	"POST /v2/plan/proposal/decide/{uid}":       403, // only that approver decides
	"POST /v2/org/certification/refuse/{id}":    409, // the record was passed just before
	"POST /v2/user/certification/withdraw/{id}": 409, // likewise
	"POST /v2/org/account/cancel":               409, // the organisation still has stations and members
	"POST /v1/scada/config/delete":              409, // the map is linked to the contract's Modbus device
	"POST /v2/user/email/verify":                409, // the test server has no SMTP relay
}

// writeOrder puts the calls that end or remove something after the rest, so that the
// others find what they aim at.
func writeOrder(key string) int {
	switch key {
	case "POST /v2/org/account/cancel":
		return 2 // ends the organisation
	case "POST /v2/logout":
		return 3 // ends the session
	}
	for _, w := range []string{"delete", "cancel", "revoke", "withdraw", "refuse", "decide"} {
		if strings.Contains(key, w) {
			return 1
		}
	}
	return 0
}

// Every documented write, made by the administrator with the matrices' example body,
// sends a body the document accepts and answers as the document says.
func TestContractWrites(t *testing.T) {
	f := newFixture(t)
	e := f.e
	targets := contractTargets(t, f)
	v := contractValidator(t, e.Server.API)
	paths := e.Server.API.OpenAPI("contract")["paths"].(map[string]map[string]any)
	var routes []httpapi.Route
	for _, rt := range e.Server.API.Routes() {
		if rt.Method != "GET" {
			routes = append(routes, rt)
		}
	}
	sort.SliceStable(routes, func(i, j int) bool {
		return writeOrder(routes[i].Method+" "+routes[i].Path) < writeOrder(routes[j].Method+" "+routes[j].Path)
	})
	var mismatches []string
	checked := 0
	for _, rt := range routes {
		key := rt.Method + " " + rt.Path
		if _, skip := contractSkipped[key]; skip {
			continue
		}
		body, ok := targets.bodies[key]
		if !ok {
			body, ok = f.validBody(key)
		}
		if !ok && (rt.Body != nil || len(rt.RawBody) > 0) {
			mismatches = append(mismatches, key+": no example body")
			continue
		}
		u := f.url(rt, targets.params[key])
		if q := targets.query[key]; q != "" {
			u += "?" + q
		} else if q := f.requiredQuery(t, key, paths[rt.Path][strings.ToLower(rt.Method)].(map[string]any)); len(q) > 0 {
			u += "?" + q.Encode()
		}
		ctype := "application/json"
		if len(rt.RawBody) > 0 {
			ctype = rt.RawBody[0]
		}
		mk := func() *http.Request {
			req := httptest.NewRequest(rt.Method, u, strings.NewReader(body))
			if body != "" {
				req.Header.Set("Content-Type", ctype)
			}
			if rt.Access != httpapi.Public {
				req.Header.Set("Authorization", "Bearer "+e.Tokens["admin"])
			}
			for k, v := range targets.headers[key] {
				req.Header.Set(k, v)
			}
			return req
		}
		rec := httptest.NewRecorder()
		e.Server.Handler().ServeHTTP(rec, mk())
		if rec.Code == 401 && rt.Access != httpapi.Public {
			// an earlier call ended the administrator's sessions (a password change)
			e.Tokens["admin"] = e.Login(t, "admin", "Matrix123") // the matrices' new password
			rec = httptest.NewRecorder()
			e.Server.Handler().ServeHTTP(rec, mk())
		}
		res := rec.Result()
		checked++
		want, refused := stateRefusals[key]
		switch {
		case refused && res.StatusCode != want:
			mismatches = append(mismatches, fmt.Sprintf("%s: %d %.200s, want the state refusal %d", key, res.StatusCode, rec.Body.String(), want))
			continue
		case !refused && res.StatusCode >= 300:
			mismatches = append(mismatches, fmt.Sprintf("%s (%s): %d %.200s", key, u, res.StatusCode, rec.Body.String()))
			continue
		}
		mismatches = append(mismatches, contractErrors(key, v, mk(), res)...)
	}
	for _, m := range mismatches {
		t.Error(m)
	}
	t.Logf("%d writes made, %d mismatches", checked, len(mismatches))
	if checked < 90 {
		t.Fatalf("only %d writes made", checked)
	}
}

// The push channel's document says 101: a real upgrade over a socket answers it.
func TestContractWebSocket(t *testing.T) {
	e := apitest.New(t)
	v := contractValidator(t, e.Server.API)
	srv := httptest.NewServer(e.Server.Handler())
	defer srv.Close()
	path := "/v2/webpush/message?token=" + e.Tokens["admin"]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %d", res.StatusCode)
	}
	if ok, errs := v.ValidateHttpResponse(httptest.NewRequest("GET", path, nil), res); !ok {
		for _, err := range errs {
			t.Error(err.Error())
		}
	}
}

// Every operation's failure answers as documented: a call without a session (or, for a
// public call, without its key or with a name that is not there) gives a 4XX whose body
// the document's error schema accepts.
func TestContractErrors(t *testing.T) {
	e := apitest.New(t)
	v := contractValidator(t, e.Server.API)
	failed := 0
	for _, rt := range e.Server.API.Routes() {
		key := rt.Method + " " + rt.Path
		u := paramRe.ReplaceAllString(rt.Path, "0")
		if rt.Method == "GET" && rt.Path == "/v2/webpush/message" {
			u += "?token=" + strings.Repeat("0", 64)
		}
		mk := func() *http.Request {
			req := httptest.NewRequest(rt.Method, u, strings.NewReader("x"))
			req.Header.Set("Content-Type", "text/plain")
			return req
		}
		rec := httptest.NewRecorder()
		e.Server.Handler().ServeHTTP(rec, mk())
		if rec.Code < 400 {
			if rt.Access != httpapi.Public {
				t.Errorf("%s: %d without a session", key, rec.Code)
			}
			continue // a public call that needs nothing
		}
		failed++
		if ok, errs := v.ValidateHttpResponse(mk(), rec.Result()); !ok {
			for _, err := range errs {
				msg := err.Message
				for _, se := range err.SchemaValidationErrors {
					msg += fmt.Sprintf(" [%s: %s]", se.FieldPath, se.Reason)
				}
				t.Errorf("%s: %d %.120s: %s", key, rec.Code, rec.Body.String(), msg)
			}
		}
	}
	if failed < 180 {
		t.Fatalf("only %d failures made", failed)
	}
}
