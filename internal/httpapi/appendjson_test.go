package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http/httptest"
	"testing"

	"github.com/helio-energy/helio/internal/jsonnum"
)

type floats struct{ V []float64 }

func (f floats) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"V":[`...)
	for i, v := range f.V {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = jsonnum.AppendFloat(b, v); !ok {
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
