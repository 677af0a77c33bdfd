package analysis_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
)

func TestCompare(t *testing.T) {
	f := newFleetEnv(t)
	var a, b int64
	for _, id := range f.ids {
		if id != f.other && a == 0 {
			a = id
		} else if id != f.other && b == 0 {
			b = id
		}
	}
	overview := func(id int64) analysis.Overview {
		return data[analysis.Overview](t, f.Do(t, apitest.Scenario{Method: "GET", As: "admin",
			URL: fmt.Sprintf("/v2/analysis/overview?scope=station&id=%d&period=month&date=%s", id, f.month)}))
	}
	run := func(body string) analysis.CompareResult {
		return data[analysis.CompareResult](t, f.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/compare/run", As: "admin", Body: body}))
	}
	two := run(fmt.Sprintf(`{"mode":"stations","metric":"yield","stationIds":[%d,%d],"period":"month","date":%q}`, a, b, f.month))
	if len(two.Series) != 2 || len(two.Labels) < 28 {
		t.Fatalf("two stations: %+v", two)
	}
	for _, id := range []int64{a, b} {
		o := overview(id)
		i := 0 // series come in station-name order
		if two.Series[1].Name == o.Name {
			i = 1
		}
		if two.Series[i].Name != o.Name {
			t.Fatalf("no series for %s in %v, %v", o.Name, two.Series[0].Name, two.Series[1].Name)
		}
		if two.Series[i].Total == nil || !near(*two.Series[i].Total, o.KPIs.YieldKWh) {
			t.Errorf("station %d: compare %v, overview %v", id, two.Series[i].Total, o.KPIs.YieldKWh)
		}
		var sum float64
		for _, v := range two.Series[i].Values {
			if v != nil {
				sum += *v
			}
		}
		if !near(sum, o.KPIs.YieldKWh) {
			t.Errorf("station %d: daily values add to %v, overview %v", id, sum, o.KPIs.YieldKWh)
		}
	}
	med := run(fmt.Sprintf(`{"mode":"median","metric":"specificYield","stationIds":[%d],"period":"month","date":%q}`, a, f.month))
	if len(med.Series) != 2 || med.Series[1].Name != "median" || med.Series[1].Total == nil {
		t.Errorf("median: %+v", med)
	}
	y := time.Now().Year()
	ytd := run(fmt.Sprintf(`{"mode":"yearToDate","metric":"yield","years":[%d,%d]}`, y-1, y))
	if len(ytd.Series) != 2 || ytd.Series[1].Name != strconv.Itoa(y) || ytd.Labels[0] != "01" {
		t.Errorf("year to date: %+v", ytd)
	}

	// templates: private by default, shared on request; only the owner (or an administrator
	// for a shared one) changes them; another organisation never sees them
	cfg := fmt.Sprintf(`{"mode":"stations","metric":"pr","stationIds":[%d,%d],"period":"month","date":%q}`, a, b, f.month)
	priv := data[analysis.Saved](t, f.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/compare/template/add", As: "admin",
		Body: `{"name":"Private","config":` + cfg + `}`}))
	shared := data[analysis.Saved](t, f.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/compare/template/add", As: "admin",
		Body: `{"name":"Shared","shared":true,"config":` + cfg + `}`}))
	got := data[analysis.CompareResult](t, f.Do(t, apitest.Scenario{Method: "GET", As: "admin", URL: fmt.Sprintf("/v2/compare/data/%d", priv.ID)}))
	if len(got.Series) != 2 || got.Metric != "pr" || got.Unit != "%" {
		t.Errorf("template data: %+v", got)
	}
	f.Run(t, []apitest.Scenario{
		{Name: "owner lists both", Method: "GET", URL: "/v2/compare/list", As: "admin", Status: 200, Contains: []string{`"Private"`, `"Shared"`}},
		{Name: "colleague sees only the shared one", Method: "GET", URL: "/v2/compare/list", As: "operator", Status: 200,
			Contains: []string{`"Shared"`}, NotContains: []string{`"Private"`}},
		{Name: "colleague cannot run the private one", Method: "GET", URL: fmt.Sprintf("/v2/compare/data/%d", priv.ID), As: "operator", Status: 404},
		{Name: "colleague cannot change the shared one", Method: "POST", URL: fmt.Sprintf("/v2/compare/template/edit/%d", shared.ID), As: "operator",
			Body: `{"name":"Mine now","config":` + cfg + `}`, Status: 403},
		{Name: "other organisation", Method: "GET", URL: fmt.Sprintf("/v2/compare/data/%d", shared.ID), As: "other", Status: 404},
		{Name: "other organisation's station in a template", Method: "POST", URL: "/v2/compare/template/add", As: "admin", Status: 400,
			Body:     fmt.Sprintf(`{"name":"x","config":{"mode":"stations","metric":"pr","stationIds":[%d,%d],"period":"month","date":%q}}`, a, f.other, f.month),
			Contains: []string{`"stationIds"`}},
		{Name: "one station is no comparison", Method: "POST", URL: "/v2/compare/run", As: "admin", Status: 400, Contains: []string{`"stationIds"`},
			Body: fmt.Sprintf(`{"mode":"stations","metric":"pr","stationIds":[%d],"period":"month","date":%q}`, a, f.month)},
		{Name: "unknown metric", Method: "POST", URL: "/v2/compare/run", As: "admin", Status: 400, Contains: []string{`"metric"`},
			Body: fmt.Sprintf(`{"mode":"stations","metric":"luck","stationIds":[%d,%d],"period":"month","date":%q}`, a, b, f.month)},
		{Name: "nameless template", Method: "POST", URL: "/v2/compare/template/add", As: "admin", Status: 400, Contains: []string{`"name"`},
			Body: `{"name":" ","config":` + cfg + `}`},
		{Name: "owner renames", Method: "POST", URL: fmt.Sprintf("/v2/compare/template/edit/%d", priv.ID), As: "admin", Status: 200,
			Body: `{"name":"Renamed","config":` + cfg + `}`},
		{Name: "owner renames, the id in the body (the spec's shape)", Method: "POST", URL: "/v2/compare/template/edit", As: "admin", Status: 200,
			Body: fmt.Sprintf(`{"uid":%d,"name":"Renamed again","config":`, priv.ID) + cfg + `}`},
		{Name: "the new name lists", Method: "GET", URL: "/v2/compare/list", As: "admin", Status: 200, Contains: []string{`"Renamed again"`}},
		{Name: "no id in the body", Method: "POST", URL: "/v2/compare/template/edit", As: "admin", Status: 400, Contains: []string{`"uid"`},
			Body: `{"name":"Nobody","config":` + cfg + `}`},
		{Name: "colleague cannot change the shared one by body either", Method: "POST", URL: "/v2/compare/template/edit", As: "operator", Status: 403,
			Body: fmt.Sprintf(`{"uid":%d,"name":"Mine now","config":`, shared.ID) + cfg + `}`},
		{Name: "other organisation's by body", Method: "POST", URL: "/v2/compare/template/edit", As: "other", Status: 404,
			Body: fmt.Sprintf(`{"uid":%d,"name":"Theirs","config":`, shared.ID) + cfg + `}`},
		{Name: "owner deletes", Method: "POST", URL: fmt.Sprintf("/v2/compare/template/delete/%d", priv.ID), As: "admin", Status: 200},
		{Name: "deleted is gone", Method: "GET", URL: fmt.Sprintf("/v2/compare/data/%d", priv.ID), As: "admin", Status: 404},
	})
}
