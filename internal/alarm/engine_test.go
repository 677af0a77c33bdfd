package alarm_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// inv is an inverter of the demo fleet with what its samples need.
type inv struct {
	id           int64
	kwp, ratedKW float64
	strings      int
}

func (r *rig) inverter(t testing.TB, key string) inv {
	t.Helper()
	d := inv{id: r.ids[key]}
	if err := r.db.QueryRow(context.Background(), "SELECT component_capacity_kwp, rated_power_kw, strings_enabled FROM devices WHERE id = ?",
		d.id).Scan(&d.kwp, &d.ratedKW, &d.strings); err != nil {
		t.Fatal(err)
	}
	return d
}

// healthy is a normal inverter sample at an irradiance (0: night, standby).
func (d inv) healthy(at time.Time, irr float64) telemetry.Sample {
	s := telemetry.Sample{DeviceID: d.id, Time: at, ACVoltageV: 230, FrequencyHz: 50, TempC: 20, IrradianceWm2: irr,
		Status: telemetry.StatusStandby}
	if irr > 0 {
		s.PowerKW = min(0.76*irr*d.kwp/1000, d.ratedKW)
		s.Status, s.StringsActive, s.TempC, s.DCVoltageV = telemetry.StatusRunning, d.strings, 45, 600
		s.DCCurrentA = s.PowerKW * 1000 / 600
	}
	return s
}

// perthNoon is 12:00 in Perth (UTC+8) on a day in May.
var perthNoon = time.Date(2025, 5, 21, 4, 0, 0, 0, time.UTC)

func TestEngineRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, perthNoon.Add(-12*time.Hour))
		ctx := context.Background()
		d := r.inverter(t, "au-perth-1-inv01")
		step := 5 * time.Minute
		tick := func(s telemetry.Sample) {
			r.clock.Set(s.Time)
			r.write(t, []telemetry.Sample{s})
		}

		// A healthy night: standby at 0 kW, hour after hour, raises nothing.
		night := perthNoon.Add(-12 * time.Hour)
		for i := 0; i < 72; i++ {
			tick(d.healthy(night.Add(time.Duration(i)*step), 0))
		}
		if n := len(r.alarms(t)); n != 0 {
			t.Fatalf("%d alarms for a healthy night", n)
		}

		// Low output: two low samples are not enough; three consecutive open one alarm
		// dated from the first; a normal sample recovers it.
		t0 := perthNoon
		low := func(at time.Time) telemetry.Sample {
			s := d.healthy(at, 800)
			s.PowerKW *= 0.2
			return s
		}
		tick(d.healthy(t0.Add(-step), 800))
		tick(low(t0))
		tick(low(t0.Add(step)))
		tick(d.healthy(t0.Add(2*step), 800))
		if n := len(r.alarms(t)); n != 0 {
			t.Fatalf("two low samples raised %d alarms", n)
		}
		for i := 3; i < 8; i++ {
			tick(low(t0.Add(time.Duration(i) * step)))
		}
		a := r.alarms(t)
		if len(a) != 1 || a[0].Rule != alarm.RuleLowOutput || a[0].Status != alarm.StatusOccurring {
			t.Fatalf("after 5 low samples: %+v", a)
		}
		if !a[0].Start.Equal(t0.Add(3*step)) || !a[0].Last.Equal(t0.Add(7*step)) {
			t.Fatalf("low output start %s last %s", a[0].Start, a[0].Last)
		}
		tick(d.healthy(t0.Add(8*step), 800))
		a = r.alarms(t)
		if a[0].Status != alarm.StatusRecovered || a[0].Recovered == nil || !a[0].Recovered.Equal(t0.Add(8*step)) {
			t.Fatalf("low output not recovered: %+v", a[0])
		}

		// A fault that persists opens once; its last alarm time follows it.
		t1 := t0.Add(time.Hour)
		for i := 0; i < 6; i++ {
			s := d.healthy(t1.Add(time.Duration(i)*step), 800)
			s.Status, s.PowerKW, s.StringsActive = telemetry.StatusFault, 0, 0
			tick(s)
		}
		faults := 0
		for _, x := range r.alarms(t) {
			if x.Rule == alarm.RuleInverterFault {
				faults++
				if x.Level != alarm.LevelFault || x.Type != alarm.TypeDevice || !x.Last.Equal(t1.Add(5*step)) || x.Status != alarm.StatusOccurring {
					t.Fatalf("inverter fault alarm: %+v", x)
				}
			}
		}
		if faults != 1 {
			t.Fatalf("%d inverter fault alarms for one fault", faults)
		}
		// Another replica observing the same fault does not open a second alarm.
		other := alarm.NewEngine(db, alarm.Options{Now: r.clock.Now})
		s := d.healthy(t1.Add(6*step), 800)
		s.Status, s.PowerKW = telemetry.StatusFault, 0
		r.clock.Set(s.Time)
		if _, err := r.writer.Write(ctx, "test", []telemetry.Sample{s}); err != nil {
			t.Fatal(err)
		}
		if err := other.Observe(ctx, []telemetry.Sample{s}); err != nil {
			t.Fatal(err)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'inverter_fault'"); n != 1 {
			t.Fatalf("two replicas opened %d alarms", n)
		}
		tick(d.healthy(t1.Add(7*step), 800))
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'inverter_fault' AND status = 2"); n != 1 {
			t.Fatal("inverter fault did not recover")
		}

		// A rule switched off raises nothing; a changed level applies to new alarms.
		if err := alarm.SaveRulesForTest(ctx, db, r.acc.OrgID, []alarm.Rule{
			{Key: alarm.RuleInverterFault, Enabled: false, Level: 2},
			{Key: alarm.RuleOverTemp, Enabled: true, Level: 0, Params: map[string]float64{"tempC": 60, "hysteresisC": 3}},
		}); err != nil {
			t.Fatal(err)
		}
		r.eng.ForgetRules(r.acc.OrgID)
		t2 := t1.Add(2 * time.Hour)
		s = d.healthy(t2, 800)
		s.Status, s.PowerKW = telemetry.StatusFault, 0
		tick(s)
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'inverter_fault'"); n != 1 {
			t.Fatal("a disabled rule opened an alarm")
		}
		s = d.healthy(t2.Add(step), 800)
		s.TempC = 65 // above the organisation's 60 °C
		tick(s)
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'over_temperature' AND level = 0 AND status = 1"); n != 1 {
			t.Fatal("over-temperature at the organisation's threshold and level did not open")
		}
		s = d.healthy(t2.Add(2*step), 800)
		s.TempC = 58 // below the limit but within the hysteresis
		tick(s)
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'over_temperature' AND status = 1"); n != 1 {
			t.Fatal("recovered within the hysteresis")
		}
		tick(d.healthy(t2.Add(3*step), 800))
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'over_temperature' AND status = 2"); n != 1 {
			t.Fatal("over-temperature did not recover")
		}

		// Silence of one device while its collector delivers for the others: a device
		// offline alarm (not a collector alarm), recovered when it reports again.
		t3 := t2.Add(time.Hour)
		peer := r.inverter(t, "au-perth-1-inv01")
		meter := r.ids["au-perth-1-meter"]
		for i := 0; i <= 4; i++ {
			now := t3.Add(time.Duration(i) * step)
			r.clock.Set(now)
			batch := []telemetry.Sample{{DeviceID: meter, Time: now, ACVoltageV: 230, FrequencyHz: 50, Status: telemetry.StatusRunning, PowerKW: 3}}
			if i == 0 {
				batch = append(batch, peer.healthy(now, 800))
			}
			r.write(t, batch)
			if err := r.eng.Sweep(ctx, now); err != nil {
				t.Fatal(err)
			}
		}
		off := 0
		for _, x := range r.alarms(t) {
			if x.Rule == alarm.RuleOffline {
				off++
				if x.DeviceID != peer.id || x.DevType != "inverter" || !x.Start.Equal(t3) {
					t.Fatalf("offline alarm: %+v", x)
				}
			}
		}
		if off != 1 {
			t.Fatalf("%d offline alarms for one silent device", off)
		}
		tick(peer.healthy(t3.Add(5*step), 800))
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'offline' AND status = 2 AND recovered_at = ?",
			t3.Add(5*step).UnixMilli()); n != 1 {
			t.Fatal("offline alarm did not recover when the device reported again")
		}

		// A collector reporting the device unreachable (status 9).
		t4 := t3.Add(time.Hour)
		tick(telemetry.Sample{DeviceID: peer.id, Time: t4, Status: telemetry.StatusCommsLost})
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE rule_key = 'offline' AND status = 1 AND device_id = ?", peer.id); n != 1 {
			t.Fatal("status 9 did not raise an offline alarm")
		}
		tick(peer.healthy(t4.Add(step), 800))
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE status = 1"); n != 0 {
			t.Fatalf("%d alarms still occurring", n)
		}
	})
}

// TestActiveByStation checks the station list hook: an occurring alarm of a sub-station
// counts for its parent too, the latest alarm's description wins, and a recovered one
// drops out.
func TestActiveByStation(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), t0)
	ctx := context.Background()
	top, sub1, sub2 := r.stationID(t, "cn-golmud"), r.stationID(t, "cn-golmud-1"), r.stationID(t, "cn-golmud-2")
	other := r.stationID(t, "za-stellenbosch")
	r.fault(t, grantedInv, t0)
	r.overTemp(t, grantedInv3, t0.Add(time.Minute))
	got, err := r.eng.ActiveByStation(ctx, []int64{top, sub1, sub2, other})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{
		top:  "Derating for temperature: 86 °C",
		sub1: "The inverter reports a fault and has stopped",
		sub2: "Derating for temperature: 86 °C",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for id, d := range want {
		if got[id] != d {
			t.Fatalf("station %d: %q, want %q", id, got[id], d)
		}
	}
	r.recover(t, grantedInv3, t0.Add(2*time.Minute))
	if got, _ := r.eng.ActiveByStation(ctx, []int64{top, sub2}); got[top] != want[sub1] || got[sub2] != "" {
		t.Fatalf("after recovery: %v", got)
	}
}
