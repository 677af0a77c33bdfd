package sim

import (
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The climate's specific yield, which dates the counters back to grid connection, agrees
// with the solar model: each demo station's figure is within 3 % of the yield the
// estimator simulates for its first inverter's array (no faults, first-year ageing).
func TestClimateYield(t *testing.T) {
	if testing.Short() {
		t.Skip("a year of steps per station")
	}
	for _, st := range DemoFleet().Stations {
		var inv *Device
		for _, sub := range append([]Station{st}, st.Children...) {
			for i := range sub.Devices {
				if inv == nil && sub.Devices[i].Type == DeviceInverter {
					inv = &sub.Devices[i]
				}
			}
		}
		if inv == nil {
			t.Fatalf("%s: no inverter", st.Key)
		}
		req := pvmodel.YieldRequest{Lat: st.Lat, Lng: st.Lng, AltitudeM: st.AltitudeM, CapacityKWp: 100,
			TiltDeg: inv.TiltDeg, AzimuthDeg: inv.AzimuthDeg, Climate: st.Climate}
		e, err := pvmodel.EstimateYield(req, YieldWeather(req))
		if err != nil {
			t.Fatal(err)
		}
		if want := st.Climate.SpecificYieldKWhKWp; math.Abs(e.SpecificYield-want)/want > 0.03 {
			t.Errorf("%s: climate says %.0f kWh/kWp, the model %.0f", st.Key, want, e.SpecificYield)
		}
	}
}

// An inverter's opening counter covers the years since grid connection: worked by hand as
// years × specific yield × kWp × the mean plant factor 0.97 × (1 − 0.5 % × years ÷ 2),
// plus the commissioning value, within the plant factor's spread (±5.2 %) and 32 kWh.
func TestOpeningCounters(t *testing.T) {
	f := DemoFleet()
	s, err := New(f, 1)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	got := s.OpeningCounters(from)
	for _, tc := range []struct {
		station string
		years   float64 // from the grid date to the back-fill start, by hand
	}{
		{"de-munich", 7.0},  // grid 2018-06-01
		{"jp-osaka", 7.45},  // grid 2017-12-20
		{"cn-golmud", 5.42}, // grid 2019-12-28
		{"kr-jeju", 2.2},    // grid 2023-03-20
	} {
		st, ok := f.Station(tc.station)
		if !ok {
			t.Fatalf("%s: no such station", tc.station)
		}
		sub := st.Children[0]
		yield := st.Climate.SpecificYieldKWhKWp
		n := 0
		for _, d := range sub.Devices {
			if d.Type != DeviceInverter {
				continue
			}
			n++
			want := tc.years * yield * d.ComponentCapacityKWp() * 0.97 * (1 - 0.005*tc.years/2)
			if g := got[d.Key]; math.Abs(g-want) > 0.052*want+32 {
				t.Errorf("%s: opening %.0f kWh, by hand %.0f", d.Key, g, want)
			}
		}
		if n == 0 {
			t.Fatalf("%s: no inverter in %s", tc.station, sub.Key)
		}
	}
	// a sub-station connected after the start opens at its commissioning value
	late := s.OpeningCounters(time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC))
	for k, v := range late {
		if v < 2 || v > 32 {
			t.Fatalf("%s: opening %.1f kWh before its grid connection", k, v)
		}
	}
	// and it is the lifetime counter of the first sample a back-fill from `from` emits
	lifetime := map[string]bool{}
	for _, st := range f.Stations {
		for _, sub := range append([]Station{st}, st.Children...) {
			for _, d := range sub.Devices {
				if d.Type == DeviceInverter && d.Counter != CounterDaily {
					lifetime[d.Key] = true
				}
			}
		}
	}
	checked := 0
	s.Step(from, func(key string, smp telemetry.Sample) {
		if lifetime[key] && smp.EnergyKWh != 0 {
			checked++
			if math.Abs(smp.EnergyKWh-got[key]) > 1e-6 {
				t.Errorf("%s: first counter %.3f kWh, opening %.3f", key, smp.EnergyKWh, got[key])
			}
		}
	})
	if checked == 0 {
		t.Fatal("no inverter reported a lifetime counter")
	}
}
