package tools_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/tools"
)

func result[T any](t *testing.T) func(*testing.T, *apitest.Result) T {
	return func(t *testing.T, r *apitest.Result) T {
		t.Helper()
		var v T
		if err := json.Unmarshal(r.Env.Data, &v); err != nil {
			t.Fatalf("%v: %s", err, r.Body)
		}
		return v
	}
}

func TestToolsAPI(t *testing.T) {
	e := apitest.NewWithFleet(t)
	var golmud, other int64
	if err := e.DB.QueryRow(t.Context(), "SELECT id FROM stations WHERE sim_key = 'cn-golmud'").Scan(&golmud); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.QueryRow(t.Context(), "SELECT id FROM stations WHERE sim_key = 'other-tw-tainan'").Scan(&other); err != nil {
		t.Fatal(err)
	}
	site := func(extra string) string {
		return `{"lat":36.4,"lng":94.9,"altitudeM":2800,"capacityKwp":100,"tiltDeg":30,"azimuthDeg":180` + extra + `}`
	}
	yield := result[tools.YieldResult](t)
	var plain, local, lossy tools.YieldResult
	e.Run(t, []apitest.Scenario{
		{Name: "estimate", Method: "POST", URL: "/v2/tools/yield", As: "operator", Body: site(`,"lossesPct":0`), Status: 200,
			Check: func(t *testing.T, r *apitest.Result) { plain = yield(t, r) }},
		{Name: "a station's climate", Method: "POST", URL: "/v2/tools/yield", As: "admin", Body: site(fmt.Sprintf(`,"stationId":%d`, golmud)), Status: 200,
			Contains: []string{`"climate":"station"`}, Check: func(t *testing.T, r *apitest.Result) { local = yield(t, r) }},
		{Name: "with losses and a station's climate", Method: "POST", URL: "/v2/tools/yield", As: "admin", Body: site(fmt.Sprintf(`,"lossesPct":10,"stationId":%d`, golmud)), Status: 200,
			Contains: []string{`"climate":"station"`}, Check: func(t *testing.T, r *apitest.Result) { lossy = yield(t, r) }},
		{Name: "another organisation's station", Method: "POST", URL: "/v2/tools/yield", As: "admin", Body: site(fmt.Sprintf(`,"stationId":%d`, other)), Status: 404},
		{Name: "latitude out of range", Method: "POST", URL: "/v2/tools/yield", As: "admin", Body: `{"lat":91,"lng":0,"capacityKwp":10,"tiltDeg":30,"azimuthDeg":180}`, Status: 400,
			Contains: []string{`"lat":"Must be between -90 and 90"`}},
		{Name: "no capacity, tilt too steep, losses too high", Method: "POST", URL: "/v2/tools/yield", As: "admin", Body: `{"lat":30,"lng":0,"capacityKwp":0,"tiltDeg":95,"azimuthDeg":180,"lossesPct":60}`, Status: 400,
			Contains: []string{`"capacityKwp"`, `"tiltDeg"`, `"lossesPct"`}},
		{Name: "translated", Method: "POST", URL: "/v2/tools/yield", As: "admin", Headers: map[string]string{"Accept-Language": "zh-CN"}, Body: `{"lat":30,"lng":200,"capacityKwp":1,"tiltDeg":30,"azimuthDeg":180}`, Status: 400,
			NotContains: []string{"Must be"}},
		{Name: "not signed in", Method: "POST", URL: "/v2/tools/yield", Body: site(""), Status: 401},
		{Name: "string fits", Method: "POST", URL: "/v2/tools/strings", As: "admin", Status: 200, Contains: []string{`"ok":true`},
			Body: `{"modulesPerString":18,"moduleVocV":49.5,"moduleVmpV":41.6,"vocCoeffPctPerC":-0.27,"vmpCoeffPctPerC":-0.35,"inverterMaxDcV":1100,"mpptMinV":200,"mpptMaxV":1000,"siteMinAirC":-25,"siteMaxAirC":38}`},
		{Name: "string too long for a cold site", Method: "POST", URL: "/v2/tools/strings", As: "admin", Status: 200, Contains: []string{`"key":"vocCold"`, `"ok":false`},
			Body: `{"modulesPerString":21,"moduleVocV":49.5,"moduleVmpV":41.6,"vocCoeffPctPerC":-0.27,"vmpCoeffPctPerC":-0.35,"inverterMaxDcV":1100,"mpptMinV":200,"mpptMaxV":1000,"siteMinAirC":-25,"siteMaxAirC":38}`},
		{Name: "string inputs in the wrong order", Method: "POST", URL: "/v2/tools/strings", As: "admin", Status: 400, Contains: []string{`"moduleVmpV"`, `"mpptMaxV"`, `"siteMaxAirC"`},
			Body: `{"modulesPerString":18,"moduleVocV":40,"moduleVmpV":41.6,"vocCoeffPctPerC":-0.27,"vmpCoeffPctPerC":-0.35,"inverterMaxDcV":1100,"mpptMinV":900,"mpptMaxV":800,"siteMinAirC":30,"siteMaxAirC":20}`},
		{Name: "factors", Method: "GET", URL: "/v2/tools/co2factors", As: "operator", Status: 200, Contains: []string{`"kpiFactorKgPerKwh":0.5`, `"kpiScope":"country"`, `"country":"CN","kgPerKwh":0.57`}},
	})
	if plain.AnnualKWh < 100*1200 || plain.AnnualKWh > 100*2300 {
		t.Fatalf("a 100 kWp array at Golmud yields %.0f kWh a year", plain.AnnualKWh)
	}
	var sum float64
	for _, m := range plain.MonthlyKWh {
		sum += m
	}
	if d := sum - plain.AnnualKWh; d > 1 || d < -1 {
		t.Fatalf("months add up to %.1f, the year is %.1f", sum, plain.AnnualKWh)
	}
	if d := lossy.AnnualKWh - local.AnnualKWh*0.9; d > 1 || d < -1 {
		t.Fatalf("10 %% losses: %.0f against %.0f", lossy.AnnualKWh, local.AnnualKWh)
	}
}

// The string check at the edges of its limits.
func TestCheckString(t *testing.T) {
	in := tools.StringInput{ModulesPerString: 20, ModuleVocV: 50, ModuleVmpV: 40, VocCoeffPct: -0.3, VmpCoeffPct: -0.4,
		InverterMaxDCV: 1100, MPPTMinV: 500, MPPTMaxV: 1000, SiteMinAirC: -15, SiteMaxAirC: 35}
	// cold: Voc 50 × (1 + 0.3 % × 40) = 56 V; hot cells 65 °C: Vmp 40 × (1 − 0.4 % × 40) = 33.6 V;
	// cold Vmp 40 × 1.16 = 46.4 V
	r := tools.CheckString(in)
	if r.Checks[0].ValueV != 1120 || r.Checks[0].OK || r.OK {
		t.Fatalf("20 modules at −15 °C: %+v", r)
	}
	if r.MaxModules != 19 || r.MinModules != 15 || !r.Recommended {
		t.Fatalf("range %d–%d", r.MinModules, r.MaxModules)
	}
	in.ModulesPerString = 19
	if r := tools.CheckString(in); !r.OK {
		t.Fatalf("19 modules: %+v", r)
	}
	in.ModulesPerString = 14
	if r := tools.CheckString(in); r.OK || r.Checks[1].OK {
		t.Fatalf("14 modules fall out of the MPPT range when hot: %+v", r)
	}
}
