package device

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// A history writes the JSON encoding/json writes for it.
func TestHistoryJSONAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var pts [][2]float64
	for i := range 600 {
		v := math.Round(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(12)-5))*1000) / 1000
		if i%50 == 0 {
			v = math.Copysign(0, -1)
		}
		pts = append(pts, [2]float64{float64(1_763_942_400_000 + int64(i)*300_000), v})
	}
	for _, h := range []History{
		{Metric: "power", Resolution: "5m", Unit: "kW", Points: pts},
		{Metric: "irradiance", Resolution: "hour", Unit: "W/m²", Points: [][2]float64{}},
		{Metric: "temperature", Resolution: "day", Unit: "°C <&>"},
	} {
		got, err := h.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		type plain History // without AppendJSON: what reflection writes
		want, err := json.Marshal(plain(h))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s:\n%s\nwant\n%s", h.Metric, got, want)
		}
	}
	if _, err := (History{Points: [][2]float64{{1, math.Inf(1)}}}).AppendJSON(nil); err == nil {
		t.Fatal("an infinity was written")
	}
}
