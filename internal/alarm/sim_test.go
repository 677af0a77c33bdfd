package alarm_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestSimulatedFaults drives the real simulator for three and a half days of 5-minute
// samples through the write path (two storage stations, 24 devices), with six injected
// faults (one of each kind) on top of the faults the simulator schedules in that range.
// Every fault must open exactly one alarm of the right rule and subject and recover it
// when the fault ends; nothing else may raise an alarm (healthy devices at night
// included).
func TestSimulatedFaults(t *testing.T) {
	from := time.Date(2025, 5, 21, 0, 0, 0, 0, time.UTC)
	to := time.Date(2025, 5, 24, 12, 0, 0, 0, time.UTC)
	r := newRig(t, storetest.SQLite(t), from)
	ctx := context.Background()

	var stations []sim.Station
	for _, st := range r.fleet.Stations {
		if st.Key == "au-perth" || st.Key == "kr-jeju" {
			stations = append(stations, st)
		}
	}
	s, err := sim.New(sim.Fleet{Stations: stations}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.SetDeviceIDs(r.ids)

	// kr-jeju is UTC+9: 02:00Z is 11:00 local.
	inject := []sim.FaultRequest{
		{Kind: sim.FaultStringDown, Target: "kr-jeju-1-inv01", Start: at("2025-05-21T02:00:00Z"), Duration: 2 * time.Hour},
		{Kind: sim.FaultInverterTrip, Target: "kr-jeju-2-inv01", Start: at("2025-05-21T05:00:00Z"), Duration: 45 * time.Minute},
		{Kind: sim.FaultOverTemp, Target: "kr-jeju-3-inv01", Start: at("2025-05-22T01:30:00Z"), Duration: time.Hour},
		{Kind: sim.FaultGrid, Target: "kr-jeju-2", Start: at("2025-05-22T04:00:00Z"), Duration: 30 * time.Minute, Detail: sim.GridUnderFrequency},
		{Kind: sim.FaultCollectorLost, Target: "kr-jeju-3-meter", Start: at("2025-05-22T14:00:00Z"), Duration: 2 * time.Hour},
		{Kind: sim.FaultBattery, Target: "kr-jeju-1-ess", Start: at("2025-05-23T10:00:00Z"), Duration: 3 * time.Hour},
	}
	var injected []sim.Fault
	for _, req := range inject {
		f, err := s.InjectFault(req)
		if err != nil {
			t.Fatalf("inject %s: %v", req.Kind, err)
		}
		injected = append(injected, f)
	}
	// End the battery fault early, as an operator fixing it would.
	if _, err := s.EndFault(injected[5].ID, at("2025-05-23T11:00:00Z")); err != nil {
		t.Fatal(err)
	}

	started := time.Now()
	for now := from; now.Before(to); now = now.Add(5 * time.Minute) {
		r.clock.Set(now)
		var batch []telemetry.Sample
		s.Step(now, func(_ string, smp telemetry.Sample) {
			if smp.DeviceID != 0 {
				batch = append(batch, smp)
			}
		})
		r.write(t, batch)
		if err := r.eng.Sweep(ctx, now); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("stepped %s in %s", to.Sub(from), time.Since(started).Round(time.Millisecond))

	faults := s.Faults(from, to)
	kinds := map[sim.FaultKind]int{}
	for _, f := range faults {
		kinds[f.Kind]++
	}
	for _, k := range []sim.FaultKind{sim.FaultStringDown, sim.FaultInverterTrip, sim.FaultCollectorLost, sim.FaultOverTemp, sim.FaultGrid, sim.FaultBattery} {
		if kinds[k] == 0 {
			t.Fatalf("no %s fault in the range: the scenario lost its coverage", k)
		}
	}
	if len(faults) <= len(injected) {
		t.Fatalf("the range holds no scheduled fault (%d faults)", len(faults))
	}

	alarms := r.alarms(t)
	matched := map[int64]string{}
	for _, f := range faults {
		var hits []row
		for _, a := range alarms {
			if r.matches(t, f, a) {
				hits = append(hits, a)
			}
		}
		if len(hits) != 1 {
			t.Errorf("fault %s (%s %s, %s–%s): %d alarms, want exactly 1: %+v", f.ID, f.Kind, strings.Join(f.DeviceKeys, ","),
				f.Start.Format(time.RFC3339), f.End.Format(time.RFC3339), len(hits), hits)
			continue
		}
		a := hits[0]
		matched[a.ID] = f.ID
		// Opens at the first sample showing the fault (a silent collector: from the last
		// sample heard, raised once the silence passes the rule's 15 minutes).
		if d := a.Start.Sub(f.Start); d < -5*time.Minute || d > 5*time.Minute {
			t.Errorf("fault %s started %s, its alarm %s", f.ID, f.Start.Format(time.RFC3339), a.Start.Format(time.RFC3339))
		}
		if a.Status != alarm.StatusRecovered || a.Recovered == nil {
			t.Errorf("fault %s ended %s; its alarm %d is still occurring", f.ID, f.End.Format(time.RFC3339), a.ID)
			continue
		}
		// Recovers at the first sample after the fault ends. A string loss can only be
		// judged while the inverter produces: if the fault ends at night, at sunrise.
		late := 5 * time.Minute
		if f.Kind == sim.FaultStringDown {
			late = 18 * time.Hour
		}
		if d := a.Recovered.Sub(f.End); d < 0 || d > late {
			t.Errorf("fault %s ended %s, its alarm recovered %s", f.ID, f.End.Format(time.RFC3339), a.Recovered.Format(time.RFC3339))
		}
	}
	for _, a := range alarms {
		if _, ok := matched[a.ID]; !ok {
			t.Errorf("alarm %d (%s on device %d, %s) matches no fault: %s", a.ID, a.Rule, a.DeviceID, a.Start.Format(time.RFC3339), a.Desc)
		}
	}
	if len(alarms) != len(faults) {
		t.Errorf("%d alarms for %d faults", len(alarms), len(faults))
	}
	t.Logf("%d faults (%d injected), %d alarms", len(faults), len(injected), len(alarms))

	// The engine's verdicts are visible through ActiveByStation while occurring: none now.
	act, err := r.eng.ActiveByStation(ctx, []int64{r.stationID(t, "au-perth"), r.stationID(t, "kr-jeju")})
	if err != nil || len(act) != 0 {
		t.Fatalf("occurring alarms after every fault ended: %v %v", act, err)
	}
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// matches reports whether an alarm is the one a fault should raise.
func (r *rig) matches(t *testing.T, f sim.Fault, a row) bool {
	if a.Start.Before(f.Start.Add(-10*time.Minute)) || !a.Start.Before(f.End) {
		return false
	}
	devs := make([]int64, len(f.DeviceKeys))
	for i, k := range f.DeviceKeys {
		devs[i] = r.ids[k]
	}
	switch f.Kind {
	case sim.FaultStringDown:
		return a.Rule == alarm.RuleStringLoss && slices.Contains(devs, a.DeviceID)
	case sim.FaultInverterTrip:
		return a.Rule == alarm.RuleInverterFault && slices.Contains(devs, a.DeviceID)
	case sim.FaultOverTemp:
		return a.Rule == alarm.RuleOverTemp && slices.Contains(devs, a.DeviceID)
	case sim.FaultBattery:
		return a.Rule == alarm.RuleBatteryFault && slices.Contains(devs, a.DeviceID)
	case sim.FaultGrid:
		return a.Rule == alarm.RuleGrid && a.StationID == r.stationID(t, f.SubStationKey)
	case sim.FaultCollectorLost:
		return a.Rule == alarm.RuleOffline && a.DevType == "collector" && a.DeviceSN == f.CollectorSN
	}
	panic(fmt.Sprintf("unknown fault kind %s", f.Kind))
}
