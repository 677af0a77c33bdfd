package alarm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/telemetry"
)

// apiRig is an API test server that serves the sign-in calls and this package's calls
// on the test's clock (whatever else the server wires).
type apiRig struct {
	*rig
	e *apitest.Env
}

func newAPIRig(t *testing.T, at time.Time) *apiRig {
	t.Helper()
	e := apitest.NewWithFleet(t)
	ids, err := demo.DeviceIDs(context.Background(), e.DB)
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: at}
	pub := &recorder{}
	msgs := &message.Store{DB: e.DB, Now: c.Now, Pub: pub}
	r := &rig{db: e.DB, acc: e.Accounts, fleet: e.Fleet, ids: ids, clock: c, msgs: msgs, pub: pub,
		eng: alarm.NewEngine(e.DB, alarm.Options{Now: c.Now, Messages: msgs})}
	api := httpapi.New(e.Server.Sessions.Authenticate)
	e.Server.Auth.Routes(api)
	(&alarm.Service{Engine: r.eng}).Routes(api)
	(&message.Service{Store: msgs}).Routes(api)
	*e.Server.API = *api
	return &apiRig{rig: r, e: e}
}

// observeAt evaluates a sample while the clock stays where it is (alarms start at the
// sample's time, messages are dated now).
func (r *rig) observeAt(t testing.TB, s telemetry.Sample) {
	t.Helper()
	if err := r.eng.Observe(context.Background(), []telemetry.Sample{s}); err != nil {
		t.Fatal(err)
	}
}

// alarmID finds the alarm of a rule on a device.
func (r *rig) alarmID(t testing.TB, rule, deviceKey string) int64 {
	t.Helper()
	var id int64
	if err := r.db.QueryRow(context.Background(), "SELECT id FROM alarms WHERE rule_key = ? AND device_id = ?", rule, r.ids[deviceKey]).Scan(&id); err != nil {
		t.Fatalf("alarm %s on %s: %v", rule, deviceKey, err)
	}
	return id
}

// seedAlarms raises, shortly before now: a fault on a granted sub-station's inverter
// (occurring), an over-temperature on a station not granted to the operator
// (recovered), a battery fault on a storage unit, and a fault on the other
// organisation's station. Every station's local day is the same at all of them.
func (r *apiRig) seedAlarms(t *testing.T) (now time.Time) {
	now = r.clock.Now()
	dev := func(key string, at time.Time, status int, temp float64) telemetry.Sample {
		return telemetry.Sample{DeviceID: r.ids[key], Time: at, Status: status, ACVoltageV: 230, FrequencyHz: 50, TempC: temp}
	}
	r.observeAt(t, dev(grantedInv, now.Add(-4*time.Minute), telemetry.StatusFault, 30))
	r.observeAt(t, dev(notGrantedInv, now.Add(-3*time.Minute), telemetry.StatusOverTemp, 86))
	r.observeAt(t, dev(notGrantedInv, now.Add(-90*time.Second), telemetry.StatusStandby, 30))
	r.observeAt(t, dev("au-perth-1-ess", now.Add(-2*time.Minute), telemetry.StatusFault, 30))
	r.observeAt(t, dev(otherOrgInv, now.Add(-1*time.Minute), telemetry.StatusFault, 30))
	return now
}

// halfPast is hh:30 of the next UTC hour: every demo station's zone has a whole-hour
// offset, so minutes before it lie on the same local day everywhere.
func halfPast() time.Time {
	return time.Now().UTC().Truncate(time.Hour).Add(90 * time.Minute)
}

func data[T any](t *testing.T, r *apitest.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Env.Data, &v); err != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	return v
}

func total(n int) func(t *testing.T, r *apitest.Result) {
	return func(t *testing.T, r *apitest.Result) {
		t.Helper()
		if p := data[httpapi.Page[alarm.Alarm]](t, r); p.Total != int64(n) || len(p.List) != min(n, p.PageSize) {
			t.Fatalf("total %d (%d listed), want %d: %s", p.Total, len(p.List), n, r.Body)
		}
	}
}

func TestWarnAPI(t *testing.T) {
	r := newAPIRig(t, halfPast())
	now := r.seedAlarms(t)
	e := r.e
	a1 := r.alarmID(t, alarm.RuleInverterFault, grantedInv)
	a2 := r.alarmID(t, alarm.RuleOverTemp, notGrantedInv)
	a3 := r.alarmID(t, alarm.RuleInverterFault, otherOrgInv)
	a4 := r.alarmID(t, alarm.RuleBatteryFault, "au-perth-1-ess")
	granted := r.stationID(t, "cn-golmud")
	grantedSub := r.stationID(t, "cn-golmud-1")
	otherStation := r.stationID(t, "other-tw-tainan")
	otherDev := r.ids[otherOrgInv]
	day := now.UTC().Format("2006-01-02")
	shanghaiDay := now.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02")
	from := now.Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	to := now.Add(time.Hour).UTC().Format(time.RFC3339)

	e.Run(t, []apitest.Scenario{
		// the list, by authority
		{Name: "admin sees the demo organisation's alarms", Method: "GET", URL: "/v2/warn/listbysite", As: "admin", Status: 200, Check: total(3),
			NotContains: []string{"Other Solar", `"id":` + fmt.Sprint(a3) + `,`}},
		{Name: "operator sees only granted stations", Method: "GET", URL: "/v2/warn/listbysite", As: "operator", Status: 200, Check: total(1),
			Contains: []string{fmt.Sprintf(`"id":%d,`, a1), fmt.Sprintf(`"stationId":%d`, grantedSub), `"parentStationId":` + fmt.Sprint(granted)}},
		{Name: "other organisation sees only its own", Method: "GET", URL: "/v2/warn/listbysite", As: "other", Status: 200, Check: total(1),
			Contains: []string{fmt.Sprintf(`"id":%d,`, a3)}},
		{Name: "not signed in", Method: "GET", URL: "/v2/warn/listbysite", Status: 401},
		// filters
		{Name: "occurring", Method: "GET", URL: "/v2/warn/listbysite?alarmStatus=1", As: "admin", Status: 200, Check: total(2)},
		{Name: "recovered", Method: "GET", URL: "/v2/warn/listbysite?alarmStatus=2", As: "admin", Status: 200, Check: total(1),
			Contains: []string{`"alarmStatus":2`, `"recoveryTime":"`}},
		{Name: "faults", Method: "GET", URL: "/v2/warn/listbysite?level=2", As: "admin", Status: 200, Check: total(2)},
		{Name: "device alarms", Method: "GET", URL: "/v2/warn/listbysite?type=1", As: "admin", Status: 200, Check: total(3)},
		{Name: "data alarms", Method: "GET", URL: "/v2/warn/listbysite?type=2", As: "admin", Status: 200, Check: total(0)},
		{Name: "device type by name", Method: "GET", URL: "/v2/warn/listbysite?deviceType=storage", As: "admin", Status: 200, Check: total(1)},
		{Name: "device type by number", Method: "GET", URL: "/v2/warn/listbysite?deviceType=1", As: "admin", Status: 200, Check: total(2)},
		{Name: "unprocessed", Method: "GET", URL: "/v2/warn/listbysite?dealStatus=0", As: "admin", Status: 200, Check: total(3)},
		{Name: "rule", Method: "GET", URL: "/v2/warn/listbysite?rule=over_temperature", As: "admin", Status: 200, Check: total(1)},
		{Name: "a station counts its sub-stations", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbysite?stationId=%d", granted), As: "admin", Status: 200, Check: total(1)},
		{Name: "time range", Method: "GET", URL: "/v2/warn/listbysite?from=" + url.QueryEscape(from) + "&to=" + url.QueryEscape(to), As: "admin", Status: 200, Check: total(3)},
		{Name: "time range before", Method: "GET", URL: "/v2/warn/listbysite?from=2020-01-01&to=2020-01-31", As: "admin", Status: 200, Check: total(0)},
		{Name: "paging", Method: "GET", URL: "/v2/warn/listbysite?page=2&pageSize=2", As: "admin", Status: 200,
			Contains: []string{`"total":3`, `"page":2`, `"pageSize":2`}},
		{Name: "translated description", Method: "GET", URL: "/v2/warn/listbysite?rule=inverter_fault", As: "admin", Headers: map[string]string{"Accept-Language": "zh-CN"},
			Status: 200, Contains: []string{"逆变器报告故障并已停机", `"ruleName":"逆变器故障"`}},
		// bad filters, each named
		{Name: "bad deal status", Method: "GET", URL: "/v2/warn/listbysite?dealStatus=5", As: "admin", Status: 400, Contains: []string{`"dealStatus":"Must be one of: -1, 0, 1"`}},
		{Name: "bad alarm status", Method: "GET", URL: "/v2/warn/listbysite?alarmStatus=3", As: "admin", Status: 400, Contains: []string{`"alarmStatus"`}},
		{Name: "bad level", Method: "GET", URL: "/v2/warn/listbysite?level=high", As: "admin", Status: 400, Contains: []string{`"level"`}},
		{Name: "bad type", Method: "GET", URL: "/v2/warn/listbysite?type=9", As: "admin", Status: 400, Contains: []string{`"type"`}},
		{Name: "bad device type", Method: "GET", URL: "/v2/warn/listbysite?deviceType=toaster", As: "admin", Status: 400, Contains: []string{`"deviceType"`}},
		{Name: "bad rule", Method: "GET", URL: "/v2/warn/listbysite?rule=nope", As: "admin", Status: 400, Contains: []string{`"rule"`}},
		{Name: "bad station id", Method: "GET", URL: "/v2/warn/listbysite?stationId=abc", As: "admin", Status: 400, Contains: []string{`"stationId":"Invalid format"`}},
		{Name: "bad from", Method: "GET", URL: "/v2/warn/listbysite?from=yesterday", As: "admin", Status: 400, Contains: []string{`"from":"Invalid format"`}},
		{Name: "reversed range", Method: "GET", URL: "/v2/warn/listbysite?from=2025-05-02&to=2025-05-01", As: "admin", Status: 400,
			Contains: []string{`"to":"Must not be before the start of the range"`}},
		{Name: "range too long", Method: "GET", URL: "/v2/warn/listbysite?from=2024-01-01&to=2025-06-01", As: "admin", Status: 400,
			Contains: []string{`"to":"The range may span at most 366 days"`}},
		{Name: "page size too big", Method: "GET", URL: "/v2/warn/listbysite?pageSize=500", As: "admin", Status: 400, Contains: []string{`"pageSize"`}},
		{Name: "several bad fields at once", Method: "GET", URL: "/v2/warn/listbysite?level=7&type=7", As: "admin", Status: 400,
			Contains: []string{`"level"`, `"type"`}},
		{Name: "another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbysite?stationId=%d", otherStation), As: "admin", Status: 404},
		{Name: "a station not granted to the operator", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbysite?stationId=%d", r.stationID(t, "za-stellenbosch")),
			As: "operator", Status: 404},
		{Name: "an unknown station", Method: "GET", URL: "/v2/warn/listbysite?stationId=999999", As: "admin", Status: 404},
		// by date
		{Name: "by date", Method: "GET", URL: "/v2/warn/listbydate?date=" + shanghaiDay + "&stationId=" + fmt.Sprint(granted), As: "admin", Status: 200, Check: total(1)},
		{Name: "by date, another day", Method: "GET", URL: "/v2/warn/listbydate?date=2020-02-02", As: "admin", Status: 200, Check: total(0)},
		{Name: "by date needs a date", Method: "GET", URL: "/v2/warn/listbydate", As: "admin", Status: 400, Contains: []string{`"date":"Required"`}},
		{Name: "by date, bad date", Method: "GET", URL: "/v2/warn/listbydate?date=2025-13-45", As: "admin", Status: 400, Contains: []string{`"date":"Invalid format"`}},
		// by device
		{Name: "by device", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbydev?deviceId=%d", r.ids[grantedInv]), As: "operator", Status: 200, Check: total(1)},
		{Name: "by device needs a device", Method: "GET", URL: "/v2/warn/listbydev", As: "admin", Status: 400, Contains: []string{`"deviceId":"Required"`}},
		{Name: "by device, bad id", Method: "GET", URL: "/v2/warn/listbydev?deviceId=-3", As: "admin", Status: 400, Contains: []string{`"deviceId"`}},
		{Name: "by device, another organisation's", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbydev?deviceId=%d", otherDev), As: "admin", Status: 404},
		{Name: "by device, not granted", Method: "GET", URL: fmt.Sprintf("/v2/warn/listbydev?deviceId=%d", r.ids[notGrantedInv]), As: "operator", Status: 404},
		// detail
		{Name: "detail", Method: "GET", URL: fmt.Sprintf("/v2/warn/detail/%d", a1), As: "operator", Status: 200,
			Contains: []string{`"rule":"inverter_fault"`, `"level":2`, `"type":1`, `"alarmStatus":1`, `"dealStatus":0`, `"deals":[]`, `"recoveryTime":null`,
				`"deviceSn":"`, `"startTime":"`, `"lastAlarmTime":"`, `"occurTime":"`}},
		{Name: "detail of another organisation's alarm", Method: "GET", URL: fmt.Sprintf("/v2/warn/detail/%d", a3), As: "admin", Status: 404},
		{Name: "detail of an alarm on a station not granted", Method: "GET", URL: fmt.Sprintf("/v2/warn/detail/%d", a2), As: "operator", Status: 404},
		{Name: "detail of an unknown alarm", Method: "GET", URL: "/v2/warn/detail/999999", As: "admin", Status: 404},
		{Name: "detail with a bad id", Method: "GET", URL: "/v2/warn/detail/abc", As: "admin", Status: 404},
	})

	// Deals: malformed bodies change nothing.
	deal := fmt.Sprintf("/v2/warn/deal/%d", a1)
	e.Run(t, []apitest.Scenario{
		{Name: "deal: not JSON", Method: "POST", URL: deal, As: "operator", Body: `{"reason":`, Status: 400},
		{Name: "deal: wrong content type", Method: "POST", URL: deal, As: "operator", Body: `reason=x`, ContentType: "text/plain", Status: 415},
		{Name: "deal: empty", Method: "POST", URL: deal, As: "operator", Body: `{}`, Status: 400,
			Contains: []string{`"reason":"Required"`, `"dealMethod":"Required"`}},
		{Name: "deal: blank reason", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"   ","dealMethod":2}`, Status: 400, Contains: []string{`"reason":"Required"`}},
		{Name: "deal: reason too long", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"` + strings.Repeat("x", 201) + `","dealMethod":2}`,
			Status: 400, Contains: []string{`"reason":"At most 200 characters"`}},
		{Name: "deal: unknown method", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"x","dealMethod":9}`, Status: 400, Contains: []string{`"dealMethod"`}},
		{Name: "deal: method as text", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"x","dealMethod":"reset"}`, Status: 400,
			Contains: []string{`"dealMethod":"Must be an integer"`}},
		{Name: "deal: unknown field", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"x","dealMethod":1,"status":1}`, Status: 400,
			Contains: []string{`"status":"Unknown field"`}},
		{Name: "deal: another organisation's alarm", Method: "POST", URL: fmt.Sprintf("/v2/warn/deal/%d", a3), As: "admin", Body: `{"reason":"x","dealMethod":1}`, Status: 404},
		{Name: "deal: an alarm on a station not granted", Method: "POST", URL: fmt.Sprintf("/v2/warn/deal/%d", a2), As: "operator", Body: `{"reason":"x","dealMethod":1}`, Status: 404},
		{Name: "deal: unknown alarm", Method: "POST", URL: "/v2/warn/deal/999999", As: "admin", Body: `{"reason":"x","dealMethod":1}`, Status: 404},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM alarm_deals"); n != 0 {
		t.Fatalf("refused deals stored %d rows", n)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE deal_status <> 0"); n != 0 {
		t.Fatalf("refused deals changed %d alarms", n)
	}
	countsBefore := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/message/counts", As: "admin"})
	e.Run(t, []apitest.Scenario{
		{Name: "deal", Method: "POST", URL: deal, As: "operator", Body: `{"reason":"Tripped on DC insulation; reset on site","dealMethod":2}`, Status: 200,
			Contains: []string{`"dealStatus":1`, `"reason":"Tripped on DC insulation; reset on site"`, `"dealMethod":2`, `"dealMethodName":"On-site repair"`,
				`"dealBy":"Oscar Operator"`, `"dealTime":"`, `"userName":"Oscar Operator"`}},
		{Name: "deal again: history kept", Method: "POST", URL: deal, As: "admin", Body: `{"reason":"Inverter replaced","dealMethod":3}`, Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				d := data[alarm.Detail](t, res)
				if len(d.Deals) != 2 || d.Deals[0].Reason != "Tripped on DC insulation; reset on site" || d.Deals[1].DealMethod != 3 || d.Reason != "Inverter replaced" {
					t.Fatalf("deal history: %+v", d.Deals)
				}
			}},
		{Name: "processed filter", Method: "GET", URL: "/v2/warn/listbysite?dealStatus=1", As: "admin", Status: 200, Check: total(1)},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM messages WHERE alarm_id = ? AND process_status = 'processed'", a1); n == 0 {
		t.Fatal("the alarm's messages were not marked processed")
	}
	countsAfter := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/message/counts", As: "admin"})
	if b, a := data[message.Counts](t, countsBefore), data[message.Counts](t, countsAfter); a.UnprocessedAlarm != b.UnprocessedAlarm-1 {
		t.Fatalf("unprocessed alarm messages %d → %d after a deal", b.UnprocessedAlarm, a.UnprocessedAlarm)
	}

	// Figures.
	e.Run(t, []apitest.Scenario{
		{Name: "daily info", Method: "GET", URL: "/v2/warn/dailyinfo", As: "admin", Status: 200,
			Contains: []string{`"total":3`, `"deviceAlarms":3`, `"dataAlarms":0`, `"processed":1`, `"unprocessed":2`, `"processRatio":33.3`, `"occurring":2`,
				`"byLevel":{"0":0,"1":1,"2":2}`}},
		{Name: "daily info for a station", Method: "GET", URL: fmt.Sprintf("/v2/warn/dailyinfo?stationId=%d", granted), As: "operator", Status: 200,
			Contains: []string{`"total":1`, `"processRatio":100`}},
		{Name: "daily info, other organisation", Method: "GET", URL: "/v2/warn/dailyinfo", As: "other", Status: 200, Contains: []string{`"total":1`, `"processed":0`}},
		{Name: "daily info, another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/warn/dailyinfo?stationId=%d", otherStation), As: "admin", Status: 404},
		{Name: "daily info, bad station", Method: "GET", URL: "/v2/warn/dailyinfo?stationId=x", As: "admin", Status: 400, Contains: []string{`"stationId"`}},
		{Name: "trend: 15 days by default", Method: "GET", URL: "/v2/warn/trendbydate", As: "admin", Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				if tr := data[alarm.Trend](t, res); len(tr.List) != 15 || tr.Type != "day" {
					t.Fatalf("default trend: %+v", tr)
				}
			}},
		{Name: "trend over the alarms' days", Method: "GET", URL: "/v2/warn/trendbydate?type=day&from=" + now.AddDate(0, 0, -2).UTC().Format("2006-01-02") +
			"&to=" + now.AddDate(0, 0, 2).UTC().Format("2006-01-02"), As: "admin", Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				tr := data[alarm.Trend](t, res)
				sum := alarm.TrendPoint{}
				for _, p := range tr.List {
					sum.Total += p.Total
					sum.DeviceAlarms += p.DeviceAlarms
					sum.Processed += p.Processed
				}
				if len(tr.List) != 5 || sum.Total != 3 || sum.DeviceAlarms != 3 || sum.Processed != 1 {
					t.Fatalf("trend: %+v", tr)
				}
			}},
		{Name: "trend by month", Method: "GET", URL: "/v2/warn/trendbydate?type=month", As: "admin", Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				if tr := data[alarm.Trend](t, res); len(tr.List) != 12 || tr.To != now.UTC().Format("2006-01") {
					t.Fatalf("monthly trend: %+v", tr)
				}
			}},
		{Name: "trend by year", Method: "GET", URL: "/v2/warn/trendbydate?type=year&from=2022&to=2025", As: "admin", Status: 200,
			Contains: []string{`"date":"2022"`, `"date":"2025"`}},
		{Name: "trend: bad type", Method: "GET", URL: "/v2/warn/trendbydate?type=week", As: "admin", Status: 400, Contains: []string{`"type":"Must be one of: day, month, year"`}},
		{Name: "trend: bad from", Method: "GET", URL: "/v2/warn/trendbydate?type=month&from=2025-13", As: "admin", Status: 400, Contains: []string{`"from"`}},
		{Name: "trend: reversed", Method: "GET", URL: "/v2/warn/trendbydate?from=2025-05-10&to=2025-05-01", As: "admin", Status: 400, Contains: []string{`"to":"Must not be before`}},
		{Name: "trend: too long", Method: "GET", URL: "/v2/warn/trendbydate?from=2000-01-01&to=2025-05-01", As: "admin", Status: 400,
			Contains: []string{`"to":"The range may span at most 366 days"`}},
		{Name: "trend: too many months", Method: "GET", URL: "/v2/warn/trendbydate?type=month&from=2000-01&to=2025-05", As: "admin", Status: 400,
			Contains: []string{`"to":"The range may span at most 120 months"`}},
		{Name: "trend: bad zone", Method: "GET", URL: "/v2/warn/trendbydate?tz=Mars/Base", As: "admin", Status: 400, Contains: []string{`"tz"`}},
		{Name: "type trend", Method: "GET", URL: "/v2/warn/typetrendbydate?from=" + now.AddDate(0, 0, -1).UTC().Format("2006-01-02") +
			"&to=" + now.AddDate(0, 0, 1).UTC().Format("2006-01-02"), As: "admin", Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				tr := data[alarm.TypeTrend](t, res)
				var inv, storage int
				for _, p := range tr.List {
					inv += p.Inverter
					storage += p.Storage
					if p.ID != p.Date {
						t.Fatalf("point id %q date %q", p.ID, p.Date)
					}
				}
				if inv != 2 || storage != 1 || len(tr.List) != 3 {
					t.Fatalf("type trend: %+v", tr)
				}
			}},
		{Name: "type trend, other organisation", Method: "GET", URL: "/v2/warn/typetrendbydate?type=year", As: "other", Status: 200,
			Check: func(t *testing.T, res *apitest.Result) {
				n := 0
				for _, p := range data[alarm.TypeTrend](t, res).List {
					n += p.Inverter + p.Battery + p.Storage + p.Meter + p.Collector
				}
				if n != 1 {
					t.Fatalf("other organisation's trend counts %d alarms", n)
				}
			}},
		{Name: "type trend: bad type", Method: "GET", URL: "/v2/warn/typetrendbydate?type=decade", As: "admin", Status: 400, Contains: []string{`"type"`}},
		// export
		{Name: "export", Method: "GET", URL: "/v2/warn/export?alarmStatus=0", As: "admin", Status: 200, Code: -1,
			Contains:    []string{"ID,Station,Device,Serial number", "Inverter fault", "Over-temperature", "Battery fault", "Recovered", "Processed", "Inverter replaced"},
			NotContains: []string{"Other Solar", "tw-tainan"},
			Check: func(t *testing.T, res *apitest.Result) {
				if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || res.Header.Get("X-Helio-Total") != "3" {
					t.Fatalf("export headers: %v", res.Header)
				}
				if lines := strings.Count(strings.TrimSpace(res.Body), "\n"); lines != 3 {
					t.Fatalf("export has %d rows", lines)
				}
			}},
		{Name: "export translated", Method: "GET", URL: "/v2/warn/export?deviceId=" + fmt.Sprint(r.ids[grantedInv]), As: "operator",
			Headers: map[string]string{"Accept-Language": "ja-JP"}, Status: 200, Code: -1, Contains: []string{"番号,発電所", "インバータ故障"}},
		{Name: "export, bad filter", Method: "GET", URL: "/v2/warn/export?dealStatus=7", As: "admin", Status: 400, Contains: []string{`"dealStatus"`}},
		{Name: "export, another organisation's device", Method: "GET", URL: fmt.Sprintf("/v2/warn/export?deviceId=%d", otherDev), As: "admin", Status: 404},
		{Name: "export, not signed in", Method: "GET", URL: "/v2/warn/export", Status: 401},
		{Name: "export by date", Method: "GET", URL: "/v2/warn/export?date=" + day + "&level=9", As: "admin", Status: 400, Contains: []string{`"level"`}},
	})
	_ = a4
}

func TestNotifySettingsAPI(t *testing.T) {
	r := newAPIRig(t, halfPast())
	e := r.e
	ok := `{"levels":[1,2],"frequency":"medium","dailyLimit":10,"methods":[1,2],"allowed":1,"timezone":"Asia/Shanghai"}`
	swap := func(k string, v any) string {
		var m map[string]any
		_ = json.Unmarshal([]byte(ok), &m)
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "defaults", Method: "GET", URL: "/v2/warn/notify/settings", As: "operator", Status: 200,
			Contains: []string{`"levels":[1,2]`, `"frequency":"high"`, `"dailyLimit":20`, `"methods":[1]`, `"allowed":1`, `"dailyLimitChoices":[2,10,20,50]`}},
		{Name: "levels required", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("levels", nil), Status: 400,
			Contains: []string{`"levels":"Choose at least one"`}},
		{Name: "levels empty", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("levels", []int{}), Status: 400, Contains: []string{`"levels"`}},
		{Name: "unknown level", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("levels", []int{1, 3}), Status: 400,
			Contains: []string{`"levels":"Must be one of: 0, 1, 2"`}},
		{Name: "bad frequency", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("frequency", "sometimes"), Status: 400,
			Contains: []string{`"frequency":"Must be one of: low, medium, high"`}},
		{Name: "limit zero", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("dailyLimit", 0), Status: 400, Contains: []string{`"dailyLimit"`}},
		{Name: "limit as text", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("dailyLimit", "ten"), Status: 400,
			Contains: []string{`"dailyLimit":"Must be an integer"`}},
		{Name: "no method", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("methods", []int{}), Status: 400, Contains: []string{`"methods"`}},
		{Name: "unknown method", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("methods", []int{4}), Status: 400, Contains: []string{`"methods"`}},
		{Name: "digest of 2 minutes", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("digestMinutes", 2), Status: 400, Contains: []string{`"digestMinutes"`}},
		{Name: "allowed missing", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("allowed", nil), Status: 400, Contains: []string{`"allowed":"Required"`}},
		{Name: "allowed 2", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("allowed", 2), Status: 400, Contains: []string{`"allowed"`}},
		{Name: "bad zone", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("timezone", "Mars/Base"), Status: 400, Contains: []string{`"timezone"`}},
		{Name: "unknown field", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: swap("sound", true), Status: 400, Contains: []string{`"sound":"Unknown field"`}},
		{Name: "not JSON", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: `[`, Status: 400},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM alarm_notify_settings"); n != 0 {
		t.Fatalf("refused settings stored %d rows", n)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "save", Method: "POST", URL: "/v2/warn/notify/settings", As: "operator", Body: ok, Status: 200,
			Contains: []string{`"levels":[1,2]`, `"frequency":"medium"`, `"dailyLimit":10`, `"methods":[1,2]`, `"timezone":"Asia/Shanghai"`}},
		{Name: "another number as the limit", Method: "POST", URL: "/v2/warn/notify/settings", As: "admin", Body: swap("dailyLimit", 7), Status: 200, Contains: []string{`"dailyLimit":7`}},
		{Name: "read back", Method: "GET", URL: "/v2/warn/notify/settings", As: "operator", Status: 200, Contains: []string{`"frequency":"medium"`}},
		{Name: "per user", Method: "GET", URL: "/v2/warn/notify/settings", As: "other", Status: 200, Contains: []string{`"frequency":"high"`}},
	})
}

func TestRulesAPI(t *testing.T) {
	r := newAPIRig(t, halfPast())
	e := r.e
	e.Run(t, []apitest.Scenario{
		{Name: "operator may not read rules", Method: "GET", URL: "/v2/warn/rules", As: "operator", Status: 403},
		{Name: "operator may not change rules", Method: "POST", URL: "/v2/warn/rules", As: "operator", Body: `{"rules":[{"key":"offline","level":2}]}`, Status: 403},
		{Name: "defaults", Method: "GET", URL: "/v2/warn/rules", As: "admin", Status: 200,
			Contains: []string{`"key":"offline"`, `"minutes":15`, `"key":"low_output"`, `"ratioPct":50`, `"specs":[`}},
		{Name: "no rules", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[]}`, Status: 400, Contains: []string{`"rules":"Required"`}},
		{Name: "unknown rule", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"meteor"}]}`, Status: 400, Contains: []string{`"rules[0].key"`}},
		{Name: "level out of range", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"offline","level":5}]}`, Status: 400,
			Contains: []string{`"rules[0].level"`}},
		{Name: "threshold out of range", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"offline","params":{"minutes":1}}]}`,
			Status: 400, Contains: []string{`"rules[0].params.minutes":"Must be between 5 and 1440"`}},
		{Name: "fractional count", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"low_output","params":{"samples":2.5}}]}`,
			Status: 400, Contains: []string{`"rules[0].params.samples"`}},
		{Name: "unknown threshold", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"offline","params":{"hours":1}}]}`,
			Status: 400, Contains: []string{`"rules[0].params.hours":"Unknown field"`}},
		{Name: "inverted band", Method: "POST", URL: "/v2/warn/rules", As: "admin",
			Body:   `{"rules":[{"key":"grid_fault","params":{"voltageLowPct":99,"voltageHighPct":101}}, {"key":"grid_fault","level":1}]}`,
			Status: 400, Contains: []string{`"rules[1].key":"Already in use"`}},
		{Name: "threshold as text", Method: "POST", URL: "/v2/warn/rules", As: "admin", Body: `{"rules":[{"key":"offline","params":{"minutes":"ten"}}]}`, Status: 400},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM alarm_rules"); n != 0 {
		t.Fatalf("refused changes stored %d rules", n)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "change", Method: "POST", URL: "/v2/warn/rules", As: "admin",
			Body: `{"rules":[{"key":"offline","params":{"minutes":30}},{"key":"string_loss","enabled":false,"level":0}]}`, Status: 200,
			Contains: []string{`"minutes":30`, `{"key":"string_loss","type":2,"enabled":false,"level":0`}},
		{Name: "other organisation keeps the defaults", Method: "GET", URL: "/v2/warn/rules", As: "other", Status: 200,
			Contains: []string{`"minutes":15`, `{"key":"string_loss","type":2,"enabled":true,"level":1`}},
	})
}

func TestMessageAPI(t *testing.T) {
	r := newAPIRig(t, halfPast())
	e := r.e
	ctx := context.Background()
	// A message from before the sessions began is not listed.
	r.clock.Set(time.Now().Add(-time.Hour))
	if _, err := r.msgs.Create(ctx, message.New{UserID: r.acc.AdminID, OrgID: r.acc.OrgID, Kind: message.KindSystem, Title: message.Plain("Old news")}); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(halfPast())
	r.seedAlarms(t)
	sys, err := r.msgs.Create(ctx, message.New{UserID: r.acc.AdminID, OrgID: r.acc.OrgID, Kind: message.KindWorkOrder, Title: message.Plain("Work order WO-17 assigned"),
		Content: message.Plain("Clean the strings of row 4"), ProcessStatus: "pending_accept", Priority: 3, RefID: 17})
	if err != nil {
		t.Fatal(err)
	}
	var otherMsg int64
	if err := r.db.QueryRow(ctx, "SELECT id FROM messages WHERE user_id = ?", r.acc.OtherID).Scan(&otherMsg); err != nil {
		t.Fatal(err)
	}
	var adminAlarmMsg int64
	if err := r.db.QueryRow(ctx, "SELECT MIN(id) FROM messages WHERE user_id = ? AND kind = 'alarm'", r.acc.AdminID).Scan(&adminAlarmMsg); err != nil {
		t.Fatal(err)
	}
	page := func(n int) func(t *testing.T, res *apitest.Result) {
		return func(t *testing.T, res *apitest.Result) {
			if p := data[httpapi.Page[message.Message]](t, res); p.Total != int64(n) {
				t.Fatalf("total %d, want %d: %s", p.Total, n, res.Body)
			}
		}
	}
	e.Run(t, []apitest.Scenario{
		// admin: three alarm messages (fault, over-temperature, battery) and a work order.
		{Name: "list", Method: "GET", URL: "/v2/message/list", As: "admin", Status: 200, Check: page(4),
			Contains:    []string{`"messageType":"alarm"`, `"title":"Inverter fault"`, `"type":"notice"`, `"status":0`, `"alarmId":`, `"processStatus":"pending"`, `"Work order WO-17 assigned"`, `"refId":17`},
			NotContains: []string{"Old news"}},
		{Name: "list by kind", Method: "GET", URL: "/v2/message/list?messageType=workorder", As: "admin", Status: 200, Check: page(1), Contains: []string{`"type":"todo"`, `"priority":3`}},
		{Name: "list translated", Method: "GET", URL: "/v2/message/list?messageType=alarm", As: "admin", Headers: map[string]string{"Accept-Language": "ko-KR"},
			Status: 200, Contains: []string{"인버터 고장"}},
		{Name: "operator: granted station only", Method: "GET", URL: "/v2/message/list", As: "operator", Status: 200, Check: page(1)},
		{Name: "other organisation: its own", Method: "GET", URL: "/v2/message/list", As: "other", Status: 200, Check: page(1), NotContains: []string{"Golmud", "WO-17"}},
		{Name: "bad kind", Method: "GET", URL: "/v2/message/list?messageType=spam", As: "admin", Status: 400, Contains: []string{`"messageType"`}},
		{Name: "bad status", Method: "GET", URL: "/v2/message/list?status=4", As: "admin", Status: 400, Contains: []string{`"status"`}},
		{Name: "counts", Method: "GET", URL: "/v2/message/counts", As: "admin", Status: 200, Contains: []string{`"unread":4`, `"unprocessedAlarm":3`}},
		{Name: "not signed in", Method: "GET", URL: "/v2/message/counts", Status: 401},
		// read
		{Name: "read: nothing named", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"ids":[]}`, Status: 400, Contains: []string{`"ids":"Required"`}},
		{Name: "read: ids and all", Method: "POST", URL: "/v2/message/read", As: "admin", Body: fmt.Sprintf(`{"ids":[%d],"all":true}`, sys[0].ID), Status: 400, Contains: []string{`"ids"`}},
		{Name: "read: another user's message", Method: "POST", URL: "/v2/message/read", As: "admin", Body: fmt.Sprintf(`{"ids":[%d,%d]}`, sys[0].ID, otherMsg),
			Status: 400, Contains: []string{fmt.Sprintf(`"ids":"Unknown ids: %d"`, otherMsg)}},
		{Name: "read: unknown id", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"ids":[99999999]}`, Status: 400, Contains: []string{`"ids":"Unknown ids: 99999999"`}},
		{Name: "read: ids as text", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"ids":"all"}`, Status: 400, Contains: []string{`"ids"`}},
		{Name: "read: too many", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"ids":[` + strings.Repeat("1,", 500) + `1]}`, Status: 400,
			Contains: []string{`"ids":"At most 500 items"`}},
		{Name: "read: not JSON", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"ids":[1`, Status: 400},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM messages WHERE status = 1"); n != 0 {
		t.Fatalf("refused reads changed %d messages", n)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "read one", Method: "POST", URL: "/v2/message/read", As: "admin", Body: fmt.Sprintf(`{"ids":[%d,%d]}`, sys[0].ID, sys[0].ID), Status: 200,
			Contains: []string{`"changed":1`, `"unread":3`, `"unprocessedAlarm":3`}},
		{Name: "read it again", Method: "POST", URL: "/v2/message/read", As: "admin", Body: fmt.Sprintf(`{"ids":[%d]}`, sys[0].ID), Status: 200, Contains: []string{`"changed":0`}},
		{Name: "unread only", Method: "GET", URL: "/v2/message/list?status=0", As: "admin", Status: 200, Check: page(3)},
		{Name: "the other user cannot read admin's", Method: "POST", URL: "/v2/message/read", As: "other", Body: fmt.Sprintf(`{"ids":[%d]}`, adminAlarmMsg), Status: 400},
		{Name: "read all", Method: "POST", URL: "/v2/message/read", As: "admin", Body: `{"all":true}`, Status: 200, Contains: []string{`"changed":3`, `"unread":0`}},
		{Name: "other's still unread", Method: "GET", URL: "/v2/message/counts", As: "other", Status: 200, Contains: []string{`"unread":1`}},
	})
	if n := r.count(t, "SELECT COUNT(*) FROM messages WHERE user_id = ? AND status = 1", r.acc.OtherID); n != 0 {
		t.Fatal("another user's message was marked read")
	}
	// A new session starts a fresh message centre: a message dated between the two
	// sign-ins is listed for the old session and not for the new one.
	time.Sleep(5 * time.Millisecond)
	tok := e.Login(t, "admin", demo.Password)
	var started int64
	if err := r.db.QueryRow(ctx, "SELECT created_at FROM sessions WHERE token_hash = ?", auth.HashToken(tok)).Scan(&started); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(time.UnixMilli(started - 2))
	if _, err := r.msgs.Create(ctx, message.New{UserID: r.acc.AdminID, OrgID: r.acc.OrgID, Kind: message.KindSystem, Title: message.Plain("Between the sessions")}); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "old session lists it", Method: "GET", URL: "/v2/message/list", As: "admin", Status: 200, Contains: []string{"Between the sessions"}},
		{Name: "new session does not", Method: "GET", URL: "/v2/message/list", Token: tok, Status: 200, NotContains: []string{"Between the sessions"},
			Check: page(4)},
		{Name: "new session counts", Method: "GET", URL: "/v2/message/counts", Token: tok, Status: 200, Contains: []string{`"unread":0`}},
	})
}

// TestOpenAPIDocumentsEveryCall checks that the calls of this area appear in the OpenAPI
// document with their parameters.
func TestOpenAPIDocumentsEveryCall(t *testing.T) {
	r := newAPIRig(t, halfPast())
	doc := r.e.Server.API.OpenAPI("test")
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/v2/warn/dailyinfo", "/v2/warn/trendbydate", "/v2/warn/typetrendbydate", "/v2/warn/detail/{uid}",
		"/v2/warn/listbysite", "/v2/warn/listbydate", "/v2/warn/listbydev", "/v2/warn/export", "/v2/warn/deal/{uid}",
		"/v2/warn/notify/settings", "/v2/warn/rules", "/v2/message/list", "/v2/message/counts", "/v2/message/read",
		`"name":"dealStatus"`, `"name":"deviceId"`, `"name":"date"`, `"DealInput"`, `"processRatio"`, `"unprocessedAlarm"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the OpenAPI document lacks %s", want)
		}
	}
}
