package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/report"
)

func data[T any](t *testing.T, r *apitest.Result) T {
	t.Helper()
	var v T
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Env.Data, &v); err != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	return v
}

type env struct {
	*apitest.Env
	a, b  int64 // two stations of the demo organisation; b has storage
	month string
}

func newEnv(t *testing.T, days int) *env { return newEnvOn(t, apitest.NewWithFleet(t), days) }

func newEnvOn(t *testing.T, e *apitest.Env, days int) *env {
	now := time.Now().UTC().Truncate(time.Minute)
	if days > 0 {
		e.Simulate(t, now.AddDate(0, 0, -days), now)
	}
	v := &env{Env: e, month: now.AddDate(0, -1, 0).Format("2006-01")}
	ctx := context.Background()
	_ = e.DB.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE parent_id IS NULL AND org_id = ? AND system_type = 'pv'", e.Accounts.OrgID).Scan(&v.a)
	_ = e.DB.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE parent_id IS NULL AND org_id = ? AND system_type = 'pv_storage'", e.Accounts.OrgID).Scan(&v.b)
	return v
}

// render asks for a report as admin and runs the worker until it is done.
func (e *env) render(t *testing.T, params string) (*report.Record, []byte) {
	t.Helper()
	saved := data[analysis.Saved](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/report/record/add", As: "admin", Body: params}))
	for i := 0; i < 5; i++ {
		if _, err := e.Server.Reports.Worker.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	rec := data[report.Record](t, e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/report/record/detail/get/%d", saved.ID), As: "admin"}))
	if rec.Status != report.StatusDone || rec.Progress != 1 {
		t.Fatalf("record %+v", rec)
	}
	r := e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/report/record/download/%d", saved.ID), As: "admin"})
	if r.Status != 200 {
		t.Fatalf("download: %d %s", r.Status, r.Body)
	}
	return &rec, []byte(r.Body)
}

func (e *env) overview(t *testing.T, id int64) analysis.Overview {
	return data[analysis.Overview](t, e.Do(t, apitest.Scenario{Method: "GET", As: "admin",
		URL: fmt.Sprintf("/v2/analysis/overview?scope=station&id=%d&period=month&date=%s", id, e.month)}))
}

func params(e *env, format, lang, layout string) string {
	return fmt.Sprintf(`{"params":{"selectionMode":"stations","stationIds":[%d,%d],"template":%q,"period":"month","date":%q,"language":%q,
		"format":%q,"fileName":"","stationInfo":true,"subsystemInfo":true,"deviceInfo":true,
		"metrics":["yield","specificYield","pr","prTemp","availability","co2","revenue","expected","selfConsumption","autarky"]}}`,
		e.a, e.b, layout, e.month, lang, format)
}

var metrics = []string{"yield", "specificYield", "pr", "prTemp", "availability", "co2", "revenue", "expected", "selfConsumption", "autarky"}

// want is a station's figures in the metric order, nil where not computable.
func want(o analysis.Overview) []*float64 {
	out := make([]*float64, len(metrics))
	for i, m := range metrics {
		out[i] = analysis.Metric(o.KPIs, m)
	}
	return out
}

var gap = regexp.MustCompile(`\s{2,}`)

func TestReportFilesEqualRollups(t *testing.T) {
	e := newEnv(t, 40)
	oa, ob := e.overview(t, e.a), e.overview(t, e.b)
	byName := map[string][]*float64{oa.Name: want(oa), ob.Name: want(ob)}
	check := func(where, name string, cells []string, tol float64) {
		t.Helper()
		w := byName[name]
		for i, v := range w {
			c := strings.TrimSpace(cells[i])
			if v == nil {
				if c != "" && c != "–" {
					t.Errorf("%s %s %s: %q, want empty", where, name, metrics[i], c)
				}
				continue
			}
			got, err := strconv.ParseFloat(c, 64)
			if err != nil || math.Abs(got-*v) > tol {
				t.Errorf("%s %s %s: %q, want %v", where, name, metrics[i], c, *v)
			}
		}
	}

	t.Run("xlsx", func(t *testing.T) {
		_, body := e.render(t, params(e, "xlsx", "en-US", "detail"))
		f, err := excelize.OpenReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("Summary")
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, r := range rows {
			if len(r) > 0 && byName[r[0]] != nil {
				check("xlsx", r[0], append(r[1:], make([]string, len(metrics))...), 1e-9)
				seen++
			}
		}
		if seen != 2 {
			t.Errorf("%d station rows in %v", seen, rows)
		}
		detail, _ := f.GetRows("Detail")
		var sum float64
		for _, r := range detail {
			if len(r) > 2 && r[0] == oa.Name {
				v, _ := strconv.ParseFloat(r[2], 64)
				sum += v
			}
		}
		if math.Abs(sum-oa.KPIs.YieldKWh) > 1e-6 {
			t.Errorf("detail days add to %v, month %v", sum, oa.KPIs.YieldKWh)
		}
		if list := f.GetSheetList(); len(list) != 5 {
			t.Errorf("sheets %v", list)
		}
	})

	t.Run("csv", func(t *testing.T) {
		_, body := e.render(t, params(e, "csv", "ja-JP", "summary"))
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\ufeff"))))
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(recs[0][0], "発電レポート") {
			t.Errorf("title %q", recs[0][0])
		}
		seen := 0
		for _, rec := range recs {
			if len(rec) == len(metrics)+2 && byName[rec[0]] != nil {
				check("csv", rec[0], rec[1:], 1e-9)
				seen++
			}
		}
		if seen != 2 {
			t.Errorf("%d station rows", seen)
		}
	})

	t.Run("pdf in every language", func(t *testing.T) {
		if _, err := exec.LookPath("pdftotext"); err != nil {
			t.Fatal("pdftotext (poppler-utils) is needed: make fonts installs it")
		}
		dir := t.TempDir()
		for _, lang := range report.Languages {
			_, body := e.render(t, params(e, "pdf", lang, "detail"))
			path := filepath.Join(dir, lang+".pdf")
			if err := os.WriteFile(path, body, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			text := string(out)
			// every translated text the report draws comes back out: no glyph is missing
			for _, key := range []string{"rpt.m.yield", "rpt.m.autarky", "rpt.sheet.summary", "rpt.chart.energy", "rpt.stationInfo", "rpt.deviceInfo", "rpt.total"} {
				if s := httpapi.T(lang, key); !strings.Contains(text, s) {
					t.Errorf("%s: %q missing from the PDF text", lang, s)
				}
			}
			if title := httpapi.T(lang, "rpt.title", "X", "Y"); !strings.Contains(text, strings.Fields(title)[0]) {
				t.Errorf("%s: title missing", lang)
			}
			// the station rows of the summary carry the same numbers, rounded to two places
			seen := 0
			for name := range byName {
				for _, line := range strings.Split(text, "\n") {
					cells := gap.Split(strings.TrimSpace(line), -1)
					if len(cells) != len(metrics)+2 || cells[0] != name {
						continue
					}
					check("pdf "+lang, name, cells[1:], 0.005+1e-9)
					seen++
					break
				}
			}
			if seen != 2 {
				t.Errorf("%s: %d station rows found", lang, seen)
			}
			if lang == "ja-JP" {
				_ = os.WriteFile(filepath.Join(os.TempDir(), "helio-report-ja-JP.pdf"), body, 0o600)
			}
		}
	})
}
