package sim

import (
	"errors"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

func TestFaultSchedule(t *testing.T) {
	s := mustNew(t, 21)
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(1, 0, 0)
	faults := s.Faults(from, to)

	perMonth := map[string]int{}
	kinds := map[FaultKind]int{}
	ids := map[string]bool{}
	for i, f := range faults {
		if ids[f.ID] {
			t.Errorf("duplicate fault id %s", f.ID)
		}
		ids[f.ID] = true
		kinds[f.Kind]++
		if !f.End.After(f.Start) {
			t.Errorf("%s: ends before it starts", f.ID)
		}
		if monthStartUTC(f.Start) != monthStartUTC(f.End) {
			t.Errorf("%s: crosses a month boundary", f.ID)
		}
		if len(f.DeviceKeys) == 0 || f.StationKey == "" || f.SubStationKey == "" {
			t.Errorf("%s: no target", f.ID)
		}
		w := faultWindows[f.Kind]
		if d := f.End.Sub(f.Start); d < w.minDur || d > w.maxDur+time.Minute {
			t.Errorf("%s: duration %v outside [%v, %v]", f.ID, d, w.minDur, w.maxDur)
		}
		if i > 0 && f.Start.Before(faults[i-1].Start) {
			t.Errorf("faults not ordered by start")
		}
		perMonth[f.StationKey+f.Start.Format("2006-01")]++
		for _, g := range faults[i+1:] {
			if g.SubStationKey == f.SubStationKey && g.Start.Before(f.End) && f.Start.Before(g.End) {
				t.Errorf("%s and %s overlap on %s", f.ID, g.ID, f.SubStationKey)
			}
		}
	}
	for _, st := range s.Fleet().Stations {
		for m := from; m.Before(to); m = m.AddDate(0, 1, 0) {
			n := perMonth[st.Key+m.Format("2006-01")]
			if n < 1 || n > 5 {
				t.Errorf("%s %s: %d faults, want a few", st.Key, m.Format("2006-01"), n)
			}
		}
	}
	for _, k := range faultOrder {
		if kinds[k] == 0 {
			t.Errorf("no %s fault in a year", k)
		}
	}
	// A pure function of the seed: the same list again, another list for another seed,
	// and sub-ranges agree with the whole.
	again := mustNew(t, 21).Faults(from, to)
	if len(again) != len(faults) || again[17].ID != faults[17].ID || !again[17].Start.Equal(faults[17].Start) {
		t.Error("fault schedule not deterministic")
	}
	other := mustNew(t, 22).Faults(from, to)
	same := len(other) == len(faults)
	for i := 0; same && i < len(other); i++ {
		same = other[i].Start.Equal(faults[i].Start)
	}
	if same {
		t.Error("a different seed gave the same schedule")
	}
	mid := time.Date(2025, 6, 10, 0, 0, 0, 0, time.UTC)
	part := s.Faults(mid, mid.Add(10*24*time.Hour))
	for _, p := range part {
		if !p.Start.Before(mid.Add(10*24*time.Hour)) || !p.End.After(mid) {
			t.Errorf("%s outside the range asked", p.ID)
		}
	}
}

func TestInjectFault(t *testing.T) {
	s := mustNew(t, 8)
	loc, _ := time.LoadLocation("Europe/Madrid")
	// A clear-enough summer noon, outside any scheduled fault of es-merida-2.
	now := time.Date(2025, 7, 16, 12, 0, 0, 0, loc)
	for _, f := range s.Faults(now.Add(-6*time.Hour), now.Add(6*time.Hour)) {
		if f.SubStationKey == "es-merida-2" {
			t.Skipf("scheduled fault %s in the way", f.ID)
		}
	}
	samples := map[string]telemetry.Sample{}
	step := func(tt time.Time) {
		clear(samples)
		s.StationStepper("es-merida").Step(tt, func(k string, smp telemetry.Sample) { samples[k] = smp })
	}
	step(now)
	if samples["es-merida-2-inv03"].Status != telemetry.StatusRunning {
		t.Fatalf("inverter not running at noon: %+v", samples["es-merida-2-inv03"])
	}

	// Start defaults to the last stepped instant.
	sd, err := s.InjectFault(FaultRequest{Kind: FaultStringDown, Target: "es-merida-2-inv03", StringsDown: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !sd.Start.Equal(now) || !sd.Injected || sd.End.Sub(sd.Start) != 2*time.Hour {
		t.Errorf("injected fault %+v", sd)
	}
	trip, _ := s.InjectFault(FaultRequest{Kind: FaultInverterTrip, Target: "es-merida-2-inv05", Start: now.Add(5 * time.Minute)})
	lost, err := s.InjectFault(FaultRequest{Kind: FaultCollectorLost, Target: "es-merida-1-inv01", Start: now.Add(5 * time.Minute), Duration: time.Hour})
	if err != nil || lost.CollectorSN == "" || len(lost.DeviceKeys) != 9 {
		t.Fatalf("collector fault %+v: %v", lost, err)
	}
	grid, _ := s.InjectFault(FaultRequest{Kind: FaultGrid, Target: "es-merida-3", Detail: GridUnderVoltage, Start: now.Add(5 * time.Minute)})
	hot, _ := s.InjectFault(FaultRequest{Kind: FaultOverTemp, Target: "es-merida-2-inv07", Start: now.Add(5 * time.Minute)})

	step(now.Add(5 * time.Minute))
	if got := samples["es-merida-2-inv03"]; got.StringsActive != 7 || got.Status != telemetry.StatusRunning {
		t.Errorf("string down: %+v", got)
	}
	if p3, p4 := samples["es-merida-2-inv03"].PowerKW, samples["es-merida-2-inv04"].PowerKW; p3 > 0.85*p4 {
		t.Errorf("two of nine strings down but power %.1f vs %.1f", p3, p4)
	}
	if got := samples["es-merida-2-inv05"]; got.Status != telemetry.StatusFault || got.PowerKW != 0 {
		t.Errorf("trip: %+v", got)
	}
	for _, k := range lost.DeviceKeys {
		if _, ok := samples[k]; ok {
			t.Errorf("%s reports while its collector is lost", k)
		}
	}
	if got := samples["es-merida-3-inv01"]; got.Status != telemetry.StatusGridFault || got.ACVoltageV > 0.85*400 || got.PowerKW != 0 {
		t.Errorf("grid fault: %+v", got)
	}
	if got := samples["es-merida-3-meter"]; got.ACVoltageV > 0.85*400 {
		t.Errorf("meter does not see the under-voltage: %+v", got)
	}
	if got := samples["es-merida-2-inv07"]; got.Status != telemetry.StatusOverTemp || got.TempC < 80 {
		t.Errorf("over-temperature: %+v", got)
	}
	if len(s.Faults(now, now.Add(time.Hour))) < 5 {
		t.Error("injected faults not listed")
	}

	// Ending faults: recovery at the next step.
	for _, f := range []Fault{sd, trip, grid, hot} {
		if _, err := s.EndFault(f.ID, now.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	step(now.Add(10 * time.Minute))
	for _, k := range []string{"es-merida-2-inv03", "es-merida-2-inv05", "es-merida-3-inv01", "es-merida-2-inv07"} {
		if got := samples[k]; got.Status != telemetry.StatusRunning || got.StringsActive != 9 {
			t.Errorf("%s did not recover: %+v", k, got)
		}
	}
	step(now.Add(65 * time.Minute))
	if _, ok := samples["es-merida-1-inv01"]; !ok {
		t.Error("collector did not come back after its outage")
	}

	// Battery fault on an all-in-one unit also shows on its pack.
	bf, err := s.InjectFault(FaultRequest{Kind: FaultBattery, Target: "au-perth-1-ess-bat", Start: now})
	if err != nil || len(bf.DeviceKeys) != 2 || bf.DeviceKeys[0] != "au-perth-1-ess" {
		t.Errorf("battery fault %+v: %v", bf, err)
	}
	s.StationStepper("au-perth").Step(now.Add(time.Minute), func(k string, smp telemetry.Sample) {
		if (k == "au-perth-1-ess" || k == "au-perth-1-ess-bat") && (smp.Status != telemetry.StatusFault || smp.PowerKW != 0) {
			t.Errorf("%s: battery fault not shown: %+v", k, smp)
		}
	})

	// Bad requests.
	if _, err := s.InjectFault(FaultRequest{Kind: FaultStringDown, Target: "nowhere"}); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("unknown target: %v", err)
	}
	if _, err := s.InjectFault(FaultRequest{Kind: FaultBattery, Target: "es-merida-2-inv03"}); !errors.Is(err, ErrBadFault) {
		t.Errorf("battery fault on an inverter: %v", err)
	}
	if _, err := s.InjectFault(FaultRequest{Kind: FaultStringDown, Target: "es-merida-2-inv03", StringsDown: 10}); !errors.Is(err, ErrBadFault) {
		t.Errorf("more strings down than enabled: %v", err)
	}
	if _, err := s.EndFault("inj-999", now); !errors.Is(err, ErrUnknownFault) {
		t.Errorf("unknown fault: %v", err)
	}
}
