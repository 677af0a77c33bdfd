package workorder_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/workorder"
)

// pushed records the events the services publish.
type pushed struct {
	mu     sync.Mutex
	events []message.Event
}

func (p *pushed) Publish(_ context.Context, ev message.Event) error {
	p.mu.Lock()
	p.events = append(p.events, ev)
	p.mu.Unlock()
	return nil
}

// ordersOf counts the "work orders changed" events of an organisation.
func (p *pushed) ordersOf(org int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, ev := range p.events {
		if slices.Contains(ev.Orders, org) {
			n++
		}
	}
	return n
}

// linkRig serves the work-order and alarm calls on one database.
type linkRig struct {
	*rig
	pub    *pushed
	engine *alarm.Engine
}

func newLinkRig(t *testing.T, db *store.DB) *linkRig {
	e := apitest.NewOn(t, db)
	e.Fleet = demo.Fleet()
	if err := demo.SeedFleet(context.Background(), db, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Now().UTC().Add(time.Minute).Truncate(time.Second)}
	pub := &pushed{}
	msgs := &message.Store{DB: db, Now: c.Now, Pub: pub}
	api := httpapi.New(e.Server.Sessions.Authenticate)
	e.Server.Auth.Routes(api)
	svc := &workorder.Service{DB: db, Blobs: blob.NewDB(db), Messages: msgs, Now: c.Now}
	svc.Routes(api)
	engine := alarm.NewEngine(db, alarm.Options{Now: c.Now, Messages: msgs})
	(&alarm.Service{Engine: engine}).Routes(api)
	(&message.Service{Store: msgs}).Routes(api)
	*e.Server.API = *api
	r := &rig{e: e, clock: c, opsDept: e.Accounts.OpsDeptID, service: svc}
	one := func(q string, args ...any) int64 {
		var id int64
		if err := db.QueryRow(context.Background(), q, args...).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	r.granted = one("SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key)
	r.grantedDev = one("SELECT MIN(id) FROM devices WHERE station_id IN (SELECT id FROM stations WHERE id = ? OR parent_id = ?)", r.granted, r.granted)
	r.alarmSt = one("SELECT station_id FROM devices WHERE id = ?", r.grantedDev)
	return &linkRig{rig: r, pub: pub, engine: engine}
}

// keyedAlarm raises an occurring inverter fault as the engine stores it: its description
// a message key with arguments, the device's serial number with it.
func (r *linkRig) keyedAlarm(t *testing.T) int64 {
	t.Helper()
	at := r.clock.Now().Add(-time.Hour).UnixMilli()
	id, err := r.e.DB.Insert(context.Background(), `INSERT INTO alarms (org_id, station_id, device_id, device_name, device_sn, device_type,
		rule_key, alarm_type, level, status, open_key, msg_key, msg_args, description, start_at, occurred_at, last_alarm_at, updated_at)
		VALUES (?, ?, ?, 'INV-07', 'SN-LINK-0007', 'inverter', 'inverter_fault', 1, 2, 1, 'link', 'alarm_desc_inverter_fault', '[]',
		'The inverter reports a fault and has stopped', ?, ?, ?, ?)`,
		r.e.Accounts.OrgID, r.alarmSt, r.grantedDev, at, at, at, at)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (r *linkRig) alarmDetail(t *testing.T, id int64, lang string) alarm.Detail {
	t.Helper()
	res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/warn/detail/%d", id), As: "admin",
		Headers: map[string]string{"Accept-Language": lang}})
	if res.Status != 200 {
		t.Fatalf("alarm detail: %d %s", res.Status, res.Body)
	}
	var d alarm.Detail
	if err := json.Unmarshal(res.Env.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (r *linkRig) orderIn(t *testing.T, id int64, lang string) workorder.Detail {
	t.Helper()
	res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/workorder/detail/%d", id), As: "operator",
		Headers: map[string]string{"Accept-Language": lang}})
	if res.Status != 200 {
		t.Fatalf("order detail: %d %s", res.Status, res.Body)
	}
	return detailOf(t, res)
}

// An order opened from an alarm keeps the device, its serial number and the alarm; the
// alarm lists its orders with their status now, refuses a second open order naming the
// first, and shows the order finished as soon as it is (a push event tells the consoles).
// Its title is the alarm's description in the reader's language. On both databases.
func TestAlarmAndOrderKnowEachOther(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newLinkRig(t, db)
		org := r.e.Accounts.OrgID
		a := r.keyedAlarm(t)
		if d := r.alarmDetail(t, a, "en-US"); len(d.Orders) != 0 || d.OpenOrder != nil {
			t.Fatalf("before any order: %+v %+v", d.Orders, d.OpenOrder)
		}
		pushes := r.pub.ordersOf(org)
		o := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add",
			fmt.Sprintf(`{"alarmId":%d,"title":"","priority":3,"assigneeUserId":%d,%s}`, a, r.e.Accounts.OperatorID, r.plan(8)), 200))
		if o.AlarmID != a || o.DeviceID != r.grantedDev || o.DeviceName != "INV-07" || o.DeviceSN != "SN-LINK-0007" {
			t.Fatalf("the order does not keep its alarm and device: %+v", o.Order)
		}
		if r.pub.ordersOf(org) != pushes+1 {
			t.Fatalf("opening pushed no orders event")
		}
		// The title in the reader's language, in the list and the detail.
		for lang, want := range map[string]string{"en-US": "The inverter reports a fault and has stopped", "zh-CN": "逆变器报告故障并已停机"} {
			if got := r.orderIn(t, o.ID, lang).Title; got != want {
				t.Fatalf("title in %s: %q, want %q", lang, got, want)
			}
			res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/workorder/list?alarmId=%d", a), As: "admin",
				Headers: map[string]string{"Accept-Language": lang}})
			var page httpapi.Page[workorder.Order]
			_ = json.Unmarshal(res.Env.Data, &page)
			if len(page.List) != 1 || page.List[0].Title != want || page.List[0].DeviceSN != "SN-LINK-0007" {
				t.Fatalf("list in %s: %s", lang, res.Body)
			}
			if d := r.alarmDetail(t, a, lang); len(d.Orders) != 1 || d.Orders[0].Title != want {
				t.Fatalf("alarm's order title in %s: %+v", lang, d.Orders)
			}
		}
		// The processor's message says it in their language too.
		res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/message/list?messageType=workorder", As: "operator",
			Headers: map[string]string{"Accept-Language": "zh-CN"}})
		if !strings.Contains(res.Body, `"content":"逆变器报告故障并已停机"`) {
			t.Fatalf("the order's message is not in the reader's language: %s", res.Body)
		}
		// The alarm shows its open order.
		d := r.alarmDetail(t, a, "en-US")
		if d.OpenOrder == nil || d.OpenOrder.ID != o.ID || d.OpenOrder.Number != o.Number || d.Orders[0].Status != workorder.PendingAccept {
			t.Fatalf("alarm's open order: %+v %+v", d.OpenOrder, d.Orders)
		}
		// A second open order is refused, naming the first.
		res = r.do(t, "admin", "POST", "/v2/workorder/add", fmt.Sprintf(`{"alarmId":%d,"title":"again","priority":2,%s}`, a, r.plan(8)), 409)
		if !strings.Contains(res.Body, o.Number) {
			t.Fatalf("the refusal does not name the open order: %s", res.Body)
		}
		// The status moves show on the alarm at once.
		url := fmt.Sprintf("/v2/workorder/transition/%d", o.ID)
		r.do(t, "operator", "POST", url, `{"action":"accept"}`, 200)
		r.do(t, "operator", "POST", url, `{"action":"start"}`, 200)
		if d := r.alarmDetail(t, a, "en-US"); d.Orders[0].Status != workorder.Executing || d.OpenOrder == nil {
			t.Fatalf("executing order on the alarm: %+v", d.Orders)
		}
		pushes = r.pub.ordersOf(org)
		r.do(t, "operator", "POST", url, `{"action":"finish","comment":"Replaced the IGBT module"}`, 200)
		if r.pub.ordersOf(org) != pushes+1 {
			t.Fatalf("finishing pushed no orders event")
		}
		d = r.alarmDetail(t, a, "en-US")
		if d.OpenOrder != nil || len(d.Orders) != 1 || d.Orders[0].Status != workorder.Finished || d.Orders[0].Open {
			t.Fatalf("finished order on the alarm: %+v %+v", d.OpenOrder, d.Orders)
		}
		// Now another may be opened; the alarm lists both, newest first.
		r.clock.Add(time.Minute)
		o2 := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add", fmt.Sprintf(`{"alarmId":%d,"title":"Check again","priority":2,%s}`, a, r.plan(8)), 200))
		d = r.alarmDetail(t, a, "zh-CN")
		if len(d.Orders) != 2 || d.Orders[0].ID != o2.ID || d.Orders[0].Title != "Check again" || d.OpenOrder == nil || d.OpenOrder.ID != o2.ID {
			t.Fatalf("two orders on the alarm: %+v", d.Orders)
		}
		// A hand-written order keeps no device.
		h := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add", fmt.Sprintf(`{"title":"Fence","stationId":%d,"priority":2,%s}`, r.granted, r.plan(8)), 200))
		if h.DeviceID != 0 || h.DeviceSN != "" || h.AlarmID != 0 {
			t.Fatalf("hand-written order: %+v", h.Order)
		}
	})
}
