package monitor

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/helio-energy/helio/internal/telemetry"
)

func randomFlows(rng *rand.Rand) telemetry.Flows {
	v := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return float64(rng.IntN(1_000_000))
		case 2:
			return -rng.Float64() * 1e3
		case 3:
			return rng.Float64() * 1e-7
		case 4:
			return rng.Float64() * 1e22
		}
		return math.Round(rng.Float64()*1e9) / 1e3
	}
	return telemetry.Flows{PVKWh: v(), DischargeKWh: v(), ChargeKWh: v(), ImportKWh: v(), ExportKWh: v(), LoadKWh: v()}
}

func randomPoint(rng *rand.Rand) PowerPoint {
	p := PowerPoint{Time: rng.Int64N(4e12) - 1e12, Flows: randomFlows(rng)}
	if rng.IntN(8) > 0 {
		p.Profit = map[string]float64{}
		for _, c := range []string{"CNY", "EUR", "USD", "ZAR", "TWD", `"<&>"`, "é"}[:rng.IntN(7)] {
			p.Profit[c] = randomFlows(rng).PVKWh
		}
	}
	return p
}

// TestPowerDataAsEncodingJSON checks that the hand-written answer is byte for byte what
// encoding/json writes for it.
func TestPowerDataAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		d := PowerData{Period: []string{"day", "month", "year", "total"}[i%4], Timezone: "Asia/Shanghai", Unit: "kWh"}
		if i%10 != 0 {
			d.Points = []PowerPoint{}
			for range rng.IntN(32) {
				d.Points = append(d.Points, randomPoint(rng))
			}
		}
		if i%3 == 0 {
			o := randomPoint(rng)
			d.Opening = &o
		}
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.AppendJSON([]byte("prefix"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[len("prefix"):], want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got[len("prefix"):], want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		d := PowerData{Points: []PowerPoint{{Profit: map[string]float64{"EUR": bad}}}}
		if _, err := d.AppendJSON(nil); err == nil {
			t.Errorf("%v: no error", bad)
		}
		d = PowerData{Points: []PowerPoint{{Flows: telemetry.Flows{LoadKWh: bad}}}}
		if _, err := d.AppendJSON(nil); err == nil {
			t.Errorf("%v in the flows: no error", bad)
		}
	}
}
