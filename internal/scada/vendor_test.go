package scada_test

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// vendorRig polls one loopback device with a shipped template and keeps its samples.
type vendorRig struct {
	mu  sync.Mutex
	got []telemetry.Sample
	p   *scada.Poller
}

func template(t *testing.T, name string) scada.MapInput {
	t.Helper()
	list, err := scada.Templates()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range list {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no template %q", name)
	return scada.MapInput{}
}

func pollWith(t *testing.T, m scada.MapInput, unit *sunspectest.Unit) *vendorRig {
	t.Helper()
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: unit})
	r := &vendorRig{}
	r.p = scada.NewPoller(scada.Options{Sink: func(_ context.Context, s []telemetry.Sample) {
		r.mu.Lock()
		r.got = append(r.got, s...)
		r.mu.Unlock()
	}})
	t.Cleanup(r.p.Close)
	r.p.Apply([]scada.Target{{DeviceID: 1, DeviceType: "inverter", Addr: srv.Addr, Unit: 1, Interval: 100 * time.Millisecond,
		Timeout: time.Second, MapID: 1, MapName: m.Name, MapVersion: 1, Registers: m.Registers}})
	return r
}

// next waits for a sample newer than the ones seen so far that satisfies ok.
func (r *vendorRig) next(t *testing.T, ok func(s telemetry.Sample) bool) telemetry.Sample {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		var last *telemetry.Sample
		if n := len(r.got); n > 0 {
			last = &r.got[n-1]
		}
		r.mu.Unlock()
		if last != nil && ok(*last) {
			return *last
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Fatalf("no matching sample; last of %d: %+v", len(r.got), r.got[max(len(r.got)-1, 0):])
	return telemetry.Sample{}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func live(t *testing.T, p *scada.Poller) map[string]scada.LiveRegister {
	t.Helper()
	out := map[string]scada.LiveRegister{}
	err := p.Do(context.Background(), 1, func(ss *scada.Session) error {
		l, err := scada.LiveRead(ss, 1)
		for _, r := range l.Registers {
			out[r.Name] = r
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Huawei SUN2000: on-grid (0x0200) with 30 kW as int32 gain 1000 reads as running at
// 30 kW; a fault code while the state still says on-grid gives the fault status.
func TestHuaweiSUN2000Template(t *testing.T) {
	im := sunspectest.NewImage()
	im.Set(30000, sunspectest.String("SUN2000-30KTL-M3", 15)...)
	im.Set(30015, sunspectest.String("HV2150012345", 10)...)
	im.Set(32016, 6500, 1234, 6480, 1200) // PV1 650.0 V 12.34 A, PV2 648.0 V 12.00 A
	im.Set(32069, 2301, 2305, 2299)
	im.Set(32080, 0, 30000)           // active power 30.000 kW
	im.Set(32082, 0xFFFF, 0xFA24)     // reactive power −1.500 kvar
	im.Set(32084, 990)                // power factor 0.990
	im.Set(32085, 5000, 9850, 452, 0) // 50.00 Hz, efficiency, 45.2 °C
	im.Set(32089, 0x0200, 0)          // on-grid, no fault
	im.Set(32106, 0x0012, 0xD687)     // 12345.67 kWh
	r := pollWith(t, template(t, "Huawei SUN2000"), &sunspectest.Unit{Image: im})
	s := r.next(t, func(telemetry.Sample) bool { return true })
	if s.Status != telemetry.StatusRunning || !near(s.PowerKW, 30) || !near(s.EnergyKWh, 12345.67) || !near(s.TempC, 45.2) ||
		!near(s.DCVoltageV, 650) || !near(s.DCCurrentA, 24.34) || !near(s.FrequencyHz, 50) || !near(s.ACVoltageV, 230.1) {
		t.Fatalf("sample %+v", s)
	}
	l := live(t, r.p)
	if l["model_name"].Text != "SUN2000-30KTL-M3" || l["device_status"].Text != "running" || !near(*l["reactive_power"].Value, -1.5) ||
		!near(*l["power_factor"].Value, 0.99) {
		t.Fatalf("live %+v", l)
	}
	im.Set(32090, 2064) // a device fault code
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusFault })
	im.Set(32090, 2034) // grid overvoltage
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusGridFault })
	im.Set(32089, 0x0300, 0) // shutdown: fault
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusFault })
}

// Sungrow SG (input registers at the documented address − 1, 32-bit values low word
// first): running at 110 kW; work state 0x5500 is a fault, alarm code 36 over-temperature.
func TestSungrowSGTemplate(t *testing.T) {
	in := sunspectest.NewImage()
	in.Set(4989, sunspectest.String("A2281234567", 10)...)
	in.Set(5003, 0xD090, 0x0003) // 250000 kWh
	in.Set(5007, 385)            // 38.5 °C
	in.Set(5010, 7200, 105, 7150, 98)
	in.Set(5018, 2300)
	in.Set(5030, 0xADB0, 0x0001) // 110000 W
	in.Set(5035, 500)            // 50.0 Hz
	in.Set(5037, 0x0000)         // run
	r := pollWith(t, template(t, "Sungrow SG"), &sunspectest.Unit{Image: sunspectest.NewImage(), Input: in})
	s := r.next(t, func(telemetry.Sample) bool { return true })
	if s.Status != telemetry.StatusRunning || !near(s.PowerKW, 110) || !near(s.EnergyKWh, 250000) || !near(s.TempC, 38.5) ||
		!near(s.DCVoltageV, 720) || !near(s.DCCurrentA, 20.3) || !near(s.FrequencyHz, 50) {
		t.Fatalf("sample %+v", s)
	}
	in.Set(5044, 36)
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusOverTemp })
	in.Set(5044, 0)
	in.Set(5037, 0x5500)
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusFault })
}

// Growatt MAX/MID (protocol 1.24 input registers, serial in holding registers): normal at
// 30 kW; a fault main code gives the fault status.
func TestGrowattMAXTemplate(t *testing.T) {
	hold, in := sunspectest.NewImage(), sunspectest.NewImage()
	hold.Set(23, sunspectest.String("AB12345678", 5)...)
	in.Set(0, 1)
	in.Set(3, 6000, 85)
	in.Set(7, 5980, 80)
	in.Set(35, 0x0004, 0x93E0, 5000, 2305) // 300000 × 0.1 W, 50.00 Hz, 230.5 V
	in.Set(55, 0x0001, 0xE240)             // 12345.6 kWh
	in.Set(93, 412)
	r := pollWith(t, template(t, "Growatt MAX/MID"), &sunspectest.Unit{Image: hold, Input: in})
	s := r.next(t, func(telemetry.Sample) bool { return true })
	if s.Status != telemetry.StatusRunning || !near(s.PowerKW, 30) || !near(s.EnergyKWh, 12345.6) || !near(s.TempC, 41.2) ||
		!near(s.DCVoltageV, 600) || !near(s.DCCurrentA, 16.5) || !near(s.FrequencyHz, 50) || !near(s.ACVoltageV, 230.5) {
		t.Fatalf("sample %+v", s)
	}
	if l := live(t, r.p); l["serial_number"].Text != "AB12345678" {
		t.Fatalf("serial %q", l["serial_number"].Text)
	}
	in.Set(105, 7)
	r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusFault })
}

// A vendor fault code read through the Huawei template raises the inverter-fault alarm
// through the real rule (write path, then the alarm engine, on SQLite).
func TestVendorFaultRaisesInverterFaultAlarm(t *testing.T) {
	im := sunspectest.NewImage()
	im.Set(32080, 0, 30000)
	im.Set(32089, 0x0200, 2064)
	r := pollWith(t, template(t, "Huawei SUN2000"), &sunspectest.Unit{Image: im})
	s := r.next(t, func(s telemetry.Sample) bool { return s.Status == telemetry.StatusFault })

	ctx := context.Background()
	db := storetest.SQLite(t)
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		t.Fatal(err)
	}
	var dev int64
	if err := db.QueryRow(ctx, "SELECT MIN(id) FROM devices WHERE org_id = ? AND type = 'inverter'", acc.OrgID).Scan(&dev); err != nil {
		t.Fatal(err)
	}
	s.DeviceID = dev
	res, err := telemetry.NewWriter(db, telemetry.Options{}).Write(ctx, "modbus", []telemetry.Sample{s})
	if err != nil || res.Outcomes[0] != telemetry.Accepted {
		t.Fatalf("write: %+v %v", res, err)
	}
	if err := alarm.NewEngine(db, alarm.Options{}).Observe(ctx, []telemetry.Sample{s}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM alarms WHERE rule_key = ? AND device_id = ?", alarm.RuleInverterFault, dev).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d inverter-fault alarms, want 1", n)
	}
}
