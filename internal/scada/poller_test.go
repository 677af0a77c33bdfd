package scada

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
	"github.com/simonvetter/modbus"
)

// collector keeps what the poller hands to the write path.
type collector struct {
	mu  sync.Mutex
	got map[int64][]telemetry.Sample
}

func (c *collector) sink(_ context.Context, s []telemetry.Sample) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range s {
		c.got[x.DeviceID] = append(c.got[x.DeviceID], x)
	}
}

func (c *collector) samples(id int64) []telemetry.Sample {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]telemetry.Sample(nil), c.got[id]...)
}

// Images of the SunSpec devices the tests serve, built from the Alliance's definitions.
func inverter103(t testing.TB, watts, wh float64) *sunspectest.Image {
	im := sunspectest.NewImage()
	common := sunspectest.Load(t, 1).Block(nil, nil, nil)
	copy(common[2:], sunspectest.String("Helio", 16))
	copy(common[18:], sunspectest.String("HX-103", 16))
	copy(common[50:], sunspectest.String("SN103", 16))
	im.PutSunSpec(40000, common, sunspectest.Load(t, 103).Block(map[string]float64{"W": watts, "WH": wh, "DCV": 600, "DCA": 10,
		"PhVphA": 230, "Hz": 50, "TmpCab": 35, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 0, "DCV_SF": 0, "DCA_SF": -1,
		"V_SF": 0, "Hz_SF": -2, "Tmp_SF": 0}, nil))
	return im
}

func inverter113(t testing.TB) *sunspectest.Image {
	im := sunspectest.NewImage()
	im.PutSunSpec(50000, sunspectest.Load(t, 1).Block(nil, nil, nil),
		sunspectest.Load(t, 113).Block(map[string]float64{"W": 7500, "WH": 2e6, "PhVphA": 231, "Hz": 50, "St": 4}, nil, nil),
		sunspectest.Load(t, 160).Block(nil, map[string]int{"DCA_SF": -1, "DCV_SF": 0, "DCW_SF": 0},
			[]map[string]float64{{"DCA": 6, "DCV": 580}, {"DCA": 6.5, "DCV": 590}}))
	return im
}

func meter203(t testing.TB) *sunspectest.Image {
	im := sunspectest.NewImage()
	im.PutSunSpec(40000, sunspectest.Load(t, 1).Block(nil, nil, nil),
		sunspectest.Load(t, 203).Block(map[string]float64{"W": -4200, "TotWhImp": 123000, "TotWhExp": 456000, "PhV": 230, "Hz": 50},
			map[string]int{"W_SF": 0, "TotWh_SF": 0, "V_SF": 0, "Hz_SF": -2}, nil))
	return im
}

func battery802(t testing.TB) *sunspectest.Image {
	im := sunspectest.NewImage()
	im.PutSunSpec(0, sunspectest.Load(t, 1).Block(nil, nil, nil),
		sunspectest.Load(t, 802).Block(map[string]float64{"SoC": 64, "W": 3000, "V": 51, "A": 58, "State": 3},
			map[string]int{"SoC_SF": 0, "W_SF": 0, "V_SF": 0, "A_SF": 0}, nil))
	return im
}

func TestPollerAgainstLoopbackDevices(t *testing.T) {
	inv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 12000, 5e6)}})
	flt := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter113(t)}})
	met := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: meter203(t)}})
	bat := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: battery802(t)}})
	gw := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{
		3: {Image: inverter103(t, 3000, 1e6)}, 7: {Image: meter203(t)}, 9: {Image: battery802(t)}})
	flaky := sunspectest.Dropping(t, sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 500, 1e5)}}).Addr, 2)
	exc := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 1, 1), Exception: modbus.ErrServerDeviceFailure}})
	garbage := sunspectest.Garbage(t)
	slow := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 1, 1), Delay: 2 * time.Second}})
	dead := sunspectest.FreeAddr(t)

	c := &collector{got: map[int64][]telemetry.Sample{}}
	p := NewPoller(Options{Sink: c.sink, MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	defer p.Close()
	tg := func(id int64, typ, addr string, unit uint8) Target {
		return Target{DeviceID: id, DeviceType: typ, Addr: addr, Unit: unit, Interval: 150 * time.Millisecond, Timeout: 300 * time.Millisecond}
	}
	healthy := []Target{tg(1, "inverter", inv.Addr, 1), tg(2, "inverter", flt.Addr, 1), tg(3, "meter", met.Addr, 1),
		tg(4, "battery", bat.Addr, 1), tg(5, "inverter", gw.Addr, 3), tg(6, "meter", gw.Addr, 7), tg(7, "battery", gw.Addr, 9)}
	faulty := []Target{tg(10, "inverter", flaky, 1), tg(11, "inverter", exc.Addr, 1), tg(12, "inverter", garbage, 1),
		tg(13, "inverter", slow.Addr, 1), tg(14, "inverter", dead, 1)}
	p.Apply(append(append([]Target{}, healthy...), faulty...))

	deadline := time.Now().Add(20 * time.Second)
	for {
		ready := true
		for _, h := range healthy {
			ready = ready && len(c.samples(h.DeviceID)) >= 8
		}
		ready = ready && len(c.samples(10)) >= 2
		if ready {
			break
		}
		if time.Now().After(deadline) {
			for _, id := range []int64{1, 2, 3, 4, 5, 6, 7, 10} {
				st, _ := p.Status(id)
				t.Logf("device %d: %d samples, %+v", id, len(c.samples(id)), st)
			}
			t.Fatal("healthy devices were not polled steadily beside the faulty ones")
		}
		time.Sleep(50 * time.Millisecond)
	}

	last := func(id int64) telemetry.Sample { s := c.samples(id); return s[len(s)-1] }
	eq := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	s := last(1)
	eq("103 power", s.PowerKW, 12)
	eq("103 energy", s.EnergyKWh, 5000)
	eq("103 dc current", s.DCCurrentA, 10)
	eq("103 frequency", s.FrequencyHz, 50)
	if s.Status != telemetry.StatusRunning {
		t.Errorf("103 status %d", s.Status)
	}
	s = last(2)
	eq("113 power", s.PowerKW, 7.5)
	eq("113 energy", s.EnergyKWh, 2000)
	eq("160 dc current", s.DCCurrentA, 12.5)
	eq("160 dc voltage", s.DCVoltageV, 585)
	if s.StringsActive != 2 {
		t.Errorf("160 strings %d", s.StringsActive)
	}
	s = last(3)
	eq("203 power", s.PowerKW, -4.2)
	eq("203 import", s.EnergyKWh, 123)
	eq("203 export", s.Energy2KWh, 456)
	s = last(4)
	eq("802 soc", s.SOC, 64)
	eq("802 power", s.PowerKW, 3)
	eq("gateway unit 3 power", last(5).PowerKW, 3)
	eq("gateway unit 7 import", last(6).EnergyKWh, 123)
	eq("gateway unit 9 soc", last(7).SOC, 64)

	if n := gw.Clients(); n != 1 {
		t.Errorf("gateway saw %d connections, want one shared by its three units", n)
	}
	if n := gw.MaxInFlight.Load(); n != 1 {
		t.Errorf("gateway answered %d requests at once, want them one after another", n)
	}
	st, _ := p.Status(1)
	if st.State != StateOnline || st.Manufacturer != "Helio" || st.Model != "HX-103" || st.Serial != "SN103" || st.Layout == nil ||
		st.Layout.Base != 40000 || st.LatencyMs <= 0 {
		t.Errorf("103 status %+v", st)
	}
	if st, _ := p.Status(2); st.Layout == nil || st.Layout.Base != 50000 || len(st.Layout.Models) != 3 {
		t.Errorf("113 layout %+v", st.Layout)
	}

	kinds := func(id int64) map[string]bool {
		st, _ := p.Status(id)
		out := map[string]bool{}
		for _, e := range st.Errors {
			out[e.Kind] = true
		}
		return out
	}
	if k := kinds(10); !k["link"] {
		t.Errorf("dropping device: errors %v, want a broken link", k)
	}
	if st, _ := p.Status(10); st.LastSuccess == nil {
		t.Errorf("dropping device never reconnected: %+v", st)
	}
	if k := kinds(11); !k["device"] {
		t.Errorf("exception device: errors %v", k)
	}
	for _, id := range []int64{11, 12, 13, 14} {
		if n := len(c.samples(id)); n != 0 {
			t.Errorf("faulty device %d produced %d samples", id, n)
		}
		if st, _ := p.Status(id); st.State != StateOffline {
			t.Errorf("faulty device %d is %s, want offline", id, st.State)
		}
	}
	if k := kinds(12); !k["link"] {
		t.Errorf("garbage device: errors %v", k)
	}
	if k := kinds(14); !k["connect"] {
		t.Errorf("unreachable device: errors %v", k)
	}
	if p.Comm(1) != StateOnline || p.Comm(12) != StateOffline || p.Comm(99) != "" {
		t.Errorf("comm states %q %q %q", p.Comm(1), p.Comm(12), p.Comm(99))
	}

	// Removing the gateway's devices stops their endpoint; the others go on.
	p.Apply(healthy[:4])
	if p.Devices() != 4 {
		t.Fatalf("%d devices after apply", p.Devices())
	}
	n := gw.Requests.Load()
	time.Sleep(400 * time.Millisecond)
	if gw.Requests.Load() > n+1 {
		t.Errorf("gateway still polled after its devices were removed")
	}
}
