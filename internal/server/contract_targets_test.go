package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// contractCalls are what the contract test changes, by route, in the calls it makes from
// the matrices' fixture: path parameters, bodies, queries and headers.
type contractCalls struct {
	params  map[string]map[string]string
	bodies  map[string]string
	query   map[string]string
	headers map[string]map[string]string
}

// contractTargets makes, through the API, the things the calls aim at beyond the
// matrices' fixture (a register map and a Modbus device on loopback, an import job, a
// rendered report and its link, a cover, an avatar, an attachment, a vendor-cloud
// connection on a stand-in, an ingest key and line rules) and says how to reach them.
func contractTargets(t *testing.T, f *fixture) contractCalls {
	t.Helper()
	e := f.e
	ctx := context.Background()
	call := func(method, url, body string, out any) {
		t.Helper()
		r := e.Do(t, apitest.Scenario{Method: method, URL: url, As: "admin", Body: body})
		if r.Status != 200 {
			t.Fatalf("%s %s: %d %s", method, url, r.Status, r.Body)
		}
		if out != nil {
			if err := json.Unmarshal(r.Env.Data, out); err != nil {
				t.Fatalf("%s %s: %v in %s", method, url, err, r.Body)
			}
		}
	}
	var regmap struct{ ID int64 }
	call("POST", "/v1/scada/register/config/add", `{"id":0,"name":"Contract map","model":"C1","registers":[`+
		`{"name":"p","address":0,"function":"holding","dataType":"int16","target":"power"},`+
		`{"name":"power_limit","address":200,"function":"holding","dataType":"uint16","unit":"%","writable":true}]}`, &regmap)
	im := sunspectest.NewImage()
	im.Set(0, 42)
	im.Set(200, 100)
	modbus := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{5: {Image: im}})
	host, port, _ := strings.Cut(modbus.Addr, ":")
	link := fmt.Sprintf(`{"deviceId":%d,"host":%q,"port":%s,"unitId":5,"intervalS":60,"timeoutMs":500,"mapId":%d}`, f.device, host, port, regmap.ID)

	var serial string
	if err := e.DB.QueryRow(ctx, "SELECT sn FROM devices WHERE id = ?", f.device).Scan(&serial); err != nil {
		t.Fatal(err)
	}
	csv := fmt.Sprintf("time,sn,p\n2026-01-05 10:00,%s,12.5\n2026-01-05 10:05,%s,13\n", serial, serial)
	up := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/import/file/upload?name=contract.csv", As: "admin", Body: csv, ContentType: "text/csv"})
	var file struct{ ID int64 }
	if up.Status != 200 || json.Unmarshal(up.Env.Data, &file) != nil {
		t.Fatalf("upload: %d %s", up.Status, up.Body)
	}
	var job struct{ ID int64 }
	call("POST", "/v2/import/dryrun", fmt.Sprintf(`{"files":[{"fileId":%d,"device":""}],"mapping":%s}`, file.ID, importMapping), &job)

	for i := 0; ; i++ {
		if ran, err := e.Server.Reports.Worker.RunOnce(ctx); err != nil {
			t.Fatal(err)
		} else if !ran || i > 10 {
			break
		}
	}
	token, _, err := e.Server.Reports.Records.Link(ctx, f.record, time.Hour)
	if err != nil {
		t.Fatal(err)
	}

	var cover struct{ URL string }
	call("POST", "/v2/site/upload/thumbnail", `{"image":"`+pngDataURL(40, 30)+`"}`, &cover)
	var avatar struct{ URL string }
	call("POST", "/v2/user/avatar", `{"image":"`+pngDataURL(32, 32)+`"}`, &avatar)
	var wo struct {
		Attachments []struct{ ID int64 } `json:"attachments"`
	}
	call("POST", fmt.Sprintf("/v2/workorder/attachment/%d", f.workOrder), `{"name":"photo.png","data":"`+pngDataURL(8, 8)+`"}`, &wo)
	if len(wo.Attachments) == 0 {
		t.Fatal("the attachment is not in the work order")
	}

	se := &standin.Server{Keys: map[string]bool{"CONTRACTKEY": true}, Now: time.Now, Sites: []standin.Site{
		{ID: 7, Name: "Contract roof", TimeZone: "Europe/Berlin", Start: time.Now().AddDate(0, 0, -2).Format(solaredge.DateLayout),
			Inverters: []standin.Inverter{{Serial: "C-01", Name: "Inverter 1", Model: "SE17K", PeakW: 17000}}}}}
	srv := httptest.NewServer(se)
	t.Cleanup(srv.Close)
	e.Server.Cloud.BaseURLs = map[string]string{"solaredge": srv.URL}
	e.Server.Cloud.Store.Sealer = cloud.NewSealer("contract secret")
	var conn struct{ ID int64 }
	call("POST", "/v2/cloud/connection/add", `{"vendor":"solaredge","name":"Contract","credentials":"CONTRACTKEY","dailyBudget":0}`, &conn)

	// the key of a device the matrices' calls do not rotate
	var keyDevice int64
	var keySerial string
	if err := e.DB.QueryRow(ctx, "SELECT id, sn FROM devices WHERE org_id = ? AND type = 'inverter' AND id <> ? ORDER BY id LIMIT 1",
		e.Accounts.OrgID, f.device).Scan(&keyDevice, &keySerial); err != nil {
		t.Fatal(err)
	}
	var key struct{ Key string }
	call("POST", "/v2/ingest/key/issue", fmt.Sprintf(`{"kind":"device","deviceId":%d}`, keyDevice), &key)
	call("POST", "/v2/ingest/line/rules", `{"rules":[{"measurement":"inverter","deviceTag":"sn","field":"power","target":"powerKw","scale":0.001}]}`, nil)
	line := fmt.Sprintf("inverter,sn=%s power=12000", keySerial)

	// a member, a department and a file that can go, unlike the administrator's own
	// account, a department with members and a file an import reads
	var user, dept struct{ ID int64 }
	call("POST", "/v2/org/user/add", fmt.Sprintf(`{"username":"contract.user","password":"Contract123","name":"Con Tract","deptId":%d,"email":"c@example.com","phone":"+86 123456","role":"user","stationAuthority":"authorized","jobName":"tester"}`, f.dept), &user)
	call("POST", "/v2/org/dept/add", `{"name":"Contract dept","stationIds":[]}`, &dept)
	spare := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/import/file/upload?name=spare.csv", As: "admin", Body: csv, ContentType: "text/csv"})
	var spareFile struct{ ID int64 }
	if spare.Status != 200 || json.Unmarshal(spare.Env.Data, &spareFile) != nil {
		t.Fatalf("upload: %d %s", spare.Status, spare.Body)
	}
	member := map[string]string{"uid": fmt.Sprint(user.ID)}

	connPath := map[string]string{"id": fmt.Sprint(conn.ID)}
	// an order the administrator is working on site (accepted), for the on-site calls: the
	// fixture's own order is moved back to pending accept by the assign call
	siteOrder := func(number string) map[string]string {
		var id int64
		if err := e.DB.QueryRow(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, status, priority, submitter_id, assignee_user_id,
			planned_start, planned_end, created_at, updated_at) VALUES (?, ?, ?, 'On site', 2, 2, ?, ?, 0, 3600000, 0, 0) RETURNING id`,
			e.Accounts.OrgID, f.sub, number, e.Accounts.AdminID, e.Accounts.AdminID).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return map[string]string{"uid": fmt.Sprint(id)}
	}
	site, bare := siteOrder("WO-CONTRACT-SITE"), siteOrder("WO-CONTRACT-BARE") // answered (with a checklist), given one
	if _, err := e.DB.Exec(ctx, `INSERT INTO work_order_checklists (order_id, template_id, name, items, created_at)
		VALUES (?, 0, 'Contract', '[{"key":"clean","label":"Clean","kind":"check","required":true}]', 0)`, site["uid"]); err != nil {
		t.Fatal(err)
	}
	return contractCalls{
		bodies: map[string]string{
			"POST /v1/scada/dev/set":                 link,
			"POST /write":                            line,
			"POST /api/v2/write":                     line,
			"POST /v2/import/file/upload":            csv,
			"POST /v2/cloud/connection/confirm/{id}": `{"sites":[{"siteId":"7","stationId":0,"serials":["C-01"]}]}`,
			"POST /v2/org/account/cancel":            `{"password":"Matrix123"}`, // after the matrices' password change
			"POST /v2/site/upload/thumbnail":         `{"image":"` + pngDataURL(40, 30) + `"}`,
			"POST /v2/ingest/samples": fmt.Sprintf(`{"samples":[{"sn":%q,"time":%q,"powerKw":12.5}]}`,
				keySerial, time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)),
			"POST /v2/message/read":       `{"ids":[],"all":true}`, // the fixture may hold no message yet
			"POST /v2/import/file/delete": fmt.Sprintf(`{"fileId":%d}`, spareFile.ID),
		},
		query: map[string]string{
			"POST /write":                 "db=helio",
			"POST /api/v2/write":          "bucket=helio&org=helio",
			"POST /v2/import/file/upload": "name=contract-2.csv",
		},
		headers: map[string]map[string]string{
			"POST /write":                 {"Authorization": "Token " + key.Key},
			"POST /v2/ingest/samples":     {"X-Helio-Key": key.Key},
			"POST /v2/import/file/upload": {"Content-Type": "text/csv"},
			"POST /api/v2/write":          {"Authorization": "Token " + key.Key},
		},
		params: map[string]map[string]string{
			"POST /v2/org/user/delete/{uid}":              member,
			"POST /v2/org/user/validdisable/{uid}":        member,
			"POST /v2/org/user/validenable/{uid}":         member,
			"POST /v2/org/user/resetpwd/{uid}":            member,
			"POST /v2/org/dept/delete/{uid}":              {"uid": fmt.Sprint(dept.ID)},
			"POST /v2/cloud/connection/edit/{id}":         connPath,
			"POST /v2/cloud/connection/confirm/{id}":      connPath,
			"POST /v2/cloud/connection/sync/{id}":         connPath,
			"POST /v2/cloud/connection/delete/{id}":       connPath,
			"GET /v1/scada/config/export/{id}":            {"id": fmt.Sprint(regmap.ID)},
			"GET /v2/dev/list/{uid}":                      {"uid": fmt.Sprint(f.sub)},
			"GET /v2/import/job/{id}":                     {"id": fmt.Sprint(job.ID)},
			"GET /v2/report/file/{token}":                 {"token": token},
			"GET /v2/site/cover/{file}":                   {"file": path.Base(cover.URL)},
			"GET /v2/user/avatar/{file}":                  {"file": path.Base(avatar.URL)},
			"GET /v2/workorder/attachment/{uid}/{fileId}": {"fileId": fmt.Sprint(wo.Attachments[len(wo.Attachments)-1].ID)},
			"GET /v2/cloud/connection/discover/{id}":      connPath,
			"POST /v2/workorder/checklist/{uid}":          bare,
			"POST /v2/workorder/checklist/answer/{uid}":   site,
			"POST /v2/workorder/checkin/{uid}":            site,
		},
	}
}
