package analysis

import (
	"math"
	"testing"
	"time"
)

// CO₂ avoided is measured station by station at its country's grid factor (the Tools
// page's table), the deployment's factor for a country the table lacks, and adds up
// across countries; worked by hand.
func TestMeasuredCO2(t *testing.T) {
	m := &Measurer{EmissionFactor: 0.5, Now: func() time.Time { return time.UnixMilli(10_000_000) }}
	slots := []Slot{{Label: "a", Start: 0, End: 3_600_000}, {Label: "b", Start: 3_600_000, End: 7_200_000}}
	buckets := []Bucket{{Start: time.UnixMilli(0), Totals: Totals{PVKWh: 100}}, {Start: time.UnixMilli(3_600_000), Totals: Totals{PVKWh: 50}}}
	for _, tc := range []struct {
		country string
		want    float64 // kg for 150 kWh
	}{
		{"CN", 150 * 0.57}, {"DE", 150 * 0.38}, {"jp", 150 * 0.45}, {"ES", 150 * 0.15}, {"ZA", 150 * 0.93},
		{"", 150 * 0.5}, {"XX", 150 * 0.5},
	} {
		ms := m.fill(slots, buckets, 1, m.factor(tc.country))
		if math.Abs(ms.Total.CO2Kg-tc.want) > 1e-9 || math.Abs(Compute(ms.Total, Site{}).CO2Kg-tc.want) > 1e-9 {
			t.Errorf("%q: %v kg, want %v", tc.country, ms.Total.CO2Kg, tc.want)
		}
		if b := ms.Buckets[1]; math.Abs(b.CO2Kg-50*tc.want/150) > 1e-9 {
			t.Errorf("%q: second slot %v kg", tc.country, b.CO2Kg)
		}
	}
	// a fleet in China and Spain: 150 kWh × 0.57 + 150 kWh × 0.15
	fleet := Combine([]*Measured{m.fill(slots, buckets, 1, m.factor("CN")), m.fill(slots, buckets, 1, m.factor("ES"))})
	if k := Compute(fleet.Total, Site{}); math.Abs(k.CO2Kg-108) > 1e-9 || k.YieldKWh != 300 {
		t.Errorf("fleet %v kg for %v kWh, want 108 kg", k.CO2Kg, k.YieldKWh)
	}
}
