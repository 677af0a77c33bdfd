package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
)

func jsonFloats(rng *rand.Rand) []float64 {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1e15, 1e15 - 1, 1e15 + 2, 1e20, 1e21, 1e21 * 0.999, -1e21,
		1.7e12, 1_763_942_400_000, 123.456, math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1e-300, 5e-324, 2.5e-8}
	for range 5000 {
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
	for _, f := range jsonFloats(rand.New(rand.NewPCG(1, 2))) {
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

type floats struct{ V []float64 }

func (f floats) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"V":[`...)
	for i, v := range f.V {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = AppendFloat(b, v); !ok {
			return b, ErrUnsupportedFloat
		}
	}
	return append(b, "]}"...), nil
}

// An Appender's envelope is the Encoder's, byte for byte; one it cannot write is
// written as before.
func TestAppenderEnvelopeAsEncoder(t *testing.T) {
	for _, v := range [][]float64{{1, 2.5, -3e-9}, {}, {math.NaN()}} {
		env := Envelope{Code: 200, Msg: `ok <&> "é"`, Data: floats{v}}
		rec := httptest.NewRecorder()
		WriteJSON(rec, 200, env)
		var want bytes.Buffer
		_ = json.NewEncoder(&want).Encode(Envelope{Code: 200, Msg: env.Msg, Data: struct{ V []float64 }{v}})
		if rec.Body.String() != want.String() {
			t.Fatalf("%v: %q, want %q", v, rec.Body.String(), want.String())
		}
	}
}
