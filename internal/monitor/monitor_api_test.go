package monitor_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/monitor"
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

// demoFactors are the grid factors of the demo stations' countries (kg CO₂/kWh), as
// the Tools page lists them.
var demoFactors = map[string]float64{"CN": 0.57, "US": 0.37, "ES": 0.15, "AU": 0.66, "ZA": 0.93, "DE": 0.38,
	"JP": 0.45, "KR": 0.44, "TW": 0.49}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.01+1e-6*math.Abs(b) }

// One simulated fleet serves every check: the figures must agree with each other and
// with the station list, for each user's own view of the fleet.
func TestFleetFigures(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(t, now.Add(-50*24*time.Hour), now)

	for _, user := range []string{"admin", "operator", "other"} {
		t.Run(user, func(t *testing.T) {
			all := data[monitor.All](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: user}))
			list := data[struct {
				List []struct {
					DailyEnergyKwh float64 `json:"dailyEnergyKwh"`
					TotalEnergyKwh float64 `json:"totalEnergyKwh"`
					CurrentPowerKw float64 `json:"currentPowerKw"`
					CapacityKwp    float64 `json:"capacityKwp"`
					Country        string  `json:"country"`
				} `json:"list"`
				Total int `json:"total"`
			}](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/site/list?pageSize=200", As: user}))
			var day, total, power, cap, co2 float64
			for _, s := range list.List {
				day += s.DailyEnergyKwh
				total += s.TotalEnergyKwh
				co2 += s.TotalEnergyKwh * demoFactors[s.Country]
				power += s.CurrentPowerKw
				cap += s.CapacityKwp
			}
			if all.Stations != list.Total || !near(all.CapacityKWp, cap) {
				t.Fatalf("summary %d stations %.1f kWp, list %d stations %.1f kWp", all.Stations, all.CapacityKWp, list.Total, cap)
			}
			if !near(all.EnergyKWh.Day.Value, day) || !near(all.EnergyKWh.Total.Value, total) || !near(all.CurrentPowerKW, power) {
				t.Fatalf("summary day %.3f total %.3f power %.3f; list %.3f %.3f %.3f",
					all.EnergyKWh.Day.Value, all.EnergyKWh.Total.Value, all.CurrentPowerKW, day, total, power)
			}
			if all.EnergyKWh.Total.Value <= 0 || (user != "other" && all.EnergyKWh.Day.Previous <= 0) {
				t.Fatalf("50 days of a simulated fleet produced nothing: %+v", all.EnergyKWh)
			}
			// 50 days of history do not reach back to last year's 1 January: no comparison
			if all.EnergyKWh.Year.Previous != 0 || all.EnergyKWh.Year.Change != 0 || all.EnergyKWh.Year.Compare != monitor.CompareYear {
				t.Fatalf("a year without history compared: %+v", all.EnergyKWh.Year)
			}
			// CO₂ at each station's country factor
			if co2 == 0 || !near(all.CO2ReductionKg.Total.Value, co2) || !near(all.EmissionFactorKg, math.Round(co2/total*1000)/1000) {
				t.Fatalf("CO2 %.3f kg at %.3f kg/kWh, by country %.3f kg", all.CO2ReductionKg.Total.Value, all.EmissionFactorKg, co2)
			}
			if all.Devices == 0 || all.OnlineRatio <= 50 {
				t.Fatalf("devices %d online %.1f%%", all.Devices, all.OnlineRatio)
			}
			// The series add up to the period totals.
			for _, p := range []struct {
				name string
				want float64
			}{{"month", all.EnergyKWh.Month.Value}, {"year", all.EnergyKWh.Year.Value}, {"total", all.EnergyKWh.Total.Value}} {
				pd := data[monitor.PowerData](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/powerdata/" + p.name + "?tz=Asia/Shanghai", As: user}))
				var sum float64
				for _, pt := range pd.Points {
					sum += pt.PVKWh
				}
				if pd.Opening != nil { // the lifetime total: the energy before the history too
					if p.name != "total" {
						t.Fatalf("%s series has an opening", p.name)
					}
					sum += pd.Opening.PVKWh
				}
				if !near(sum, p.want) {
					t.Errorf("%s series sums to %.3f, summary says %.3f", p.name, sum, p.want)
				}
			}
		})
	}

	admin := data[monitor.All](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: "admin"}))
	op := data[monitor.All](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: "operator"}))
	if op.Stations != 3 || op.EnergyKWh.Total.Value >= admin.EnergyKWh.Total.Value {
		t.Fatalf("operator sees %d stations and %.0f kWh of admin's %.0f", op.Stations, op.EnergyKWh.Total.Value, admin.EnergyKWh.Total.Value)
	}
	// Profit per currency is kWh × (price + subsidy) of each station, never mixed.
	for _, m := range admin.Profit {
		if m.Currency == "" || m.Total <= 0 {
			t.Fatalf("profit %+v", m)
		}
	}

	// A station's months add up its days, on the station's own calendar.
	sts := data[struct {
		List []struct {
			ID       int64  `json:"id"`
			Timezone string `json:"timezone"`
		} `json:"list"`
	}](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/site/list?pageSize=1", As: "admin"}))
	st := sts.List[0]
	loc, _ := time.LoadLocation(st.Timezone)
	year := time.Now().In(loc).Year()
	months := data[struct {
		Unit   string       `json:"unit"`
		Points [][2]float64 `json:"points"`
	}](t, e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabyyear/%d?date=%d", st.ID, year), As: "admin"}))
	if months.Unit != "kWh" || len(months.Points) != int(time.Now().In(loc).Month()) {
		t.Fatalf("months of %d: %+v", year, months)
	}
	for _, p := range months.Points {
		start := time.UnixMilli(int64(p[0])).In(loc)
		if start.Day() != 1 || start.Hour() != 0 || start.Year() != year {
			t.Fatalf("a month starting %s in %s", start, st.Timezone)
		}
		days := data[struct {
			Points [][2]float64 `json:"points"`
		}](t, e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabymonth/%d?date=%s", st.ID, start.Format("2006-01")), As: "admin"}))
		var sum float64
		for _, d := range days.Points {
			sum += d[1]
		}
		if !near(sum, p[1]) {
			t.Errorf("%s: month %.3f kWh, its days %.3f", start.Format("2006-01"), p[1], sum)
		}
	}
	e.Run(t, []apitest.Scenario{
		{Name: "year energy wants a year", Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabyyear/%d?date=%d-01", st.ID, year), As: "admin", Status: 400, Contains: []string{`"date"`}},
		{Name: "year energy of the future", Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabyyear/%d?date=%d", st.ID, year+1), As: "admin", Status: 400, Contains: []string{`"date"`}},
		{Name: "year energy of another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabyyear/%d", st.ID), As: "other", Status: 404},
	})

	day := data[monitor.PowerData](t, e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/powerdata/day?tz=Europe/Madrid", As: "admin"}))
	if len(day.Points) < 23 || len(day.Points) > 25 || day.Timezone != "Europe/Madrid" {
		t.Fatalf("day series: %d points in %s", len(day.Points), day.Timezone)
	}

	e.Run(t, []apitest.Scenario{
		{Name: "bad timezone", Method: "GET", URL: "/v2/summary/powerdata/day?tz=Nowhere/City", As: "admin", Status: 400, Contains: []string{`"tz"`}},
		{Name: "summary needs a session", Method: "GET", URL: "/v2/summary/all", Status: 401},
		{Name: "top devices", Method: "GET", URL: "/v2/summary/topdevices", As: "admin", Status: 200, Check: func(t *testing.T, r *apitest.Result) {
			top := data[[]monitor.TopDevice](t, r)
			if len(top) != 6 || top[0].Rank != 1 {
				t.Fatalf("top: %+v", top)
			}
			for i := 1; i < len(top); i++ {
				if top[i].EquivalentHours > top[i-1].EquivalentHours {
					t.Fatalf("not ranked: %+v", top)
				}
			}
		}},
		{Name: "top devices of another organisation stay there", Method: "GET", URL: "/v2/summary/topdevices?limit=50", As: "other", Status: 200,
			NotContains: []string{e.Fleet.Stations[0].Name}},
		{Name: "bad limit", Method: "GET", URL: "/v2/summary/topdevices?limit=0", As: "admin", Status: 400, Contains: []string{`"limit"`}},
		{Name: "project ranking", Method: "GET", URL: "/v2/summary/projectranking", As: "operator", Status: 200, Contains: []string{`"rank":3`}, NotContains: []string{`"rank":4`}},
	})
}

type planOverview struct {
	Year             int     `json:"year"`
	PlanKWh          float64 `json:"planKwh"`
	ActualKWh        float64 `json:"actualKwh"`
	PlanToDateKWh    float64 `json:"planToDateKwh"`
	CompletionToDate float64 `json:"completionToDate"`
	Months           []struct {
		Month     int     `json:"month"`
		PlanKWh   float64 `json:"planKwh"`
		ActualKWh float64 `json:"actualKwh"`
	} `json:"months"`
	Stations []struct {
		Name          string
		PlanToDateKWh float64 `json:"planToDateKwh"`
	} `json:"stations"`
}

func TestWeatherAndPlans(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(t, now.Add(-3*24*time.Hour), now)
	if err := demo.SeedPlans(context.Background(), e.DB, e.Fleet, 1, now); err != nil {
		t.Fatal(err)
	}
	var first, otherOrg int64
	_ = e.DB.QueryRow(context.Background(), "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key).Scan(&first)
	_ = e.DB.QueryRow(context.Background(), "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[len(e.Fleet.Stations)-1].Key).Scan(&otherOrg)

	w := data[monitor.Weather](t, e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/weather/%d", first), As: "admin"}))
	if !w.Available || len(w.Code) != 3 || w.Key == "" || w.AirQuality < 1 || w.AirQuality > 6 {
		t.Fatalf("weather %+v", w)
	}
	year := now.Year()
	otherPlans := e.Count(t, "SELECT COUNT(*) FROM plans WHERE station_id = ?", otherOrg)
	e.Run(t, []apitest.Scenario{
		{Name: "weather of another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/site/weather/%d", otherOrg), As: "admin", Status: 404},
		{Name: "plan list", Method: "GET", URL: "/v2/plan/list", As: "admin", Status: 200, Check: func(t *testing.T, r *apitest.Result) {
			o := data[planOverview](t, r)
			var plan, actual float64
			for _, m := range o.Months {
				plan += m.PlanKWh
				actual += m.ActualKWh
			}
			if o.Year != year || len(o.Months) != 12 || len(o.Stations) != 9 || o.PlanKWh <= 0 || o.ActualKWh <= 0 ||
				!near(plan, o.PlanKWh) || !near(actual, o.ActualKWh) {
				t.Fatalf("plan overview %+v", o)
			}
			// the year so far against the plan so far: the months begun, the current one in part
			toDate := 0.0
			for _, st := range o.Stations {
				toDate += st.PlanToDateKWh
			}
			if o.PlanToDateKWh <= 0 || o.PlanToDateKWh >= o.PlanKWh || !near(toDate, o.PlanToDateKWh) ||
				!near(o.CompletionToDate, o.ActualKWh/o.PlanToDateKWh*100) {
				t.Fatalf("plan to date %.3f of %.3f (stations %.3f), completion to date %.3f", o.PlanToDateKWh, o.PlanKWh, toDate, o.CompletionToDate)
			}
		}},
		{Name: "operator's plans cover its stations only", Method: "GET", URL: "/v2/plan/list", As: "operator", Status: 200,
			NotContains: []string{e.Fleet.Stations[4].Name}},
		{Name: "bad year", Method: "GET", URL: "/v2/plan/list?year=1850", As: "admin", Status: 400, Contains: []string{`"year"`}},
		{Name: "a plan set directly is only a draft", Method: "POST", URL: "/v2/plan/buildlist/put", As: "admin",
			Body: fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[{"month":1,"planKwh":1234.5}]}`, first, year), Status: 200,
			Contains: []string{`"status":1`, `"months":[1234.5,`}},
		{Name: "the plan in force is unchanged until approved", Method: "GET", URL: fmt.Sprintf("/v2/plan/buildlist/get?stationId=%d&year=%d", first, year),
			As: "operator", Status: 200, Contains: []string{`{"month":12,`}, NotContains: []string{`1234.5`}},
		{Name: "operator cannot set plans", Method: "POST", URL: "/v2/plan/buildlist/put", As: "operator",
			Body: fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[{"month":1,"planKwh":1}]}`, first, year), Status: 403},
		{Name: "another organisation's station", Method: "POST", URL: "/v2/plan/buildlist/put", As: "admin",
			Body: fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[{"month":1,"planKwh":1}]}`, otherOrg, year), Status: 400, Contains: []string{`"stationId"`}},
		{Name: "month out of range and negative plan", Method: "POST", URL: "/v2/plan/buildlist/put", As: "admin",
			Body: fmt.Sprintf(`{"stationId":%d,"year":%d,"months":[{"month":13,"planKwh":-1}]}`, first, year), Status: 400,
			Contains: []string{`"months[0].month"`, `"months[0].planKwh"`}},
		{Name: "plan of another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/plan/get/%d", otherOrg), As: "operator", Status: 404},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM plans WHERE station_id = ?", otherOrg); n != otherPlans {
		t.Fatalf("a refused plan write landed: %d rows", n)
	}
}

func pngDataURL(t *testing.T, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestCoverUploadAndExports(t *testing.T) {
	e := apitest.NewWithFleet(t)
	dir := t.TempDir()
	e.Server.Cfg.DataDir = dir
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator", Body: `{"image":"` + pngDataURL(t, 400, 300) + `"}`})
	cover := data[struct{ URL string }](t, r)
	if !strings.HasPrefix(cover.URL, "/v2/site/cover/") {
		t.Fatalf("url %q", cover.URL)
	}
	big := "data:image/png;base64," + strings.Repeat("A", 14<<20)
	e.Run(t, []apitest.Scenario{
		{Name: "cover is served without a session", Method: "GET", URL: cover.URL, Status: 200, Code: -1, Check: func(t *testing.T, r *apitest.Result) {
			if r.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("content type %q", r.Header.Get("Content-Type"))
			}
		}},
		{Name: "not 4:3", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator", Body: `{"image":"` + pngDataURL(t, 400, 400) + `"}`,
			Status: 400, Contains: []string{`"image":"The cover must be 4:3; this image is 400×400"`}},
		{Name: "not an image", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator",
			Body: `{"image":"data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte("<svg onload=alert(1)>")) + `"}`, Status: 400, Contains: []string{"JPEG, PNG or WebP"}},
		{Name: "not a data URL", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator", Body: `{"image":"/etc/passwd"}`, Status: 400},
		{Name: "too large", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator", Body: `{"image":"` + big + `"}`, Status: 413},
		{Name: "needs a session", Method: "POST", URL: "/v2/site/upload/thumbnail", Body: `{"image":"` + pngDataURL(t, 400, 300) + `"}`, Status: 401},
		{Name: "traversal in a cover name", Method: "GET", URL: "/v2/site/cover/..%2f..%2fhelio.db", Status: 404},
		{Name: "unknown cover", Method: "GET", URL: "/v2/site/cover/0123456789abcdef0123456789abcdef.png", Status: 404},
		{Name: "station export as CSV, translated", Method: "GET", URL: "/v2/site/export?format=csv", As: "operator",
			Headers: map[string]string{"Accept-Language": "zh-CN"}, Status: 200, Code: -1,
			Contains: []string{"名称,所属电站", e.Fleet.Stations[0].Name}, NotContains: []string{e.Fleet.Stations[4].Name}},
		{Name: "station export filters like the list", Method: "GET", URL: "/v2/site/export?stationType=residential", As: "admin", Status: 200, Code: -1,
			NotContains: []string{"Ground-mounted"}},
		{Name: "bad export format", Method: "GET", URL: "/v2/site/export?format=pdf", As: "admin", Status: 400, Contains: []string{`"format"`}},
		{Name: "export needs a session", Method: "GET", URL: "/v2/dev/export", Status: 401},
		{Name: "device export of another organisation's station", Method: "GET", URL: "/v2/dev/export?stationId=999999", As: "admin", Status: 404},
	})
	x := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/dev/export?format=xlsx&type=meter", As: "admin"})
	f, err := excelize.OpenReader(strings.NewReader(x.Body))
	if err != nil {
		t.Fatalf("xlsx: %v (%d)", err, x.Status)
	}
	rows, _ := f.GetRows(f.GetSheetName(0))
	meters := 0
	for _, s := range e.Fleet.Stations[:len(e.Fleet.Stations)-1] {
		for _, c := range s.Children {
			for _, d := range c.Devices {
				if d.Type == "meter" {
					meters++
				}
			}
		}
	}
	if len(rows) != meters+1 || rows[0][1] != "Serial number" {
		t.Fatalf("xlsx has %d rows for %d meters; header %v", len(rows), meters, rows[0])
	}
}
