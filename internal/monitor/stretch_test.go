package monitor_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The fleet summary keeps each station's compared stretch until the stretch's hour or the
// station's past roll-ups change: a late sample for yesterday shows in the next summary, as
// the roll-ups answer it.
func TestKeptStretchFollowsLateSamples(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	now := time.Now()
	// a zone where it is between 04:00 and 22:00, so that the samples below fall in
	// yesterday's compared stretch
	zone := ""
	for _, z := range []string{"UTC", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "America/Los_Angeles", "Pacific/Auckland"} {
		loc, err := time.LoadLocation(z)
		if err != nil {
			t.Fatal(err)
		}
		if h := now.In(loc).Hour(); h >= 4 && h < 22 {
			zone = z
			break
		}
	}
	if zone == "" {
		t.Fatal("no zone found between 04:00 and 22:00")
	}
	ms := now.UnixMilli()
	st, err := e.DB.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.Accounts.OrgID, "Late Ridge", zone, 50, ms, ms)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := e.DB.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, meter_position, rated_power_kw,
		component_capacity_kwp, collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Accounts.OrgID, st, "LR-1", "LR-1", "inverter", "", 10, 12, "C", ms, ms)
	if err != nil {
		t.Fatal(err)
	}
	e.Server.Writer.Refresh()
	e.Server.Fleet.Changed()
	write := func(hoursBefore float64, kwh float64) {
		t.Helper()
		at := now.Add(-24*time.Hour - time.Duration(hoursBefore*float64(time.Hour))).Truncate(time.Second)
		res, err := e.Server.Writer.Write(ctx, "test", []telemetry.Sample{{DeviceID: dev, Time: at, PowerKW: 5, EnergyKWh: kwh,
			ACVoltageV: 230, FrequencyHz: 50, IrradianceWm2: 500, Status: telemetry.StatusRunning}})
		if err != nil || res.Accepted != 1 {
			t.Fatalf("write at %s: %+v %v", at, res, err)
		}
	}
	previous := func() float64 {
		t.Helper()
		got := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: "admin"})
		kept := e.Server.Figures.Fleet
		e.Server.Figures.Fleet = nil
		want := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: "admin"})
		e.Server.Figures.Fleet = kept
		if got.Status != 200 || got.Body != want.Body {
			t.Fatalf("/v2/summary/all:\nfleet state %s\nroll-ups    %s", got.Body, want.Body)
		}
		var env struct {
			Data struct {
				EnergyKWh struct{ Day struct{ Previous float64 } } `json:"energyKwh"`
			}
		}
		if err := json.Unmarshal([]byte(got.Body), &env); err != nil {
			t.Fatal(err)
		}
		return env.Data.EnergyKWh.Day.Previous
	}
	write(3.5, 100) // its first reading: the counter's start
	write(3, 102)
	first := previous()
	second := previous() // from the kept stretch
	write(2.5, 104)      // late: yesterday again
	third := previous()
	if first != 2 || second != 2 || third != 4 {
		t.Fatalf("yesterday so far: %v, then %v, after a late sample %v; want 2, 2, 4", first, second, third)
	}
}
