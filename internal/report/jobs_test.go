package report_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/report"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func quickParams(e *env) string {
	return fmt.Sprintf(`{"params":{"selectionMode":"stations","stationIds":[%d],"template":"summary","period":"day","date":"2026-01-05",
		"language":"en-US","format":"csv","fileName":"restart","metrics":["yield"]}}`, e.a)
}

// A report whose renderer died (its lease ran out) is rendered by the next worker; a report
// queued before any worker ran is rendered when one starts; of two workers racing for the
// same report only one renders it.
func TestJobsSurviveRestartAndRunOnce(t *testing.T) { jobsRunOnce(t, newEnv(t, 0)) }

// The same on PostgreSQL, where replicas share the database.
func TestJobsSurviveRestartAndRunOnceOnPostgres(t *testing.T) {
	e := apitest.NewOn(t, storetest.Postgres(t))
	e.Fleet = demo.Fleet()
	if err := demo.SeedFleet(context.Background(), e.DB, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	jobsRunOnce(t, newEnvOn(t, e, 0))
}

func jobsRunOnce(t *testing.T, e *env) {
	ctx := context.Background()
	recs := e.Server.Reports.Records
	add := func() int64 {
		return data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/record/add", As: "admin", Body: quickParams(e)})).ID
	}
	crashed := add()
	// a replica claims it and dies before finishing: its lease is a millisecond
	if r, err := recs.Claim(ctx, "dead-replica", time.Millisecond); err != nil || r == nil || r.ID != crashed {
		t.Fatalf("claim: %v %v", r, err)
	}
	queued := add()
	time.Sleep(5 * time.Millisecond)

	// two fresh workers race for the work
	w1 := &report.Worker{Records: recs, Builder: e.Server.Reports.Worker.Builder, Blobs: e.Server.Reports.Blobs, Owner: "one"}
	w2 := &report.Worker{Records: recs, Builder: e.Server.Reports.Worker.Builder, Blobs: e.Server.Reports.Blobs, Owner: "two"}
	var wg sync.WaitGroup
	for _, w := range []*report.Worker{w1, w2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				did, err := w.RunOnce(ctx)
				if err != nil {
					t.Error(err)
				}
				if !did {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, id := range []int64{crashed, queued} {
		r, err := recs.Get(ctx, e.Accounts.OrgID, e.Accounts.AdminID, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != report.StatusDone || r.FileName != "restart.csv" {
			t.Errorf("record %d: %+v", id, r)
		}
		wantAttempts := 1
		if id == crashed {
			wantAttempts = 2
		}
		if r.Attempts != wantAttempts {
			t.Errorf("record %d rendered %d times, want %d", id, r.Attempts, wantAttempts)
		}
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM blobs WHERE kind = 'report'"); n != 2 {
		t.Errorf("%d report files stored, want 2", n)
	}
	// the dead replica's late finish is refused: the record is another's now
	if ok, _ := recs.Finish(ctx, crashed, "dead-replica", "x", "x.csv", 1); ok {
		t.Error("a stale renderer finished a record it no longer holds")
	}
}

func TestNextRun(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		sch       report.Schedule
		from, due string
	}{
		{report.Schedule{Frequency: "daily", Hour: 6, Timezone: "Asia/Tokyo"}, "2026-03-01T20:00:00Z", "2026-03-01T21:00:00Z"}, // 06:00 JST next day
		{report.Schedule{Frequency: "daily", Hour: 6, Timezone: "Asia/Tokyo"}, "2026-03-01T21:00:00Z", "2026-03-02T21:00:00Z"}, // strictly after
		{report.Schedule{Frequency: "weekly", Weekday: 1, Hour: 8, Timezone: "Europe/Madrid"}, "2026-03-04T12:00:00Z", "2026-03-09T07:00:00Z"},
		{report.Schedule{Frequency: "weekly", Weekday: 1, Hour: 8, Timezone: "Europe/Madrid"}, "2026-03-27T12:00:00Z", "2026-03-30T06:00:00Z"}, // after the DST change
		{report.Schedule{Frequency: "monthly", MonthDay: 1, Hour: 0, Timezone: "UTC"}, "2026-01-15T00:00:00Z", "2026-02-01T00:00:00Z"},
	}
	for _, c := range cases {
		if got := report.NextRun(c.sch, at(c.from)); !got.Equal(at(c.due)) {
			t.Errorf("%+v after %s: %s, want %s", c.sch, c.from, got.UTC().Format(time.RFC3339), c.due)
		}
	}
	if !report.NextRun(report.Schedule{Frequency: "none"}, time.Now()).IsZero() {
		t.Error("no schedule has a next run")
	}
	p, _ := report.RunPeriod(report.Schedule{Frequency: "monthly", Timezone: "Asia/Tokyo"}, at("2026-02-28T16:00:00Z")) // 1 March JST
	if p.Period != "month" || p.Date != "2026-02" {
		t.Errorf("monthly run on 1 March reports %+v", p)
	}
	p, _ = report.RunPeriod(report.Schedule{Frequency: "weekly", Timezone: "UTC"}, at("2026-03-09T07:00:00Z"))
	if p.From != "2026-03-02" || p.To != "2026-03-08" {
		t.Errorf("weekly: %+v", p)
	}
}

// A due schedule is queued once however many replicas look, renders, and arrives in the
// owner's message centre with a link that downloads the file until it expires.
func TestScheduleDeliversToMessageCentre(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	body := fmt.Sprintf(`{"name":"Daily digest","shared":false,"config":{"params":{"selectionMode":"stations","stationIds":[%d],"template":"summary",
		"period":"","date":"","from":"","to":"","language":"ja-JP","format":"csv","fileName":"","stationInfo":false,"subsystemInfo":false,"deviceInfo":false,
		"metrics":["yield","pr"]},"schedule":{"frequency":"daily","hour":6,"weekday":0,"monthDay":0,"timezone":"Asia/Tokyo"}}}`, e.a)
	tpl := data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/template/add", As: "admin", Body: body}))
	if n := e.Count(t, "SELECT COUNT(*) FROM report_templates WHERE id = ? AND next_run_at > ?", tpl.ID, time.Now().UnixMilli()); n != 1 {
		t.Fatal("the schedule has no next run")
	}
	// the run falls due
	if _, err := e.DB.Exec(ctx, "UPDATE report_templates SET next_run_at = ? WHERE id = ?", time.Now().Add(-time.Minute).UnixMilli(), tpl.ID); err != nil {
		t.Fatal(err)
	}
	var total int
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 3 { // three replicas look at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := e.Server.Reports.RunDue(ctx)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 1 {
		t.Fatalf("queued %d runs, want 1", total)
	}
	if _, err := e.Server.Reports.Worker.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	// the message centre shows it, translated for the reader
	msgs := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/message/list?messageType=system", As: "admin", Headers: map[string]string{"Accept-Language": "ja-JP"}})
	content := msgs.Body
	if !strings.Contains(content, "レポート作成完了：Daily digest") {
		t.Errorf("message: %s", content)
	}
	i := strings.Index(content, "/v2/report/file/")
	if i < 0 {
		t.Fatalf("no link in %s", content)
	}
	link := content[i : i+len("/v2/report/file/")+48]
	r := e.Do(t, apitest.Scenario{Method: "GET", URL: link}) // no session: the link is the key
	if r.Status != 200 || !strings.Contains(r.Body, "発電レポート") {
		t.Fatalf("link: %d %.200s", r.Status, r.Body)
	}
	if _, err := e.DB.Exec(ctx, "UPDATE report_links SET expires_at = ?", time.Now().Add(-time.Second).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "expired link", Method: "GET", URL: link, Status: 404},
		{Name: "made-up link", Method: "GET", URL: "/v2/report/file/" + strings.Repeat("ab", 24), Status: 404},
	})
}

func TestReportRefusals(t *testing.T) {
	e := newEnv(t, 0)
	var other int64
	_ = e.DB.QueryRow(context.Background(), "SELECT id FROM stations WHERE org_id <> ? AND parent_id IS NULL", e.Accounts.OrgID).Scan(&other)
	rec := data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/record/add", As: "admin", Body: quickParams(e)}))
	bad := func(field, from, to string) apitest.Scenario {
		return apitest.Scenario{Name: "bad " + field, Method: "POST", URL: "/v2/report/record/add", As: "admin", Status: 400,
			Body: strings.Replace(quickParams(e), from, to, 1), Contains: []string{`"` + field + `"`}}
	}
	e.Run(t, []apitest.Scenario{
		bad("stationIds", fmt.Sprintf("[%d]", e.a), fmt.Sprintf("[%d]", other)),
		bad("format", `"csv"`, `"docx"`),
		bad("language", `"en-US"`, `"fr-FR"`),
		bad("metrics", `["yield"]`, `["luck"]`),
		bad("metrics", `["yield"]`, `[]`),
		bad("fileName", `"restart"`, `"../../etc/passwd"`),
		bad("date", `"2026-01-05"`, `"yesterday"`),
		bad("selectionMode", `"stations"`, `"some"`),
		{Name: "another user's record", Method: "GET", URL: fmt.Sprintf("/v2/report/record/detail/get/%d", rec.ID), As: "operator", Status: 404},
		{Name: "another organisation's record", Method: "GET", URL: fmt.Sprintf("/v2/report/record/download/%d", rec.ID), As: "other", Status: 404},
		{Name: "not rendered yet", Method: "GET", URL: fmt.Sprintf("/v2/report/record/download/%d", rec.ID), As: "admin", Status: 409},
		{Name: "bad schedule", Method: "POST", URL: "/v2/report/template/add", As: "admin", Status: 400, Contains: []string{`"schedule.timezone"`, `"schedule.hour"`},
			Body: `{"name":"x","config":{"params":{"selectionMode":"all","template":"summary","language":"en-US","format":"pdf","metrics":["yield"]},
				"schedule":{"frequency":"daily","hour":25,"timezone":"Mars/Olympus"}}}`},
	})
}

// A schedule that names no time zone keeps the organisation's.
func TestScheduleKeepsTheOrganisationsZone(t *testing.T) {
	e := newEnv(t, 0)
	body := fmt.Sprintf(`{"name":"Weekly","shared":false,"config":{"params":{"selectionMode":"stations","stationIds":[%d],"template":"summary",
		"period":"","date":"","from":"","to":"","language":"en-US","format":"csv","fileName":"","stationInfo":false,"subsystemInfo":false,"deviceInfo":false,
		"metrics":["yield"]},"schedule":{"frequency":"weekly","hour":6,"weekday":1,"monthDay":0,"timezone":""}}}`, e.a)
	tpl := data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/template/add", As: "admin", Body: body}))
	var config string
	if err := e.DB.QueryRow(context.Background(), "SELECT config FROM report_templates WHERE id = ?", tpl.ID).Scan(&config); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(config, `"timezone":"Asia/Shanghai"`) {
		t.Fatalf("stored schedule: %s", config)
	}
}

// The spec's edit call names the template in the body; the path's call is the same call.
func TestTemplateEditWithTheIDInTheBody(t *testing.T) {
	e := newEnv(t, 0)
	tail := fmt.Sprintf(`"shared":false,"config":{"params":{"selectionMode":"stations","stationIds":[%d],"template":"summary",
		"period":"month","date":"2026-01","language":"en-US","format":"csv","metrics":["yield"]},"schedule":{"frequency":"none","hour":0,"weekday":0,"monthDay":0,"timezone":""}}}`, e.a)
	tpl := data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/template/add", As: "admin", Body: `{"name":"Daily",` + tail}))
	e.Run(t, []apitest.Scenario{
		{Name: "rename by body", Method: "POST", URL: "/v2/report/template/edit", As: "admin", Status: 200,
			Body: fmt.Sprintf(`{"uid":%d,"name":"Daily, renamed",`, tpl.ID) + tail},
		{Name: "the list shows it", Method: "GET", URL: "/v2/report/template/list", As: "admin", Status: 200, Contains: []string{`"Daily, renamed"`}},
		{Name: "no id", Method: "POST", URL: "/v2/report/template/edit", As: "admin", Status: 400, Contains: []string{`"uid"`},
			Body: `{"name":"Nobody",` + tail},
		{Name: "another organisation's", Method: "POST", URL: "/v2/report/template/edit", As: "other", Status: 404,
			Body: fmt.Sprintf(`{"uid":%d,"name":"Theirs",`, tpl.ID) + tail},
	})
}
