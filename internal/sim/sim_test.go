package sim

import (
	"fmt"
	"hash/fnv"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

const step = 5 * time.Minute

func mustNew(t testing.TB, seed int64) *Simulator {
	t.Helper()
	s, err := New(DemoFleet(), seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fingerprint hashes every field of every sample in order.
type fingerprint struct {
	mu sync.Mutex
	h  map[string]uint64 // per device
	n  int
}

func newFingerprint() *fingerprint { return &fingerprint{h: map[string]uint64{}} }

func (f *fingerprint) emit(key string, s telemetry.Sample) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%v|%v|%v|%v|%v|%v|%v|%v|%v|%v|%d|%d|%d", f.h[key], s.Time.Format(time.RFC3339Nano),
		s.PowerKW, s.EnergyKWh, s.Energy2KWh, s.DCVoltageV, s.DCCurrentA, s.ACVoltageV, s.FrequencyHz,
		s.TempC, s.SOC, s.IrradianceWm2, s.Status, s.StringsActive, s.DeviceID)
	f.h[key] = h.Sum64()
	f.n++
}

func (f *fingerprint) equal(g *fingerprint) bool {
	if len(f.h) != len(g.h) || f.n != g.n {
		return false
	}
	for k, v := range f.h {
		if g.h[k] != v {
			return false
		}
	}
	return true
}

func TestDeterminism(t *testing.T) {
	start := time.Date(2025, 3, 8, 0, 0, 0, 0, time.UTC)
	run := func(seed int64) *fingerprint {
		s := mustNew(t, seed)
		fp := newFingerprint()
		for i := range 4 * 288 {
			s.Step(start.Add(time.Duration(i)*step), fp.emit)
		}
		return fp
	}
	a, b, c := run(1), run(1), run(2)
	if a.n < 4*288*150 {
		t.Fatalf("only %d samples", a.n)
	}
	if !a.equal(b) {
		t.Error("same seed, different samples")
	}
	if a.equal(c) {
		t.Error("different seeds, same samples")
	}

	// Stepping stations on separate goroutines gives the same samples per device.
	s := mustNew(t, 1)
	p := newFingerprint()
	var wg sync.WaitGroup
	for _, st := range s.Steppers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 * 288 {
				st.Step(start.Add(time.Duration(i)*step), p.emit)
			}
		}()
	}
	wg.Wait()
	if !a.equal(p) {
		t.Error("parallel stepping changed the samples")
	}

	// Device ids are carried into the samples.
	s = mustNew(t, 1)
	s.SetDeviceIDs(map[string]int64{"cn-golmud-1-inv01": 42})
	got := int64(-1)
	s.Step(start, func(k string, smp telemetry.Sample) {
		if k == "cn-golmud-1-inv01" {
			got = smp.DeviceID
		}
	})
	if got != 42 {
		t.Errorf("DeviceID %d, want 42", got)
	}
}

// TestYearInvariants runs the demo fleet through a year of 5-minute steps once and
// checks the invariants every sample must satisfy, every scheduled fault and the
// annual yields.
func TestYearInvariants(t *testing.T) {
	const seed = 11
	s := mustNew(t, seed)
	f := s.Fleet()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(1, 0, 0)
	if testing.Short() || raceEnabled {
		// A summer month keeps the run short; the full year runs in the normal suite.
		start = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		end = start.AddDate(0, 1, 0)
	}
	fullYear := end.Sub(start) > 300*24*time.Hour

	type devInfo struct {
		Device
		sub     Station
		station Station
		loc     *time.Location
	}
	info := map[string]*devInfo{}
	for _, st := range f.Stations {
		loc, _ := time.LoadLocation(st.Timezone)
		for _, c := range st.Children {
			for _, d := range c.Devices {
				info[d.Key] = &devInfo{d, c, st, loc}
			}
		}
	}
	faults := s.Faults(start, end)
	faultsOf := map[string][]*Fault{}
	for i := range faults {
		for _, k := range faults[i].DeviceKeys {
			faultsOf[k] = append(faultsOf[k], &faults[i])
		}
	}
	activeFault := func(key string, t time.Time) *Fault {
		for _, f := range faultsOf[key] {
			if f.Active(t) {
				return f
			}
		}
		return nil
	}
	seen := map[string]bool{}      // fault ID → its effect was observed
	recovered := map[string]bool{} // fault ID → a healthy sample after End was observed
	silentBroken := map[string]bool{}
	last := map[string]telemetry.Sample{}
	yield := map[string]float64{}
	type subStep struct {
		grid, load, pv, batt float64
		n                    int
		hasLoad, hasGrid     bool
	}
	var errs int
	fail := func(format string, args ...any) {
		errs++
		if errs < 30 {
			t.Errorf(format, args...)
		}
	}

	subDevices := map[string]int{}
	for _, c := range f.SubStations() {
		subDevices[c.Key] = len(c.Devices)
	}
	subs := map[string]*subStep{}
	sunUp := map[string]bool{}
	emitted := map[string]bool{}
	for i := 0; ; i++ {
		now := start.Add(time.Duration(i) * step)
		if !now.Before(end) {
			break
		}
		clear(subs)
		clear(emitted)
		for _, st := range f.Stations {
			sunUp[st.Key] = pvmodel.SunAt(st.Lat, st.Lng, now).ElevationDeg > 0
		}
		s.Step(now, func(k string, smp telemetry.Sample) {
			d := info[k]
			emitted[k] = true
			if !smp.Time.Equal(now) {
				fail("%s: sample time %v at step %v", k, smp.Time, now)
			}
			af := activeFault(k, now)
			ss := subs[d.StationKey]
			if ss == nil {
				ss = &subStep{}
				subs[d.StationKey] = ss
			}
			ss.n++
			switch d.Type {
			case DeviceInverter:
				yield[d.station.Key] += smp.PowerKW * step.Hours()
				ss.pv += smp.PowerKW
				if smp.PowerKW > d.RatedACKW+1e-9 || smp.PowerKW < 0 {
					fail("%s: power %.3f outside [0, %.1f]", k, smp.PowerKW, d.RatedACKW)
				}
				if !sunUp[d.station.Key] {
					if smp.PowerKW != 0 || smp.IrradianceWm2 != 0 || smp.Status == telemetry.StatusRunning {
						fail("%s: production at night %v: %+v", k, now, smp)
					}
					if af == nil && smp.Status != telemetry.StatusStandby {
						fail("%s: healthy at night but status %d", k, smp.Status)
					}
				}
				if smp.StringsActive > d.EnabledStrings {
					fail("%s: %d strings active of %d", k, smp.StringsActive, d.EnabledStrings)
				}
				if af == nil && smp.Status == telemetry.StatusRunning && smp.StringsActive != d.EnabledStrings {
					fail("%s: healthy but %d/%d strings", k, smp.StringsActive, d.EnabledStrings)
				}
				if af == nil && smp.TempC > 78 {
					fail("%s: healthy inverter at %.1f °C", k, smp.TempC)
				}
			case DeviceBattery, DeviceStorage:
				if smp.SOC < socMin-1e-9 || smp.SOC > socMax+1e-9 {
					fail("%s: SOC %.3f out of bounds", k, smp.SOC)
				}
				if d.InBalance {
					ss.batt += smp.PowerKW
				}
				if math.Abs(smp.PowerKW) > d.RatedKW/packEta+1e-9 {
					fail("%s: battery power %.2f beyond rating", k, smp.PowerKW)
				}
			case DeviceMeter:
				if d.MeterPosition == MeterLoad {
					ss.load, ss.hasLoad = smp.PowerKW, true
					if smp.PowerKW < 0 {
						fail("%s: negative load", k)
					}
				} else {
					ss.grid, ss.hasGrid = smp.PowerKW, true
				}
			}
			if af == nil {
				v, fq := smp.ACVoltageV, smp.FrequencyHz
				nomV, nomF := d.sub.NominalVoltageV, d.sub.NominalFrequencyHz
				if v != 0 && math.Abs(v/nomV-1) > 0.05 || fq != 0 && math.Abs(fq-nomF) > 0.1 {
					fail("%s: healthy device reads %.1f V %.2f Hz", k, v, fq)
				}
			}

			// Counters: lifetime counters never decrease except at a replacement;
			// daily counters reset exactly when the local day changes.
			if p, ok := last[k]; ok {
				replaced := false
				for _, f := range faultsOf[k] {
					if f.Replaced && f.End.After(p.Time) && !f.End.After(now) {
						replaced = true
					}
				}
				daily := d.Type == DeviceInverter && d.Counter == CounterDaily
				newDay := p.Time.In(d.loc).YearDay() != now.In(d.loc).YearDay()
				switch {
				case daily && newDay:
					// Right after midnight the counter reads 0 (it is night); after a
					// silent spell over midnight it reads today's energy so far.
					if now.Sub(p.Time) == step && smp.EnergyKWh != 0 {
						fail("%s: daily counter %.3f after local midnight %v", k, smp.EnergyKWh, now.In(d.loc))
					}
				case replaced:
				case smp.EnergyKWh < p.EnergyKWh-1e-9 || smp.Energy2KWh < p.Energy2KWh-1e-9:
					fail("%s: counter went back %.3f→%.3f / %.3f→%.3f at %v", k, p.EnergyKWh, smp.EnergyKWh, p.Energy2KWh, smp.Energy2KWh, now)
				}
				if daily && !newDay && now.Sub(p.Time) == step && now.In(d.loc).Hour() == 0 && now.In(d.loc).Minute() == 0 {
					fail("%s: local midnight %v not seen as a new day", k, now.In(d.loc))
				}
				// Energy and power agree: the counter grows by power × time.
				if d.Type == DeviceInverter && !replaced && !(daily && newDay) && now.Sub(p.Time) == step {
					if de := smp.EnergyKWh - p.EnergyKWh; math.Abs(de-smp.PowerKW*step.Hours()) > 1e-6 {
						fail("%s: energy step %.4f for power %.3f", k, de, smp.PowerKW)
					}
				}
			} else if smp.EnergyKWh <= 0 && !(d.Type == DeviceInverter && d.Counter == CounterDaily) {
				fail("%s: first counter %.3f not a plausible non-zero value", k, smp.EnergyKWh)
			}
			last[k] = smp

			// Fault effects.
			if af != nil {
				ok := false
				switch af.Kind {
				case FaultStringDown:
					ok = smp.Status == telemetry.StatusRunning && smp.StringsActive == d.EnabledStrings-af.StringsDown
					if smp.StringsActive > d.EnabledStrings-af.StringsDown {
						fail("%s: string down but %d strings active", k, smp.StringsActive)
					}
				case FaultInverterTrip:
					ok = smp.Status == telemetry.StatusFault && smp.PowerKW == 0
					if !ok {
						fail("%s: tripped but status %d power %.2f", k, smp.Status, smp.PowerKW)
					}
				case FaultOverTemp:
					ok = smp.Status == telemetry.StatusOverTemp && smp.TempC >= 80 && smp.PowerKW <= overTempLimitF*d.RatedACKW+1e-9
					if !ok {
						fail("%s: over-temperature not shown: %+v", k, smp)
					}
				case FaultGrid:
					nomV, nomF := d.sub.NominalVoltageV, d.sub.NominalFrequencyHz
					out := smp.ACVoltageV >= 1.1*nomV || smp.ACVoltageV <= 0.9*nomV || math.Abs(smp.FrequencyHz-nomF) >= 0.5
					ok = smp.Status == telemetry.StatusGridFault && smp.PowerKW == 0 && out
					if d.Type == DeviceMeter { // meters read the grid but keep running
						ok = out && smp.Status == telemetry.StatusRunning
					}
					if !ok {
						fail("%s: grid fault not shown: %+v", k, smp)
					}
				case FaultBattery:
					ok = smp.Status == telemetry.StatusFault && smp.PowerKW == 0
					if !ok {
						fail("%s: battery fault not shown: %+v", k, smp)
					}
				case FaultCollectorLost:
					silentBroken[af.ID] = true
					fail("%s: sample while its collector is lost (%s)", k, af.ID)
				}
				if ok {
					seen[af.ID] = true
				}
			} else {
				for _, f := range faultsOf[k] {
					if !now.Before(f.End) && !recovered[f.ID] {
						healthy := smp.Status == telemetry.StatusStandby || smp.Status == telemetry.StatusRunning
						if d.Type == DeviceInverter && smp.Status == telemetry.StatusRunning {
							healthy = healthy && smp.StringsActive == d.EnabledStrings
						}
						if healthy {
							recovered[f.ID] = true
						} else if now.Sub(f.End) > 24*time.Hour {
							fail("%s: fault %s not recovered a day after its end", k, f.ID)
							recovered[f.ID] = true
						}
					}
				}
			}
		})
		// Lost collectors: silent devices.
		for _, fl := range faults {
			if fl.Kind == FaultCollectorLost && fl.Active(now) {
				silent := true
				for _, k := range fl.DeviceKeys {
					silent = silent && !emitted[k]
				}
				if silent && !silentBroken[fl.ID] {
					seen[fl.ID] = true
				}
			}
		}
		// Meter balance: grid = load − PV − battery, per step.
		for key, ss := range subs {
			if !ss.hasGrid {
				continue
			}
			if ss.n != subDevices[key] {
				continue // a collector is lost: the balance cannot be read
			}
			if ss.hasLoad {
				if diff := ss.grid - (ss.load - ss.pv - ss.batt); math.Abs(diff) > 1e-6 {
					fail("%s: meter balance off by %.6f kW at %v", key, diff, now)
				}
			} else if ss.grid+ss.pv+ss.batt < -1e-9 {
				fail("%s: implied load negative at %v", key, now)
			}
		}
	}

	for _, fl := range faults {
		if !seen[fl.ID] {
			t.Errorf("fault %s (%s on %v) never showed in the samples", fl.ID, fl.Kind, fl.DeviceKeys)
		}
		if !recovered[fl.ID] && fl.End.Before(end.Add(-24*time.Hour)) {
			t.Errorf("fault %s (%s) never recovered", fl.ID, fl.Kind)
		}
	}
	if months := end.Sub(start).Hours() / 24 / 30; float64(len(faults)) < 9*months*2 {
		t.Errorf("only %d faults in %.0f months", len(faults), months)
	}
	if !fullYear {
		return
	}
	for _, st := range f.Stations {
		y := yield[st.Key] / st.CapacityKWp
		want := st.Climate.SpecificYieldKWhKWp
		if y < 0.85*want || y > 1.15*want {
			t.Errorf("%s: annual yield %.0f kWh/kWp, climate says %.0f", st.Key, y, want)
		}
	}
}

func TestNoonOnAClearDay(t *testing.T) {
	s := mustNew(t, 3)
	f := s.Fleet()
	for _, key := range []string{"es-merida", "us-kern", "au-perth", "de-munich"} {
		st, _ := f.Station(key)
		// Find a day whose solar noon hour and the next are clear.
		var noon time.Time
		for day := 0; day < 365 && noon.IsZero(); day++ {
			d := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, day)
			n, _ := solarNoon(st.Lat, st.Lng, d.Add(-time.Duration(st.Lng/15*float64(time.Hour))))
			n = n.Truncate(step)
			c1, _ := s.Conditions(key, n.Add(-time.Hour))
			c2, _ := s.Conditions(key, n)
			c3, _ := s.Conditions(key, n.Add(time.Hour))
			if c1.Weather.Code == 1 && c2.Weather.Code == 1 && c3.Weather.Code == 1 {
				noon = n
			}
		}
		if noon.IsZero() {
			t.Errorf("%s: no clear noon in a year", key)
			continue
		}
		c, _ := s.Conditions(key, noon)
		cosZ := math.Sin(c.Sun.ElevationDeg * deg2rad) // of the apparent zenith
		haurwitz := 1098 * cosZ * math.Exp(-0.059/cosZ)
		if math.Abs(c.Irradiance.GHI-haurwitz)/haurwitz > 0.15 {
			t.Errorf("%s %v: clear noon GHI %.0f, Haurwitz %.0f", key, noon, c.Irradiance.GHI, haurwitz)
		}
		stepper := s.StationStepper(key)
		var got []string
		for tt := noon.Add(-2 * time.Hour); !tt.After(noon); tt = tt.Add(step) {
			stepper.Step(tt, func(k string, smp telemetry.Sample) {
				d, _ := f.Device(k)
				if !tt.Equal(noon) || d.Type != DeviceInverter || smp.Status != telemetry.StatusRunning {
					return
				}
				dc := d.ComponentCapacityKWp() * smp.IrradianceWm2 / 1000
				pr := smp.PowerKW / dc
				clipped := math.Abs(smp.PowerKW-d.RatedACKW) < 1e-9
				if !clipped && (pr < 0.72 || pr > 0.95) {
					t.Errorf("%s %v: noon PR %.2f (P %.1f kW, POA %.0f W/m²)", k, noon, pr, smp.PowerKW, smp.IrradianceWm2)
				}
				if smp.IrradianceWm2 < 0.75*c.Irradiance.GHI {
					t.Errorf("%s: POA %.0f far below GHI %.0f at a clear noon", k, smp.IrradianceWm2, c.Irradiance.GHI)
				}
				got = append(got, k)
			})
		}
		if len(got) == 0 {
			t.Errorf("%s: no running inverter at a clear noon", key)
		}
	}
}

func TestDailyCounterAcrossDST(t *testing.T) {
	// es-merida-3 runs daily-counter inverters in Europe/Madrid; step over the spring
	// and autumn clock changes of 2025.
	s := mustNew(t, 5)
	loc, _ := time.LoadLocation("Europe/Madrid")
	st := s.StationStepper("es-merida")
	for _, day := range []time.Time{
		time.Date(2025, 3, 29, 0, 0, 0, 0, loc), time.Date(2025, 10, 25, 0, 0, 0, 0, loc),
	} {
		var resets []time.Time
		var prev float64 = -1
		for tt := day; tt.Before(day.AddDate(0, 0, 3)); tt = tt.Add(step) {
			st.Step(tt, func(k string, smp telemetry.Sample) {
				if k != "es-merida-3-inv01" {
					return
				}
				if prev > 0 && smp.EnergyKWh == 0 {
					resets = append(resets, smp.Time)
				}
				if prev >= 0 && smp.EnergyKWh < prev && smp.EnergyKWh != 0 {
					t.Errorf("daily counter fell without reset at %v", smp.Time.In(loc))
				}
				prev = smp.EnergyKWh
			})
		}
		if len(resets) != 2 {
			t.Fatalf("%d resets in 3 days from %v, want 2", len(resets), day)
		}
		for _, r := range resets {
			l := r.In(loc)
			if l.Hour() != 0 || l.Minute() != 0 {
				t.Errorf("reset at %v local, want midnight", l)
			}
		}
	}
}

func TestGapFillAndRestore(t *testing.T) {
	start := time.Date(2025, 5, 3, 6, 0, 0, 0, time.UTC)
	at := start.Add(9 * time.Hour)
	// A: continuous 5-minute steps. B: one step, then a jump of 9 hours.
	a, b := mustNew(t, 9), mustNew(t, 9)
	wantA := map[string]telemetry.Sample{}
	for tt := start; !tt.After(at); tt = tt.Add(step) {
		a.Step(tt, func(k string, smp telemetry.Sample) {
			if tt.Equal(at) {
				wantA[k] = smp
			}
		})
	}
	b.Step(start, func(string, telemetry.Sample) {})
	gotB := map[string]telemetry.Sample{}
	b.Step(at, func(k string, smp telemetry.Sample) { gotB[k] = smp })
	if len(gotB) != len(wantA) {
		t.Fatalf("%d samples after the gap, want %d", len(gotB), len(wantA))
	}
	for k, w := range wantA {
		if gotB[k] != w {
			t.Errorf("%s: after a gap %+v, continuous %+v", k, gotB[k], w)
		}
	}

	// Restore: a new simulator resumed from the last samples carries the counters and
	// the state of charge on.
	c := mustNew(t, 9)
	for k, smp := range wantA {
		if err := c.Restore(k, smp); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Restore("nope", telemetry.Sample{}); err == nil {
		t.Error("Restore accepted an unknown device")
	}
	next := at.Add(step)
	c.Step(next, func(k string, smp telemetry.Sample) {
		w := wantA[k]
		if smp.EnergyKWh < w.EnergyKWh || smp.Energy2KWh < w.Energy2KWh {
			t.Errorf("%s: counters went back after restore", k)
		}
		if smp.EnergyKWh-w.EnergyKWh > math.Abs(smp.PowerKW)*step.Hours()+1e-6 {
			t.Errorf("%s: counter jumped after restore: %.1f → %.1f", k, w.EnergyKWh, smp.EnergyKWh)
		}
		if w.SOC > 0 && math.Abs(smp.SOC-w.SOC) > 5 {
			t.Errorf("%s: SOC %.1f after restore, was %.1f", k, smp.SOC, w.SOC)
		}
	})
}

func TestBatteriesFollowTheSun(t *testing.T) {
	// Homes with storage charge during the day and discharge in the evening; the
	// utility batteries shift PV into the evening peak.
	s := mustNew(t, 4)
	loc, _ := time.LoadLocation("America/Los_Angeles")
	day := time.Date(2025, 7, 10, 0, 0, 0, 0, loc)
	var charged, discharged, eveningDis float64
	for tt := day; tt.Before(day.Add(48 * time.Hour)); tt = tt.Add(step) {
		s.StationStepper("us-kern").Step(tt, func(k string, smp telemetry.Sample) {
			if k != "us-kern-1-bess" {
				return
			}
			h := tt.In(loc).Hour()
			if smp.PowerKW < 0 {
				charged += -smp.PowerKW * step.Hours()
				if h < 9 || h >= 15 {
					t.Errorf("charging at %d h", h)
				}
			} else if smp.PowerKW > 0 {
				discharged += smp.PowerKW * step.Hours()
				if h >= 17 && h < 22 {
					eveningDis += smp.PowerKW * step.Hours()
				}
			}
		})
	}
	if charged < 500 || eveningDis < 0.9*discharged || discharged < 400 {
		t.Errorf("time shift: charged %.0f kWh, discharged %.0f (evening %.0f)", charged, discharged, eveningDis)
	}

	s = mustNew(t, 4)
	ploc, _ := time.LoadLocation("Australia/Perth")
	day = time.Date(2025, 12, 1, 0, 0, 0, 0, ploc)
	var dayCharge, nightDis float64
	for tt := day; tt.Before(day.Add(7 * 24 * time.Hour)); tt = tt.Add(step) {
		s.StationStepper("au-perth").Step(tt, func(k string, smp telemetry.Sample) {
			if k != "au-perth-2-ess" {
				return
			}
			h := tt.In(ploc).Hour()
			if smp.PowerKW < 0 && h >= 7 && h < 18 {
				dayCharge -= smp.PowerKW * step.Hours()
			}
			if smp.PowerKW > 0 && (h >= 17 || h < 7) {
				nightDis += smp.PowerKW * step.Hours()
			}
		})
	}
	if dayCharge < 20 || nightDis < 20 {
		t.Errorf("self-consumption: day charge %.1f kWh, evening/night discharge %.1f kWh in a week", dayCharge, nightDis)
	}
}
