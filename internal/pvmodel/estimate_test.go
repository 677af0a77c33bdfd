package pvmodel

import (
	"math"
	"testing"
)

// clearSky is a year without a cloud: 20 °C, a light wind, no scatter.
type clearSky struct{}

func (clearSky) Sky(int64) Sky {
	return Sky{ClearSkyIndex: 1, ArrayIndex: 1, AmbientC: 20, WindMS: 2, Scatter: 1}
}

// Under a clear sky all year the estimate is the clear-sky insolation through the array
// and inverter models: a tilted south-facing array at 39° N sees more than the horizontal,
// a north-facing one clearly less, and the performance ratio is temperature and system
// losses, inverter efficiency and a little clipping.
func TestEstimateYieldClearSky(t *testing.T) {
	south := YieldRequest{Lat: 38.9, Lng: -6.34, AltitudeM: 200, CapacityKWp: 100, TiltDeg: 30, AzimuthDeg: 180}
	e, err := EstimateYield(south, clearSky{})
	if err != nil {
		t.Fatal(err)
	}
	if e.GHIKWhM2 < 1800 || e.GHIKWhM2 > 2600 || e.POAKWhM2 < 1.1*e.GHIKWhM2 {
		t.Errorf("clear-sky insolation: GHI %.0f, POA %.0f kWh/m²", e.GHIKWhM2, e.POAKWhM2)
	}
	if e.PerformanceRatio < 0.75 || e.PerformanceRatio > 0.9 {
		t.Errorf("performance ratio %.3f", e.PerformanceRatio)
	}
	sum := 0.0
	for _, m := range e.MonthlyKWh {
		sum += m
	}
	if math.Abs(sum-e.AnnualKWh) > 1e-6 || math.Abs(e.SpecificYield*100-e.AnnualKWh) > 1e-6 {
		t.Errorf("months %.1f, year %.1f, specific yield %.1f", sum, e.AnnualKWh, e.SpecificYield)
	}
	if e.MonthlyKWh[5] < 1.3*e.MonthlyKWh[11] {
		t.Errorf("June %.0f not well above December %.0f", e.MonthlyKWh[5], e.MonthlyKWh[11])
	}
	north := south
	north.AzimuthDeg = 0
	n, err := EstimateYield(north, clearSky{})
	if err != nil || n.AnnualKWh > 0.8*e.AnnualKWh {
		t.Errorf("north-facing %.0f kWh vs south-facing %.0f (%v)", n.AnnualKWh, e.AnnualKWh, err)
	}
}

func TestEstimateYieldRefuses(t *testing.T) {
	for _, r := range []YieldRequest{{Lat: 100, CapacityKWp: 1}, {Lat: 10, Lng: -181, CapacityKWp: 1}, {Lat: 10}} {
		if _, err := EstimateYield(r, clearSky{}); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	if _, err := EstimateYield(YieldRequest{Lat: 10, CapacityKWp: 1}, nil); err == nil {
		t.Error("an estimate without weather")
	}
}
