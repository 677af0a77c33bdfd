package analysis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/telemetry"
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

// ptrString shows a figure that may be absent.
func ptrString(v *float64) string {
	if v == nil {
		return "absent"
	}
	return fmt.Sprint(*v)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6+1e-9*math.Abs(b) }

type fleetEnv struct {
	*apitest.Env
	ids     map[string]int64 // station sim key → id
	storage int64            // a station with storage and a grid meter
	other   int64            // the other organisation's station
	month   string           // the last complete month
}

func newFleetEnv(t *testing.T) *fleetEnv {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	// at least 40 days, and the whole of the last complete month in every zone (a day
	// before its first day in UTC): late in a month, 40 days reach back into it only
	// partly, and its availability would count the days without samples
	from := time.Date(now.Year(), now.Month()-1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	if s := now.AddDate(0, 0, -40); s.Before(from) {
		from = s
	}
	e.Simulate(t, from, now)
	f := &fleetEnv{Env: e, ids: map[string]int64{}}
	rows, err := e.DB.Query(context.Background(), "SELECT id, sim_key, system_type, org_id FROM stations WHERE parent_id IS NULL")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, org int64
		var key, sys string
		_ = rows.Scan(&id, &key, &sys, &org)
		f.ids[key] = id
		if org != e.Accounts.OrgID {
			f.other = id
		} else if sys == "pv_storage" && f.storage == 0 {
			f.storage = id
		}
	}
	f.month = now.AddDate(0, -1, 0).Format("2006-01")
	return f
}

// The overview's figures are the roll-ups' figures: a station's month equals the sum of
// its daily roll-ups read straight from telemetry, the fleet equals the sum of its stations,
// and KPIs follow the documented formulas.
func TestOverviewEqualsRollups(t *testing.T) {
	f := newFleetEnv(t)
	ctx := context.Background()
	get := func(user, q string) analysis.Overview {
		return data[analysis.Overview](t, f.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/analysis/overview?" + q, As: user}))
	}
	fleet := get("admin", "scope=fleet&period=month&date="+f.month)
	var sum, co2 float64
	for key, id := range f.ids {
		if id == f.other {
			continue
		}
		o := get("admin", fmt.Sprintf("scope=station&id=%d&period=month&date=%s", id, f.month))
		// the same month read from the roll-ups directly
		var tz string
		_ = f.DB.QueryRow(ctx, "SELECT timezone FROM stations WHERE id = ?", id).Scan(&tz)
		first, _ := time.Parse("2006-01", f.month)
		cal := telemetry.CalendarFor(tz)
		s, _ := cal.LocalDate(first)
		_, e := cal.LocalDate(first.AddDate(0, 1, -1))
		roll, err := f.Server.Reader.StationEnergy(ctx, []int64{id}, telemetry.Day, time.UnixMilli(s), time.UnixMilli(e))
		if err != nil {
			t.Fatal(err)
		}
		var pv, ref float64
		for _, p := range roll[id] {
			pv += p.PVKWh
			ref += p.RefEnergyKWh
		}
		if pv == 0 || !near(o.KPIs.YieldKWh, pv) || !near(o.Totals.RefEnergyKWh, ref) {
			t.Errorf("%s: yield %v ref %v, roll-ups %v %v", key, o.KPIs.YieldKWh, o.Totals.RefEnergyKWh, pv, ref)
		}
		if len(o.Series) < 28 || len(o.Series) > 31 {
			t.Errorf("%s: %d daily points", key, len(o.Series))
		}
		if o.KPIs.PR == nil || !near(*o.KPIs.PR, pv/ref*100) {
			t.Errorf("%s: PR %v, want %v", key, o.KPIs.PR, pv/ref*100)
		}
		if o.KPIs.SpecificYield == nil || !near(*o.KPIs.SpecificYield, pv/o.Site.CapacityKWp) {
			t.Errorf("%s: specific yield %v", key, o.KPIs.SpecificYield)
		}
		if o.KPIs.Availability == nil || *o.KPIs.Availability < 50 || *o.KPIs.Availability > 100 {
			t.Errorf("%s: availability %v", key, ptrString(o.KPIs.Availability))
		}
		if o.KPIs.Revenue == nil || !near(*o.KPIs.Revenue, pv*(o.Site.PricePerKWh+o.Site.SubsidyPerKWh)) {
			t.Errorf("%s: revenue %v", key, o.KPIs.Revenue)
		}
		if id == f.storage && (o.KPIs.SelfConsumption == nil || o.KPIs.Autarky == nil) {
			t.Errorf("%s: storage site without self-consumption or autarky: %+v", key, o.KPIs)
		}
		// CO₂ at the station's country factor (the Tools page's table), worked by hand
		var country string
		_ = f.DB.QueryRow(ctx, "SELECT country FROM stations WHERE id = ?", id).Scan(&country)
		k := map[string]float64{"CN": 0.57, "US": 0.37, "ES": 0.15, "AU": 0.66, "ZA": 0.93, "DE": 0.38, "JP": 0.45, "KR": 0.44, "TW": 0.49}[country]
		if k == 0 || !near(o.KPIs.CO2Kg, pv*k) || !near(o.Model.EmissionFactor, k) {
			t.Errorf("%s (%s): CO₂ %v kg at %v kg/kWh, by hand %v kg", key, country, o.KPIs.CO2Kg, o.Model.EmissionFactor, pv*k)
		}
		co2 += pv * k
		sum += pv
	}
	if !near(fleet.KPIs.YieldKWh, sum) || !near(fleet.KPIs.CO2Kg, co2) {
		t.Errorf("fleet %v kWh %v kg, stations %v kWh %v kg", fleet.KPIs.YieldKWh, fleet.KPIs.CO2Kg, sum, co2)
	}
	if f.storage == 0 {
		t.Fatal("the demo fleet has no storage station")
	}
	// a day has 24 hourly points (or 23/25 on a DST change)
	day := get("admin", fmt.Sprintf("scope=station&id=%d&period=day&date=%s-10", f.storage, f.month))
	if n := len(day.Series); n < 23 || n > 25 || day.Series[0].Label != "00:00" {
		t.Errorf("day: %d points from %q", n, day.Series[0].Label)
	}
}

func TestOverviewRefusals(t *testing.T) {
	f := newFleetEnvSmall(t)
	f.Run(t, []apitest.Scenario{
		{Name: "other organisation's station", Method: "GET", As: "admin", Status: 404,
			URL: fmt.Sprintf("/v2/analysis/overview?scope=station&id=%d&period=month&date=2026-01", f.other)},
		{Name: "station outside the operator's authority", Method: "GET", As: "operator", Status: 404,
			URL: fmt.Sprintf("/v2/analysis/overview?scope=station&id=%d&period=month&date=2026-01", f.storage)},
		{Name: "bad period", Method: "GET", As: "admin", Status: 400, Contains: []string{`"period"`},
			URL: "/v2/analysis/overview?scope=fleet&period=week&date=2026-01"},
		{Name: "bad date", Method: "GET", As: "admin", Status: 400, Contains: []string{`"date"`, "yyyy-MM"},
			URL: "/v2/analysis/overview?scope=fleet&period=month&date=2026-13"},
		{Name: "reversed range", Method: "GET", As: "admin", Status: 400, Contains: []string{`"to"`},
			URL: "/v2/analysis/overview?scope=fleet&period=custom&from=2026-02-01&to=2026-01-01"},
		{Name: "range too long", Method: "GET", As: "admin", Status: 400, Contains: []string{`"to"`},
			URL: "/v2/analysis/overview?scope=fleet&period=custom&from=2024-01-01&to=2026-01-01"},
		{Name: "station without id", Method: "GET", As: "admin", Status: 400, Contains: []string{`"id"`},
			URL: "/v2/analysis/overview?scope=station&period=year&date=2026"},
		{Name: "not signed in", Method: "GET", Status: 401, URL: "/v2/analysis/overview?scope=fleet&period=year&date=2026"},
	})
}

// newFleetEnvSmall is the fleet without history (for refusals).
func newFleetEnvSmall(t *testing.T) *fleetEnv {
	e := apitest.NewWithFleet(t)
	f := &fleetEnv{Env: e}
	_ = e.DB.QueryRow(context.Background(), "SELECT id FROM stations WHERE parent_id IS NULL AND org_id <> ?", e.Accounts.OrgID).Scan(&f.other)
	// a station the operator's department is not granted
	_ = e.DB.QueryRow(context.Background(), `SELECT MAX(s.id) FROM stations s WHERE s.parent_id IS NULL AND s.org_id = ?
		AND s.system_type = 'pv_storage'`, e.Accounts.OrgID).Scan(&f.storage)
	return f
}
