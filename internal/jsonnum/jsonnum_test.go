package jsonnum

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// floats returns values of every magnitude and sign, and the edges of encoding/json's
// formats, for tests that compare hand-written JSON with encoding/json's.
func floats(rng *rand.Rand, n int) []float64 {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1e15, 1e15 - 1, 1e15 + 2, 1e20, 1e21, 1e21 * 0.999, -1e21,
		1.7e12, 1_763_942_400_000, 123.456, math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1e-300, 5e-324, 2.5e-8}
	for range n {
		f := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(50)-25))
		switch rng.IntN(3) {
		case 0:
			f = math.Round(f)
		case 1:
			f = math.Round(f*1000) / 1000
		}
		fs = append(fs, f)
	}
	return fs
}

// AppendFloat writes a float as encoding/json does, every magnitude and sign.
func TestAppendFloatAsEncodingJSON(t *testing.T) {
	for _, f := range floats(rand.New(rand.NewPCG(1, 2)), 5000) {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := AppendFloat([]byte("x"), f)
		if !ok || string(got) != "x"+string(want) {
			t.Fatalf("%v (%#x): %q, want %q", f, math.Float64bits(f), got, "x"+string(want))
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, ok := AppendFloat(nil, f); ok {
			t.Fatalf("%v written", f)
		}
	}
}

func TestAppendStringAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := []rune("aZ09 -_/.\"\\<>&\n\t\x00\x1f\x7fé€😀\u2028\u2029")
	cases := []string{"", "CNY", "Asia/Shanghai", "kW", "°C", "a<b", "\xff\xfe"}
	for range 5000 {
		r := make([]rune, rng.IntN(12))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(r))
	}
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); string(got[1:]) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got[1:], want)
		}
	}
}
