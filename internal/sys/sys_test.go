package sys_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/sys"
)

func TestSystemCalls(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "unknown API path is a JSON 404", Method: "GET", URL: "/v2/does/not/exist", As: "admin", Status: 404, Contains: []string{`"code":404`}},
		{Name: "unknown /api path is a JSON 404", Method: "POST", URL: "/api/nothing", Status: 404, Contains: []string{`"code":404`}},
		{Name: "unknown /v1 path is a JSON 404", Method: "GET", URL: "/v1/scada/nothing", Status: 404},
		{Name: "wrong method is a JSON 405", Method: "DELETE", URL: "/v2/user/info", As: "admin", Status: 405,
			Check: func(t *testing.T, r *apitest.Result) {
				if r.Header.Get("Allow") != "GET" {
					t.Errorf("Allow = %q", r.Header.Get("Allow"))
				}
			}},
		{Name: "logout URL from config", Method: "GET", URL: "/v2/sys/eplat/logouturl", Status: 200, Contains: []string{"https://sso.example/logout"}},
		{Name: "monitor URL needs a session", Method: "GET", URL: "/v2/sys/monitor/url", Status: 401},
		{Name: "monitor URL", Method: "GET", URL: "/v2/sys/monitor/url", As: "operator", Status: 200, Contains: []string{"https://monitor.example/"}},
		{Name: "admin menu has permission", Method: "POST", URL: "/api/user/menu", As: "admin", Status: 200,
			Contains: []string{`"/permission"`, `"/monitor"`, `"menu.operations.plan"`, `"name":"workOrder"`, `"/operations/checklists"`}},
		{Name: "user menu has no permission entry", Method: "POST", URL: "/api/user/menu", As: "operator", Status: 200,
			Contains: []string{`"/monitor"`, `"/station/tags"`, `"/dashboard/workplace"`}, NotContains: []string{`"/permission"`, "design", `"/operations/checklists"`}},
		{Name: "menu needs a session", Method: "POST", URL: "/api/user/menu", Status: 401},
		{Name: "healthz", Method: "GET", URL: "/healthz", Status: 200},
		{Name: "readyz before start-up finished", Method: "GET", URL: "/readyz", Status: 503, Contains: []string{`"ready":false`}},
		{Name: "security headers", Method: "GET", URL: "/healthz", Status: 200, Check: func(t *testing.T, r *apitest.Result) {
			for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
				if r.Header.Get(h) == "" {
					t.Errorf("missing %s", h)
				}
			}
			// the console's own pages may ask for the phone's position (check-in on site), no one else's
			if p := r.Header.Get("Permissions-Policy"); !strings.Contains(p, "geolocation=(self)") || !strings.Contains(p, "microphone=()") {
				t.Errorf("Permissions-Policy %q: want geolocation=(self), the microphone refused", p)
			}
			if !strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Error("CSP must forbid framing")
			}
		}},
		{Name: "metrics count requests by route", Method: "GET", URL: "/metrics", Status: 200, Code: -1,
			Contains: []string{`helio_http_requests_total{method="GET",route="GET /healthz",status="200"}`, "go_goroutines"}},
	})
	e.Server.Ready.Ready()
	e.Run(t, []apitest.Scenario{{Name: "readyz when ready", Method: "GET", URL: "/readyz", Status: 200, Contains: []string{`"ready":true`}}})
}

// The OpenAPI document describes exactly the routes the router serves.
func TestOpenAPIMatchesRouter(t *testing.T) {
	e := apitest.New(t)
	r := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/openapi.json"})
	if r.Status != 200 {
		t.Fatalf("status %d", r.Status)
	}
	var doc struct {
		OpenAPI    string                                `json:"openapi"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(r.Body), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	routes := e.Server.API.Routes()
	if len(routes) < 8 {
		t.Fatalf("only %d routes", len(routes))
	}
	for _, rt := range routes {
		key := rt.Method + " " + rt.Path
		if !documented[key] {
			t.Errorf("route %s is not in the OpenAPI document", key)
		}
		delete(documented, key)
		// Every documented call is really served by its own route.
		url := strings.NewReplacer("{uid}", "1", "{stationId}", "1", "{deviceId}", "1", "{id}", "1").Replace(rt.Path)
		if got := e.Server.API.Pattern(httptest.NewRequest(rt.Method, url, nil)); got != key {
			t.Errorf("%s %s is served by %q, want %q", rt.Method, url, got, key)
		}
	}
	for key := range documented {
		t.Errorf("%s is documented but not routed", key)
	}
	// Every $ref resolves.
	for _, m := range refRe(r.Body) {
		name := strings.TrimPrefix(m, "#/components/schemas/")
		if _, ok := doc.Components.Schemas[name]; !ok {
			t.Errorf("dangling $ref %s", m)
		}
	}
}

func refRe(body string) []string {
	var out []string
	for _, part := range strings.Split(body, `"$ref":"`)[1:] {
		out = append(out, part[:strings.Index(part, `"`)])
	}
	return out
}

func TestConsoleAssets(t *testing.T) {
	fsys := fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><title>Helio</title>" + strings.Repeat(" ", 2000))},
		"assets/app-abc.js":    {Data: []byte("console.log('helio');" + strings.Repeat("x", 4000))},
		"favicon.svg":          {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'></svg>")},
		"manifest.webmanifest": {Data: []byte(`{"name":"Helio","display":"standalone"}`)},
		"sw.js":                {Data: []byte("self.addEventListener('fetch', () => {});")},
	}
	h, err := sys.Console(fsys)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, enc string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	idx := get("/", "gzip, br")
	if idx.Code != 200 || idx.Header().Get("Content-Encoding") != "gzip" || idx.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("index: %d %v", idx.Code, idx.Header())
	}
	js := get("/assets/app-abc.js", "")
	if js.Code != 200 || !strings.Contains(js.Body.String(), "helio") || !strings.Contains(js.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("asset: %d %v", js.Code, js.Header())
	}
	// the installed console: the manifest with its own type whatever the host's mime.types
	// says, the service worker revalidated on every load so a new version is seen at once
	manifest := get("/manifest.webmanifest", "")
	if manifest.Code != 200 || manifest.Header().Get("Content-Type") != "application/manifest+json" || manifest.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("manifest: %d %v", manifest.Code, manifest.Header())
	}
	sw := get("/sw.js", "")
	if sw.Code != 200 || !strings.HasPrefix(sw.Header().Get("Content-Type"), "text/javascript") || sw.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("sw.js: %d %v", sw.Code, sw.Header())
	}
	again := httptest.NewRequest("GET", "/sw.js", nil)
	again.Header.Set("If-None-Match", sw.Header().Get("ETag"))
	rec304 := httptest.NewRecorder()
	h.ServeHTTP(rec304, again)
	if sw.Header().Get("ETag") == "" || rec304.Code != http.StatusNotModified {
		t.Fatalf("sw.js revalidated: %d, etag %q", rec304.Code, sw.Header().Get("ETag"))
	}
	if get("/missing.js", "").Code != http.StatusNotFound {
		t.Fatal("missing asset must be 404")
	}
	req := httptest.NewRequest("POST", "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST / = %d", rec.Code)
	}
}

// The page's own inline script (the build's shell preload) runs under a policy that names it by
// hash; any other inline script, one injected into the page included, is refused.
func TestConsolePagePolicyAllowsItsInlineScriptsByHash(t *testing.T) {
	inline := "(function () { document.title = 'x'; })();"
	fsys := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><head><script type="module" crossorigin src="./assets/index-a.js"></script>` +
			`<script>` + inline + `</script></head><body></body>`)},
		"plain.html": {Data: []byte(`<!doctype html><script src="./a.js"></script>`)},
	}
	h, err := sys.Console(fsys)
	if err != nil {
		t.Fatal(err)
	}
	policy := func(path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Header().Get("Content-Security-Policy")
	}
	sum := sha256.Sum256([]byte(inline))
	want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"
	got := policy("/")
	if !strings.Contains(got, want) || strings.Count(got, "'sha256-") != 1 {
		t.Fatalf("index policy %q, want it to contain %q and no other script hash", got, want)
	}
	if !strings.HasPrefix(got, "default-src 'self'; ") || !strings.Contains(got, "frame-ancestors 'none'") {
		t.Fatalf("index policy %q lost the rest of the API's policy", got)
	}
	// a page with no inline script keeps the API's policy (set by the middleware, not here)
	if p := policy("/plain.html"); p != "" {
		t.Fatalf("plain page policy %q, want none from the console handler", p)
	}
}
