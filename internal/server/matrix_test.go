package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/assistant"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
)

// fixture is a fleet with a little history and the ids the matrices aim at: things of
// the demo organisation that the operator's department is not authorised to see.
type fixture struct {
	e                               *apitest.Env
	station, sub, device, tag, user int64
	alarm, message                  int64
	document                        int64
	workOrder, proposal             int64
	dept, cert                      int64
	grantedStation, grantedSub      int64
	otherStation                    int64
	cover                           string
	compareTpl, reportTpl, record   int64 // the administrator's own (private) analysis items
	mqttRule                        int64
	cloudConn                       int64
	webhook                         int64
	escalation                      int64
	checklistTpl                    int64
}

func newFixture(t *testing.T) *fixture {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(5 * time.Minute)
	eng := e.Simulate(t, now.Add(-2*24*time.Hour), now.Add(-30*time.Minute))
	f := &fixture{e: e}
	ctx := context.Background()
	// A live inverter trip on the target station gives the matrices a real alarm.
	target := e.Fleet.Stations[4].Children[0].Devices[0]
	if _, err := eng.Sim.InjectFault(sim.FaultRequest{Kind: sim.FaultInverterTrip, Target: target.Key,
		Start: now.Add(-25 * time.Minute), Duration: 2 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	for at := now.Add(-25 * time.Minute); !at.After(now); at = at.Add(5 * time.Minute) {
		if _, err := eng.StepNow(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	one := func(q string, args ...any) int64 {
		var id int64
		if err := e.DB.QueryRow(ctx, q, args...).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	fl := e.Fleet
	f.station = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[4].Key)
	f.sub = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[4].Children[0].Key)
	f.device = one("SELECT id FROM devices WHERE sim_key = ?", fl.Stations[4].Children[0].Devices[0].Key)
	f.grantedStation = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[0].Key)
	f.grantedSub = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[0].Children[0].Key)
	f.otherStation = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[len(fl.Stations)-1].Key)
	f.tag = one("SELECT MIN(id) FROM station_tags WHERE org_id = ?", e.Accounts.OrgID)
	f.user = e.Accounts.AdminID
	f.alarm = one("SELECT MIN(id) FROM alarms WHERE station_id = ?", f.sub)
	f.message = one("SELECT COALESCE(MIN(id), 0) FROM messages")
	f.cover = "0123456789abcdef0123456789abcdef.png"
	doc, err := assistant.AddDocument(ctx, e.DB, e.Server.Library.Blobs, e.Accounts.OrgID, e.Accounts.AdminID, "matrix.md", []byte("# Matrix\n\nA manual."))
	if err != nil {
		t.Fatal(err)
	}
	f.document = doc.ID
	f.analysisItems(t)
	f.workOrder = one(`INSERT INTO work_orders (org_id, station_id, number, title, status, priority, submitter_id, planned_start,
		planned_end, created_at, updated_at) VALUES (?, ?, 'WO-MATRIX', 'Matrix order', 1, 2, ?, 0, 3600000, 0, 0) RETURNING id`,
		e.Accounts.OrgID, f.sub, e.Accounts.AdminID)
	f.proposal = one(`INSERT INTO plan_proposals (org_id, station_id, year, months, status, submitter_id, created_at, updated_at)
		VALUES (?, ?, 2025, '[1,1,1,1,1,1,1,1,1,1,1,1]', 1, ?, 0, 0) RETURNING id`, e.Accounts.OrgID, f.station, e.Accounts.AdminID)
	f.dept, f.cert = e.Accounts.HQDeptID, orgCert(t, e)
	f.mqttRule = mqttRuleFixture(t, e)
	f.cloudConn = cloudConnFixture(t, e)
	f.webhook = webhookFixture(t, e)
	f.escalation = escalationFixture(t, e)
	f.checklistTpl = checklistFixture(t, e)
	// the alarms the fault opened are notified in the background: let that work finish, so
	// that the matrices' snapshots see only what their calls change
	e.Server.Alarms.Settle()
	return f
}

// analysisItems makes the administrator's private compare template, report template and
// report record that the analysis calls aim at.
func (f *fixture) analysisItems(t *testing.T) {
	for _, c := range []struct {
		url, body string
		id        *int64
	}{
		{"/v2/compare/template/add", `{"name":"matrix","config":` + f.compareConfig() + `}`, &f.compareTpl},
		{"/v2/report/template/add", f.reportTemplate(), &f.reportTpl},
		{"/v2/report/record/add", f.reportRecord(), &f.record},
	} {
		r := f.e.Do(t, apitest.Scenario{Method: "POST", URL: c.url, As: "admin", Body: c.body})
		var out struct {
			Data struct{ ID int64 } `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.Status != 200 {
			t.Fatalf("%s: %d %s", c.url, r.Status, r.Body)
		}
		*c.id = out.Data.ID
	}
}

func (f *fixture) compareConfig() string {
	return fmt.Sprintf(`{"mode":"stations","metric":"pr","stationIds":[%d,%d],"period":"month","date":"2026-01"}`, f.station, f.grantedStation)
}

func (f *fixture) reportParams() string {
	return fmt.Sprintf(`"selectionMode":"stations","stationIds":[%d],"template":"summary","period":"month","date":"2026-01","language":"en-US","format":"csv","fileName":"matrix","stationInfo":true,"subsystemInfo":false,"deviceInfo":false,"metrics":["yield","pr"]`, f.station)
}

func (f *fixture) reportTemplate() string {
	return `{"name":"matrix","shared":false,"config":{"params":{` + f.reportParams() + `},"schedule":{"frequency":"none","hour":0,"weekday":0,"monthDay":0,"timezone":""}}}`
}

func (f *fixture) reportRecord() string {
	return `{"templateId":0,"params":{` + f.reportParams() + `}}`
}

// target returns the id a path parameter names, by the area the path belongs to.
func (f *fixture) target(path, param string) string {
	switch {
	case param == "file":
		return f.cover
	case strings.HasPrefix(path, "/v2/site/tag/"):
		return fmt.Sprint(f.tag)
	case strings.HasPrefix(path, "/v2/dev/"):
		return fmt.Sprint(f.device)
	case strings.HasPrefix(path, "/v2/plan/proposal/"):
		return fmt.Sprint(f.proposal)
	case strings.HasPrefix(path, "/v2/workorder/"):
		return fmt.Sprint(f.workOrder)
	case strings.HasPrefix(path, "/v2/warn/"):
		return fmt.Sprint(f.alarm)
	case strings.HasPrefix(path, "/v2/org/user/"):
		return fmt.Sprint(f.user)
	case strings.HasPrefix(path, "/api/vectorstore/documents/"):
		return fmt.Sprint(f.document)
	case strings.HasPrefix(path, "/v2/org/dept/"):
		return fmt.Sprint(f.dept)
	case strings.Contains(path, "/certification/"):
		return fmt.Sprint(f.cert)
	case strings.HasPrefix(path, "/v2/site/"), strings.HasPrefix(path, "/v2/plan/"):
		return fmt.Sprint(f.station)
	case strings.HasPrefix(path, "/v2/compare/"):
		return fmt.Sprint(f.compareTpl)
	case strings.HasPrefix(path, "/v2/report/template/"):
		return fmt.Sprint(f.reportTpl)
	case strings.HasPrefix(path, "/v2/report/record/"):
		return fmt.Sprint(f.record)
	case strings.HasPrefix(path, "/v2/ingest/mqtt/rule/"):
		return fmt.Sprint(f.mqttRule)
	case strings.HasPrefix(path, "/v2/cloud/"):
		return fmt.Sprint(f.cloudConn)
	case strings.HasPrefix(path, "/v2/webhook/"):
		return fmt.Sprint(f.webhook)
	case strings.HasPrefix(path, "/v2/escalation/"):
		return fmt.Sprint(f.escalation)
	case strings.HasPrefix(path, "/v2/checklist/"):
		return fmt.Sprint(f.checklistTpl)
	case param == "token":
		return strings.Repeat("ab", 24)
	}
	return "1"
}

// validBody is a body each POST call accepts from an administrator, aimed at the
// fixture's station, device and tag. A call missing here fails the matrices, so every
// new call gets its examples.
func (f *fixture) validBody(route string) (string, bool) {
	station := func(name string) string {
		return fmt.Sprintf(`{"name":%q,"location":"Golmud","region":"Qinghai","address":"1 Solar Road","timezone":"Asia/Shanghai",
			"stationType":"ground","systemType":"pv","capacityKwp":100,"lat":36.4,"lng":94.9,"azimuth":180,"inclination":30,"currency":"CNY","tagIds":[]}`, name)
	}
	bodies := map[string]string{
		"POST /v2/login":                       `{"username":"admin","password":"helio-demo"}`,
		"POST /api/user/menu":                  ``,
		"POST /v2/site/add":                    strings.Replace(station("Matrix Plant"), `"name"`, fmt.Sprintf(`"parentId":%d,"name"`, f.station), 1),
		"POST /v2/site/edit/{uid}":             station("Matrix Edit"),
		"POST /v2/site/tag/add":                `{"name":"matrix","color":"cyan"}`,
		"POST /v2/site/tag/edit/{id}":          `{"name":"matrix-renamed","color":"blue"}`,
		"POST /v2/site/tag/delete/{id}":        ``,
		"POST /v2/site/upload/thumbnail":       `{"image":"data:image/png;base64,iVBORw0KGgo="}`,
		"POST /v2/dev/add":                     fmt.Sprintf(`{"stationId":%d,"name":"Matrix inverter","sn":"MATRIX-0001","type":"inverter","ratedPowerKw":10,"componentRatedPowerW":400,"componentCount":30,"stringsTotal":2,"stringsEnabled":2}`, f.sub),
		"POST /v2/dev/edit/{uid}":              fmt.Sprintf(`{"stationId":%d,"name":"Matrix edit","sn":"MATRIX-0002","type":"inverter","ratedPowerKw":10}`, f.sub),
		"POST /v2/plan/buildlist/put":          fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[{"month":3,"planKwh":100}]}`, f.station, time.Now().Year()),
		"POST /v2/org/user/resetpwd/{uid}":     `{"password":"Matrix123"}`,
		"POST /v2/org/user/validdisable/{uid}": ``,
		"POST /v2/org/user/validenable/{uid}":  ``,
		"POST /v2/warn/deal/{uid}":             `{"reason":"Reset the inverter remotely","dealMethod":1}`,
		"POST /v2/warn/notify/settings":        `{"levels":[1,2],"frequency":"medium","dailyLimit":10,"methods":[1],"allowed":1,"timezone":"Asia/Shanghai"}`,
		"POST /v2/demo/fault":                  fmt.Sprintf(`{"deviceId":%d,"kind":"inverter_trip","minutes":30}`, f.device),
		"POST /v2/warn/rules":                  `{"rules":[{"key":"offline","enabled":true,"level":1}]}`,
		"POST /v2/message/read":                fmt.Sprintf(`{"ids":[%d],"all":false}`, f.message),
		"POST /api/vectorstore/documents":      `{"name":"matrix-upload.md","content":"IyBVcGxvYWQKClRleHQu"}`,
		"POST /api/query/":                     `{"question":"Which station made the least yesterday?"}`,
		"POST /v2/ingest/key/issue":            fmt.Sprintf(`{"kind":"device","deviceId":%d}`, f.device),
		"POST /v2/ingest/key/revoke":           fmt.Sprintf(`{"kind":"device","deviceId":%d}`, f.device),
		"POST /v2/ingest/line/rules":           `{"rules":[{"measurement":"inverter","deviceTag":"sn","field":"power","target":"powerKw","scale":0.001}]}`,
		"POST /v2/compare/run":                 f.compareConfig(),
		"POST /v2/compare/template/add":        `{"name":"matrix 2","shared":true,"config":` + f.compareConfig() + `}`,
		"POST /v2/compare/template/edit/{uid}": `{"name":"matrix 3","shared":false,"config":` + f.compareConfig() + `}`,
		"POST /v2/compare/template/edit":       fmt.Sprintf(`{"uid":%d,"name":"matrix 4","shared":false,"config":`, f.compareTpl) + f.compareConfig() + `}`,
		"POST /v2/report/template/edit":        fmt.Sprintf(`{"uid":%d,`, f.reportTpl) + strings.TrimPrefix(f.reportTemplate(), "{"),
		"POST /v2/report/template/add":         f.reportTemplate(),
		"POST /v2/report/template/edit/{uid}":  f.reportTemplate(),
		"POST /v2/report/record/add":           f.reportRecord(),
		"POST /v2/tools/yield":                 fmt.Sprintf(`{"lat":36.4,"lng":94.9,"altitudeM":2800,"capacityKwp":100,"tiltDeg":30,"azimuthDeg":180,"lossesPct":3,"stationId":%d}`, f.station),
		"POST /v2/user/shortcuts":              `{"shortcuts":["alarm","station"]}`,
		"POST /v2/tools/strings":               `{"modulesPerString":18,"moduleVocV":49.5,"moduleVmpV":41.6,"vocCoeffPctPerC":-0.27,"vmpCoeffPctPerC":-0.35,"inverterMaxDcV":1100,"mpptMinV":200,"mpptMaxV":1000,"siteMinAirC":-25,"siteMaxAirC":38}`,
		"POST /v2/plan/proposal/save":          fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[1,2,3,4,5,6,7,8,9,10,11,12]}`, f.station, time.Now().Year()),
		"POST /v2/plan/proposal/submit/{uid}":  fmt.Sprintf(`{"approverId":%d}`, f.user),
		"POST /v2/plan/proposal/decide/{uid}":  `{"decision":"refuse","reason":"matrix"}`,
		"POST /v2/workorder/add":               fmt.Sprintf(`{"title":"Matrix order","stationId":%d,"alarmId":0,"priority":2,"plannedStart":"2026-03-01T08:00:00Z","plannedEnd":"2026-03-01T12:00:00Z"}`, f.sub),
		"POST /v2/workorder/transition/{uid}":  `{"action":"accept","comment":"matrix"}`,
		"POST /v2/workorder/assign/{uid}":      fmt.Sprintf(`{"assigneeUserId":%d,"assigneeDeptId":0,"comment":"matrix"}`, f.user),
		"POST /v2/workorder/comment/{uid}":     `{"body":"matrix comment"}`,
		"POST /v2/workorder/attachment/{uid}":  `{"name":"photo.png","data":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}`,
	}
	for k, v := range scadaBodies(f) {
		bodies[k] = v
	}
	for k, v := range mqttBodies() {
		bodies[k] = v
	}
	for k, v := range importBodies(f) {
		bodies[k] = v
	}
	for k, v := range cloudBodies() {
		bodies[k] = v
	}
	for k, v := range webhookBodies() {
		bodies[k] = v
	}
	for k, v := range escalationBodies(f) {
		bodies[k] = v
	}
	for k, v := range siteBodies(f) {
		bodies[k] = v
	}
	for k, v := range orgBodies(f.grantedStation, f.dept) {
		bodies[k] = v
	}
	b, ok := bodies[route]
	return b, ok
}

// snapshot hashes every table a call could change (not sessions, logs or telemetry).
func snapshot(t *testing.T, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	// scada_status is the field poller's, written in the background as devices are polled
	rows, err := db.Query(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'telemetry_%' AND name NOT IN ('sessions', 'audit_log', 'schema_migrations', 'scada_status') ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	var out strings.Builder
	for _, tb := range tables {
		h := sha256.New()
		r, err := db.Query(ctx, "SELECT * FROM "+tb+" ORDER BY 1, 2")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := r.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for r.Next() {
			_ = r.Scan(ptrs...)
			fmt.Fprintf(h, "%v\n", vals)
		}
		r.Close()
		fmt.Fprintf(&out, "%s=%s\n", tb, hex.EncodeToString(h.Sum(nil))[:16])
	}
	return out.String()
}

// changedTables names the tables whose rows differ between two snapshots.
func changedTables(before, after string) string {
	was := map[string]string{}
	for _, l := range strings.Split(before, "\n") {
		if name, sum, ok := strings.Cut(l, "="); ok {
			was[name] = sum
		}
	}
	var names []string
	for _, l := range strings.Split(after, "\n") {
		if name, sum, ok := strings.Cut(l, "="); ok && was[name] != sum {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

var paramRe = regexp.MustCompile(`\{([^}]+)\}`)

func (f *fixture) url(rt httpapi.Route, override map[string]string) string {
	return paramRe.ReplaceAllStringFunc(rt.Path, func(m string) string {
		name := strings.Trim(m, "{}")
		if v, ok := override[name]; ok {
			return v
		}
		return f.target(rt.Path, name)
	})
}

// skipped are calls the matrices cannot make generically, each tested on its own.
var skipped = map[string]string{
	"POST /v2/logout":         "ends the session the matrix runs on (internal/auth tests)",
	"GET /v2/webpush/message": "a WebSocket upgrade (internal/push tests)",
	"POST /v2/ingest/samples": "device-key authentication (internal/ingest tests)",
}

func TestBadInputMatrix(t *testing.T) {
	f := newFixture(t)
	e := f.e
	injections := []string{"'; DROP TABLE stations;--", "<script>alert(1)</script>", "../../etc/passwd", "NaN", "1e400",
		"-99999999999999999999", "%00", strings.Repeat("x", 5000)}
	badIDs := []string{"..%2f..%2fetc%2fpasswd", "1%20OR%201=1", "%3Cscript%3E", "-1", "0", "99999999999999999999", "1e3", "%00"}
	for _, rt := range e.Server.API.Routes() {
		key := rt.Method + " " + rt.Path
		if why, ok := skipped[key]; ok {
			t.Logf("skip %s: %s", key, why)
			continue
		}
		t.Run(key, func(t *testing.T) {
			before := snapshot(t, e.DB)
			call := func(name string, s apitest.Scenario) *apitest.Result {
				t.Helper()
				s.Method, s.As = rt.Method, "admin"
				if s.URL == "" {
					s.URL = f.url(rt, nil)
				}
				r := e.Do(t, s)
				if r.Status >= 500 {
					t.Errorf("%s: %d %s", name, r.Status, r.Body)
				}
				// a download (CSV, XLSX) is data that is never rendered; what is shown must not carry markup
				download := strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment")
				if strings.Contains(r.Body, "<script>") && !download {
					t.Errorf("%s: script echoed unescaped", name)
				}
				return r
			}
			unchanged := func(name string) {
				t.Helper()
				if after := snapshot(t, e.DB); after != before {
					t.Errorf("%s changed the database (%s)", name, changedTables(before, after))
					before = after
				}
			}
			// Path ids that cannot name anything.
			for _, p := range paramRe.FindAllStringSubmatch(rt.Path, -1) {
				for _, bad := range badIDs {
					r := call("path "+p[1]+"="+bad, apitest.Scenario{URL: f.url(rt, map[string]string{p[1]: bad}), Body: bodyOr(f, key)})
					if r.Status < 400 {
						t.Errorf("path %s=%s: %d, want 4xx", p[1], bad, r.Status)
					}
					unchanged("path " + p[1] + "=" + bad)
				}
			}
			// Hostile query values.
			if rt.Query != nil {
				for _, name := range httpapi.QueryNames(rt.Query) {
					for _, inj := range injections {
						u := f.url(rt, nil) + "?" + url.Values{name: {inj}}.Encode()
						r := call("query "+name, apitest.Scenario{URL: u})
						// a list's order is one of its whitelisted columns: anything else is
						// refused by name, never spliced into a query
						if (name == "sort" || name == "order") && (r.Status != 400 || !strings.Contains(r.Body, `"`+name+`"`)) {
							t.Errorf("query %s=%.40q: %d %.200s, want a 400 naming it", name, inj, r.Status, r.Body)
						}
						if rt.Method == "GET" {
							unchanged("query " + name)
						}
					}
				}
			}
			if rt.Body == nil {
				return
			}
			valid, ok := f.validBody(key)
			if !ok {
				t.Fatalf("no example body for %s: add one to validBody", key)
			}
			refused := func(name string, s apitest.Scenario, lo, hi int) {
				t.Helper()
				r := call(name, s)
				if r.Status < lo || r.Status > hi {
					t.Errorf("%s: %d, want %d-%d: %s", name, r.Status, lo, hi, r.Body)
				} else if r.Env.Msg == "" {
					t.Errorf("%s: no message", name)
				}
				unchanged(name)
			}
			refused("malformed JSON", apitest.Scenario{Body: `{"name":`}, 400, 400)
			refused("wrong content type", apitest.Scenario{Body: valid, ContentType: "text/plain"}, 415, 415)
			refused("oversized", apitest.Scenario{Body: `{"name":"` + strings.Repeat("x", 17<<20) + `"}`}, 413, 413)
			refused("unknown field", apitest.Scenario{Body: strings.Replace(valid, "{", `{"isAdmin":true,`, 1)}, 400, 400)
			refused("NaN literal", apitest.Scenario{Body: `{"capacityKwp":NaN}`}, 400, 400)
			refused("array instead of object", apitest.Scenario{Body: `[]`}, 400, 400)
			if hasRequired(rt.Body) {
				refused("missing required fields", apitest.Scenario{Body: `{}`}, 400, 400)
			}
			var obj map[string]any
			_ = json.Unmarshal([]byte(valid), &obj)
			for _, k := range sortedKeys(obj) {
				mut := copyMap(obj)
				switch obj[k].(type) {
				case string:
					mut[k] = 12345
				case float64:
					mut[k] = "twelve"
				default:
					mut[k] = "x"
				}
				b, _ := json.Marshal(mut)
				r := call("wrong type "+k, apitest.Scenario{Body: string(b)})
				if r.Status != 400 || !strings.Contains(r.Body, `"`+k+`"`) {
					t.Errorf("wrong type %s: %d %s, want a 400 naming the field", k, r.Status, r.Body)
				}
				unchanged("wrong type " + k)
				if _, isNum := obj[k].(float64); isNum {
					huge := strings.Replace(valid, fmt.Sprintf(`"%s":`, k), fmt.Sprintf(`"%s":1e400,"_":`, k), 1)
					refused("huge number "+k, apitest.Scenario{Body: huge}, 400, 400)
				}
			}
			// Injection strings in every string field of an otherwise valid body: the
			// text is refused or stored as text, never run.
			for _, k := range sortedKeys(obj) {
				if _, isStr := obj[k].(string); !isStr {
					continue
				}
				for _, inj := range injections[:3] {
					mut := copyMap(obj)
					mut[k] = inj
					b, _ := json.Marshal(mut)
					call("injection in "+k, apitest.Scenario{Body: string(b)})
				}
			}
			var n int
			if err := e.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM stations").Scan(&n); err != nil || n == 0 {
				t.Fatalf("stations table damaged: %d %v", n, err)
			}
		})
	}
}

func bodyOr(f *fixture, key string) string {
	b, _ := f.validBody(key)
	return b
}

func hasRequired(body any) bool {
	t := reflect.TypeOf(body)
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("validate") == "required" {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func copyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Every call that names something by id, made by another organisation's user and by a
// user without authority over the station, is refused (404, or 403 for a role) and
// changes nothing.
func TestCrossOrganisationMatrix(t *testing.T) {
	f := newFixture(t)
	e := f.e
	// Calls whose id arrives in the query or the body.
	indirect := map[string]string{
		"GET /v2/dev/listbytype":       fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/dev/export":           fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/plan/list":            fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/plan/buildlist/get":   fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/workorder/list":       fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/plan/proposal/list":   fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/plan/proposal/spread": fmt.Sprintf("stationId=%d&totalKwh=1000", f.station),
		"GET /v2/workorder/summary":    fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/workorder/export":     fmt.Sprintf("stationId=%d", f.station),
		"GET /v2/analysis/overview":    fmt.Sprintf("scope=device&id=%d&period=month&date=2026-01", f.device),
	}
	bodyIDs := map[string]bool{"POST /v2/site/add": true, "POST /v2/dev/add": true, "POST /v2/plan/buildlist/put": true,
		"POST /v2/workorder/add": true, "POST /v2/plan/proposal/save": true}
	// Calls on things of the whole organisation (not of a station): its members may make
	// them, so only another organisation is refused.
	orgWide := map[string]bool{"GET /api/vectorstore/documents/{id}": true, "GET /api/vectorstore/documents/{id}/file": true}
	for k := range scadaBodies(f) {
		bodyIDs[k] = k != "POST /v1/scada/project/get" && k != "POST /v1/scada/register/config/add" && k != "POST /v1/scada/template/list"
	}
	for _, k := range importBodyIDs {
		bodyIDs[k] = true
	}
	checked := 0
	for _, rt := range e.Server.API.Routes() {
		key := rt.Method + " " + rt.Path
		q, isIndirect := indirect[key]
		takesID := strings.Contains(rt.Path, "{") || isIndirect || bodyIDs[key]
		if !takesID || rt.Access == httpapi.Public {
			continue
		}
		if _, ok := skipped[key]; ok {
			continue
		}
		body := ""
		if rt.Body != nil {
			var ok bool
			if body, ok = f.validBody(key); !ok {
				t.Fatalf("no example body for %s", key)
			}
		}
		u := f.url(rt, nil)
		if isIndirect {
			u += "?" + q
		}
		for _, user := range []string{"other", "operator"} {
			if user == "operator" && orgWide[key] {
				continue
			}
			t.Run(key+" as "+user, func(t *testing.T) {
				before := snapshot(t, e.DB)
				r := e.Do(t, apitest.Scenario{Method: rt.Method, URL: u, As: user, Body: body})
				if r.Status != 404 && r.Status != 403 && r.Status != 400 {
					t.Errorf("%d %s, want 404 (or 403 for a role, 400 for an id in the body)", r.Status, r.Body)
				}
				if bodyIDs[key] && r.Status == 400 && !strings.Contains(r.Body, "Id\"") {
					t.Errorf("400 does not name the id field: %s", r.Body)
				}
				if after := snapshot(t, e.DB); after != before {
					t.Errorf("the refused call changed the database (%s)", changedTables(before, after))
				}
				checked++
			})
		}
	}
	if checked < 30 {
		t.Fatalf("only %d calls checked", checked)
	}
	// The same calls work for the owner: the matrix aims at real things.
	e.Run(t, []apitest.Scenario{
		{Name: "admin reads the target station", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", f.station), As: "admin", Status: 200},
		{Name: "admin reads the target device", Method: "GET", URL: fmt.Sprintf("/v2/dev/detail/%d", f.device), As: "admin", Status: 200},
	})
}
