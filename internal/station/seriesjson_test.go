package station

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// A series writes the JSON encoding/json writes for it.
func TestSeriesAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var pts [][2]float64
	for i := range 300 {
		v := math.Round(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(14)-6))*1000) / 1000
		if i%40 == 0 {
			v = math.Copysign(0, -1)
		}
		pts = append(pts, [2]float64{float64(1_763_942_400_000 + int64(i)*300_000), v})
	}
	for _, s := range []Series{{Unit: "kW", Points: pts}, {Unit: "kWh", Points: [][2]float64{}}, {Unit: "°C <&>\u2028"}} {
		got, err := s.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		type plain Series // without AppendJSON: what reflection writes
		want, err := json.Marshal(plain(s))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s:\n%s\nwant\n%s", s.Unit, got, want)
		}
	}
	if _, err := (Series{Points: [][2]float64{{1, math.NaN()}}}).AppendJSON(nil); err == nil {
		t.Fatal("a NaN was written")
	}
}
