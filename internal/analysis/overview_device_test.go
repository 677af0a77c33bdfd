package analysis_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// A device's overview is its own roll-ups: an inverter's month equals the sum of its daily
// device roll-ups, its specific yield divides by its modules' kWp, and the station's yield
// is the sum of its inverters'. Site figures (self-consumption, autarky) are named as not
// applying; a battery has no PV figure at all.
func TestDeviceOverviewEqualsRollups(t *testing.T) {
	f := newFleetEnv(t)
	ctx := context.Background()
	get := func(q string) analysis.Overview {
		return data[analysis.Overview](t, f.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/analysis/overview?" + q, As: "admin"}))
	}
	station := get(fmt.Sprintf("scope=station&id=%d&period=month&date=%s", f.storage, f.month))
	rows, err := f.DB.Query(ctx, `SELECT d.id, d.component_capacity_kwp, s.timezone FROM devices d JOIN stations s ON s.id = d.station_id
		WHERE d.type = 'inverter' AND (s.id = ? OR s.parent_id = ?) ORDER BY d.id`, f.storage, f.storage)
	if err != nil {
		t.Fatal(err)
	}
	type inv struct {
		id  int64
		kwp float64
		tz  string
	}
	var invs []inv
	for rows.Next() {
		var i inv
		_ = rows.Scan(&i.id, &i.kwp, &i.tz)
		invs = append(invs, i)
	}
	rows.Close()
	if len(invs) == 0 {
		t.Fatal("the storage station has no inverter")
	}
	var sum float64
	for _, i := range invs {
		o := get(fmt.Sprintf("scope=device&id=%d&period=month&date=%s", i.id, f.month))
		first, _ := time.Parse("2006-01", f.month)
		cal := telemetry.CalendarFor(i.tz)
		s, _ := cal.LocalDate(first)
		_, e := cal.LocalDate(first.AddDate(0, 1, -1))
		roll, err := f.Server.Reader.DeviceRollups(ctx, []int64{i.id}, telemetry.Day, time.UnixMilli(s), time.UnixMilli(e))
		if err != nil {
			t.Fatal(err)
		}
		var pv, ref float64
		for _, p := range roll[i.id] {
			pv += p.Stats.EnergyKWh
			ref += p.Stats.RefEnergyKWh
		}
		if o.Scope != analysis.ScopeDevice || o.Device == nil || o.Device.ID != i.id || o.Device.StationName == "" {
			t.Fatalf("device %d: %+v", i.id, o.Device)
		}
		if pv == 0 || !near(o.KPIs.YieldKWh, pv) {
			t.Errorf("device %d: yield %v, roll-ups %v", i.id, o.KPIs.YieldKWh, pv)
		}
		if i.kwp > 0 && (o.Device.CapacitySource != analysis.CapacityModules || o.KPIs.SpecificYield == nil ||
			!near(*o.KPIs.SpecificYield, pv/i.kwp) || !near(*o.KPIs.EquivalentHours, pv/i.kwp)) {
			t.Errorf("device %d: specific yield %v from %q, want %v", i.id, o.KPIs.SpecificYield, o.Device.CapacitySource, pv/i.kwp)
		}
		if o.KPIs.PR == nil || !near(*o.KPIs.PR, pv/ref*100) {
			t.Errorf("device %d: PR %v, want %v", i.id, o.KPIs.PR, pv/ref*100)
		}
		if o.KPIs.Availability == nil || *o.KPIs.Availability < 50 || *o.KPIs.Availability > 100 {
			t.Errorf("device %d: availability %v", i.id, o.KPIs.Availability)
		}
		if !slices.Equal(o.NotApplicable, []string{"selfConsumption", "autarky"}) || o.KPIs.SelfConsumption != nil || o.KPIs.Autarky != nil {
			t.Errorf("device %d: not applicable %v, self-consumption %v", i.id, o.NotApplicable, o.KPIs.SelfConsumption)
		}
		sum += pv
	}
	if !near(station.KPIs.YieldKWh, sum) {
		t.Errorf("station %v, its inverters %v", station.KPIs.YieldKWh, sum)
	}

	var battery int64
	_ = f.DB.QueryRow(ctx, `SELECT MIN(d.id) FROM devices d JOIN stations s ON s.id = d.station_id
		WHERE d.type IN ('battery', 'storage') AND s.org_id = ?`, f.Accounts.OrgID).Scan(&battery)
	if battery == 0 {
		t.Fatal("no battery in the demo fleet")
	}
	b := get(fmt.Sprintf("scope=device&id=%d&period=month&date=%s", battery, f.month))
	if !slices.Contains(b.NotApplicable, "yield") || !slices.Contains(b.NotApplicable, "availability") || b.KPIs.PR != nil || b.KPIs.Revenue != nil {
		t.Errorf("battery: not applicable %v, kpis %+v", b.NotApplicable, b.KPIs)
	}
	if b.Totals.DischargeKWh <= 0 || b.Totals.ChargeKWh <= 0 || b.Device.MeterPosition != "" {
		t.Errorf("battery: discharge %v, charge %v, meter position %q", b.Totals.DischargeKWh, b.Totals.ChargeKWh, b.Device.MeterPosition)
	}
	// a grid meter says where it sits, and measured import and export
	var meter int64
	_ = f.DB.QueryRow(ctx, `SELECT MIN(d.id) FROM devices d JOIN stations s ON s.id = d.station_id
		WHERE d.type = 'meter' AND d.meter_position = 'grid' AND s.org_id = ?`, f.Accounts.OrgID).Scan(&meter)
	m := get(fmt.Sprintf("scope=device&id=%d&period=month&date=%s", meter, f.month))
	if m.Device == nil || m.Device.Type != "meter" || m.Device.MeterPosition != "grid" || m.Totals.ImportKWh+m.Totals.ExportKWh <= 0 || m.Totals.PVKWh != 0 {
		t.Errorf("grid meter %d: device %+v, totals %+v", meter, m.Device, m.Totals)
	}
	// the station's and fleet's overviews name nothing as not applying
	if station.NotApplicable == nil || len(station.NotApplicable) != 0 || station.Device != nil {
		t.Errorf("station: not applicable %v, device %v", station.NotApplicable, station.Device)
	}
}

// A device is found only under a station the caller may see.
func TestDeviceOverviewRefusals(t *testing.T) {
	f := newFleetEnvSmall(t)
	ctx := context.Background()
	var other, outside int64
	_ = f.DB.QueryRow(ctx, "SELECT MIN(id) FROM devices WHERE org_id <> ?", f.Accounts.OrgID).Scan(&other)
	_ = f.DB.QueryRow(ctx, `SELECT MIN(d.id) FROM devices d JOIN stations s ON s.id = d.station_id
		WHERE s.id = ? OR s.parent_id = ?`, f.storage, f.storage).Scan(&outside)
	if other == 0 || outside == 0 {
		t.Fatalf("devices: other organisation %d, outside the grant %d", other, outside)
	}
	q := func(id any) string {
		return fmt.Sprintf("/v2/analysis/overview?scope=device&id=%v&period=month&date=2026-01", id)
	}
	f.Run(t, []apitest.Scenario{
		{Name: "other organisation's device", Method: "GET", As: "admin", Status: 404, URL: q(other)},
		{Name: "device outside the operator's authority", Method: "GET", As: "operator", Status: 404, URL: q(outside)},
		{Name: "the owner reads it", Method: "GET", As: "admin", Status: 200, URL: q(outside)},
		{Name: "no such device", Method: "GET", As: "admin", Status: 404, URL: q(1 << 40)},
		{Name: "device without id", Method: "GET", As: "admin", Status: 400, Contains: []string{`"id"`}, URL: q("")},
		{Name: "device id not a number", Method: "GET", As: "admin", Status: 400, Contains: []string{`"id"`}, URL: q("x1")},
	})
}
