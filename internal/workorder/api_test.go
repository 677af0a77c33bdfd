package workorder_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/workorder"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type rig struct {
	e                *apitest.Env
	clock            *clock
	granted, hidden  int64 // a station the operator sees, one they do not
	grantedDev       int64
	opsDept, otherSt int64
	service          *workorder.Service
	alarmSt          int64 // the station of grantedDev (the granted station or a sub-station)
}

func newRig(t *testing.T) *rig {
	e := apitest.NewWithFleet(t)
	// Messages count from the session start, so the clock starts just after the sign-ins.
	c := &clock{t: time.Now().UTC().Add(time.Minute).Truncate(time.Second)}
	msgs := &message.Store{DB: e.DB, Now: c.Now}
	api := httpapi.New(e.Server.Sessions.Authenticate)
	e.Server.Auth.Routes(api)
	svc := &workorder.Service{DB: e.DB, Blobs: blob.NewDB(e.DB), Messages: msgs, Now: c.Now}
	svc.Routes(api)
	(&message.Service{Store: msgs}).Routes(api)
	*e.Server.API = *api
	r := &rig{e: e, clock: c, opsDept: e.Accounts.OpsDeptID, service: svc}
	one := func(q string, args ...any) int64 {
		var id int64
		if err := e.DB.QueryRow(context.Background(), q, args...).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	fl := e.Fleet
	r.granted = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[0].Key)
	r.hidden = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[4].Key)
	r.otherSt = one("SELECT id FROM stations WHERE sim_key = ?", fl.Stations[len(fl.Stations)-1].Key)
	r.grantedDev = one("SELECT MIN(id) FROM devices WHERE station_id IN (SELECT id FROM stations WHERE id = ? OR parent_id = ?)", r.granted, r.granted)
	r.alarmSt = one("SELECT station_id FROM devices WHERE id = ?", r.grantedDev)
	return r
}

// alarm raises an occurring alarm on the granted station, as the engine stores it.
func (r *rig) alarm(t *testing.T, key string) int64 {
	t.Helper()
	at := r.clock.Now().Add(-time.Hour).UnixMilli()
	id, err := r.e.DB.Insert(context.Background(), `INSERT INTO alarms (org_id, station_id, device_id, device_name, device_type, rule_key,
		alarm_type, level, status, open_key, description, start_at, occurred_at, last_alarm_at, updated_at)
		VALUES (?, ?, ?, 'INV-1', 'inverter', 'inverter_fault', 1, 2, 1, ?, 'Inverter fault', ?, ?, ?, ?)`,
		r.e.Accounts.OrgID, r.alarmSt, r.grantedDev, key, at, at, at, at)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (r *rig) recover(t *testing.T, id int64) {
	t.Helper()
	if _, err := r.e.DB.Exec(context.Background(), "UPDATE alarms SET status = 2, open_key = NULL, recovered_at = ? WHERE id = ?",
		r.clock.Now().UnixMilli(), id); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) do(t *testing.T, as, method, url, body string, status int) *apitest.Result {
	t.Helper()
	res := r.e.Do(t, apitest.Scenario{Method: method, URL: url, As: as, Body: body})
	if res.Status != status {
		t.Fatalf("%s %s as %s: %d, want %d: %s", method, url, as, res.Status, status, res.Body)
	}
	return res
}

func detailOf(t *testing.T, res *apitest.Result) workorder.Detail {
	t.Helper()
	var d workorder.Detail
	if err := json.Unmarshal(res.Env.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (r *rig) plan(hours int) string {
	s := r.clock.Now()
	return fmt.Sprintf(`"plannedStart":%q,"plannedEnd":%q`, s.Format(time.RFC3339), s.Add(time.Duration(hours)*time.Hour).Format(time.RFC3339))
}

func (r *rig) unread(t *testing.T, as string) int {
	res := r.do(t, as, "GET", "/v2/message/counts", "", 200)
	var c message.Counts
	_ = json.Unmarshal(res.Env.Data, &c)
	return c.Unread
}

func TestAlarmOrderRecoveryClose(t *testing.T) {
	r := newRig(t)
	alarm := r.alarm(t, "a1")
	before := r.unread(t, "operator")
	// From the alarm, assigned to the operator's department: the title comes from the alarm.
	res := r.do(t, "admin", "POST", "/v2/workorder/add",
		fmt.Sprintf(`{"alarmId":%d,"title":"","priority":3,"assigneeDeptId":%d,%s}`, alarm, r.opsDept, r.plan(8)), 200)
	d := detailOf(t, res)
	if d.Status != 1 || d.StationID != r.alarmSt || d.Title != "Inverter fault" || d.AlarmStatus != 1 || !strings.HasPrefix(d.Number, "WO-"+r.clock.Now().Format("20060102")+"-") {
		t.Fatalf("created: %+v", d.Order)
	}
	if r.unread(t, "operator") != before+1 {
		t.Fatalf("the department's member was not told")
	}
	// One open order per fault.
	r.do(t, "admin", "POST", "/v2/workorder/add", fmt.Sprintf(`{"alarmId":%d,"title":"again","priority":2,%s}`, alarm, r.plan(8)), 409)
	// The processor accepts (becoming the processor) and starts.
	url := fmt.Sprintf("/v2/workorder/transition/%d", d.ID)
	d = detailOf(t, r.do(t, "operator", "POST", url, `{"action":"accept"}`, 200))
	if d.Status != 2 || d.AssigneeUserID != r.e.Accounts.OperatorID || fmt.Sprint(d.Actions) != "[reject start]" {
		t.Fatalf("accepted: %+v %v", d.Order, d.Actions)
	}
	r.clock.Add(time.Hour)
	d = detailOf(t, r.do(t, "operator", "POST", url, `{"action":"start"}`, 200))
	if d.Status != 3 || d.ActualStart == nil {
		t.Fatalf("started: %+v", d.Order)
	}
	// Close needs the alarm recovered.
	r.do(t, "admin", "POST", url, `{"action":"close"}`, 409)
	r.clock.Add(2 * time.Hour)
	r.recover(t, alarm)
	operatorBefore := r.unread(t, "operator")
	r.service.AlarmsRecovered(context.Background(), []int64{alarm})
	if r.unread(t, "operator") != operatorBefore+1 {
		t.Fatalf("the processor was not told of the recovery")
	}
	d = detailOf(t, r.do(t, "admin", "GET", fmt.Sprintf("/v2/workorder/detail/%d", d.ID), "", 200))
	if d.AlarmStatus != 2 || d.AlarmRecovered == nil || !strings.Contains(fmt.Sprint(d.Actions), "close") {
		t.Fatalf("after recovery: %+v %v", d.Order, d.Actions)
	}
	submitterBefore := r.unread(t, "admin")
	d = detailOf(t, r.do(t, "admin", "POST", url, `{"action":"close","comment":"Recovered by itself"}`, 200))
	if d.Status != 4 || d.ActualHours != 2 || len(d.Events) != 4 || d.Events[3].Action != "close" || d.Events[3].UserName == "" {
		t.Fatalf("closed: %+v %+v", d.Order, d.Events)
	}
	if r.unread(t, "admin") != submitterBefore || r.unread(t, "operator") != before+3 { // opened, recovered, closed
		t.Fatalf("close message: the actor is not told, the processor is")
	}
	// Finished orders are done: no more moves, and the alarm may get a new order.
	r.do(t, "admin", "POST", url, `{"action":"finish","comment":"x"}`, 409)
	r.do(t, "admin", "POST", "/v2/workorder/add", fmt.Sprintf(`{"alarmId":%d,"title":"Next","priority":2,%s}`, alarm, r.plan(8)), 200)
}

func TestLifecycleTimeoutAndAuthority(t *testing.T) {
	r := newRig(t)
	op := r.e.Accounts.OperatorID
	d := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add",
		fmt.Sprintf(`{"title":"Clean strings","stationId":%d,"priority":2,"assigneeUserId":%d,"ccUserIds":[%d],%s}`, r.granted, op, r.e.Accounts.AdminID, r.plan(4)), 200))
	url := fmt.Sprintf("/v2/workorder/transition/%d", d.ID)
	// The submitter (not the processor) may not accept; the processor must say why to reject.
	r.do(t, "operator", "POST", url, `{"action":"reject"}`, 400)
	r.do(t, "operator", "POST", url, `{"action":"fly"}`, 400)
	r.do(t, "operator", "POST", url, `{"action":"accept"}`, 200)
	r.do(t, "operator", "POST", url, `{"action":"start"}`, 200)
	// Five hours later it is an hour late; the list says so without any write.
	r.clock.Add(5 * time.Hour)
	list := r.do(t, "operator", "GET", "/v2/workorder/list?timeoutStatus=1", "", 200)
	var page httpapi.Page[workorder.Order]
	_ = json.Unmarshal(list.Env.Data, &page)
	if page.Total != 1 || page.List[0].OvertimeHours != 1 || page.List[0].ActualHours != 5 || page.List[0].DeviationPercent != 25 {
		t.Fatalf("late list: %+v", page)
	}
	r.do(t, "operator", "POST", url, `{"action":"finish"}`, 400)
	d = detailOf(t, r.do(t, "operator", "POST", url, `{"action":"finish","comment":"Strings washed"}`, 200))
	if d.Status != 4 || d.Timeout != 1 || d.OvertimeHours != 1 {
		t.Fatalf("finished late: %+v", d.Order)
	}
	// Mine filters and totals.
	for _, c := range []struct {
		as, q string
		n     int64
	}{{"admin", "mine=started", 1}, {"operator", "mine=started", 0}, {"admin", "mine=copied", 1}, {"operator", "mine=assigned", 1}, {"admin", "status=4&q=strings", 1}, {"admin", "status=1", 0}} {
		res := r.do(t, c.as, "GET", "/v2/workorder/list?"+c.q, "", 200)
		var p httpapi.Page[workorder.Order]
		_ = json.Unmarshal(res.Env.Data, &p)
		if p.Total != c.n {
			t.Errorf("%s as %s: %d orders, want %d", c.q, c.as, p.Total, c.n)
		}
	}
	sum := r.do(t, "admin", "GET", "/v2/workorder/summary", "", 200)
	if !strings.Contains(sum.Body, `"total":1`) || !strings.Contains(sum.Body, `"processRatio":100`) || !strings.Contains(sum.Body, `"timedOut":1`) {
		t.Fatalf("summary: %s", sum.Body)
	}
	// Bad filters are named.
	res := r.do(t, "admin", "GET", "/v2/workorder/list?status=9&mine=everyone&timeoutStatus=3", "", 400)
	for _, f := range []string{"status", "mine", "timeoutStatus"} {
		if !strings.Contains(res.Body, `"`+f+`"`) {
			t.Errorf("filter %s not named: %s", f, res.Body)
		}
	}
	// An order on a station the operator does not see: invisible, and not theirs to act on.
	hidden := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add",
		fmt.Sprintf(`{"title":"Hidden","stationId":%d,"priority":1,%s}`, r.hidden, r.plan(4)), 200))
	r.do(t, "operator", "GET", fmt.Sprintf("/v2/workorder/detail/%d", hidden.ID), "", 404)
	r.do(t, "operator", "POST", fmt.Sprintf("/v2/workorder/transition/%d", hidden.ID), `{"action":"accept"}`, 404)
	r.do(t, "other", "GET", fmt.Sprintf("/v2/workorder/detail/%d", hidden.ID), "", 404)
	r.do(t, "other", "GET", fmt.Sprintf("/v2/workorder/list?stationId=%d", r.granted), "", 404)
	r.do(t, "operator", "POST", "/v2/workorder/add", fmt.Sprintf(`{"title":"x","stationId":%d,"priority":1,%s}`, r.hidden, r.plan(4)), 404)
	// Nor can it be given to someone who cannot see the station.
	r.do(t, "admin", "POST", fmt.Sprintf("/v2/workorder/assign/%d", hidden.ID), fmt.Sprintf(`{"assigneeUserId":%d}`, op), 400)
	other := r.do(t, "other", "GET", "/v2/workorder/list", "", 200)
	if !strings.Contains(other.Body, `"total":0`) {
		t.Fatalf("other organisation sees orders: %s", other.Body)
	}
	// Export in the caller's language.
	csv := r.e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/workorder/export?status=4", As: "admin", Headers: map[string]string{"Accept-Language": "zh-CN"}})
	if csv.Status != 200 || !strings.Contains(csv.Body, "工单编号") || !strings.Contains(csv.Body, "Clean strings") || !strings.Contains(csv.Body, "已超时") {
		t.Fatalf("export: %d %s", csv.Status, csv.Body)
	}
	xlsx := r.e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/workorder/export?format=xlsx", As: "admin"})
	if xlsx.Status != 200 || !strings.HasPrefix(xlsx.Body, "PK") {
		t.Fatalf("xlsx: %d", xlsx.Status)
	}
}

var png1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func TestAttachmentsAndComments(t *testing.T) {
	r := newRig(t)
	d := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add",
		fmt.Sprintf(`{"title":"Fence","stationId":%d,"priority":1,%s}`, r.granted, r.plan(4)), 200))
	base := fmt.Sprintf("/v2/workorder/attachment/%d", d.ID)
	d = detailOf(t, r.do(t, "operator", "POST", base, `{"name":"C:\\photos\\fence.png","data":"data:image/png;base64,`+png1+`"}`, 200))
	if len(d.Attachments) != 1 || d.Attachments[0].Name != "fence.png" || d.Attachments[0].ContentType != "image/png" {
		t.Fatalf("attachments: %+v", d.Attachments)
	}
	file := r.e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("%s/%d", base, d.Attachments[0].ID), As: "operator"})
	raw, _ := base64.StdEncoding.DecodeString(png1)
	if file.Status != 200 || file.Body != string(raw) || file.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("download: %d %v", file.Status, file.Header)
	}
	r.do(t, "other", "GET", fmt.Sprintf("%s/%d", base, d.Attachments[0].ID), "", 404)
	// A script is no photo; a file past 5 MB is refused before it is stored.
	script := base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\nrm -rf /\n"))
	res := r.do(t, "admin", "POST", base, `{"name":"x.png","data":"data:image/png;base64,`+script+`"}`, 400)
	if !strings.Contains(res.Body, "PDF") {
		t.Fatalf("type refusal: %s", res.Body)
	}
	big := base64.StdEncoding.EncodeToString(make([]byte, workorder.MaxAttachmentBytes+10))
	r.do(t, "admin", "POST", base, `{"name":"big.pdf","data":"data:application/pdf;base64,`+big+`"}`, 413)
	if n := r.e.Count(t, "SELECT COUNT(*) FROM blobs"); n != 1 {
		t.Fatalf("%d blobs stored", n)
	}
	// Comments.
	r.do(t, "admin", "POST", fmt.Sprintf("/v2/workorder/comment/%d", d.ID), `{"body":"  "}`, 400)
	d = detailOf(t, r.do(t, "operator", "POST", fmt.Sprintf("/v2/workorder/comment/%d", d.ID), `{"body":"Bring the pliers"}`, 200))
	if len(d.Comments) != 1 || d.Comments[0].Body != "Bring the pliers" {
		t.Fatalf("comments: %+v", d.Comments)
	}
}
