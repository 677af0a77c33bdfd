package telemetry

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func randomBlockRows(rng *rand.Rand, n int) []blockRow {
	specials := []float64{math.NaN(), math.Float64frombits(0x7ff8000000000abc), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -1e300}
	rows := make([]blockRow, n)
	t := rng.Int64N(2e12) - 1e12
	for i := range rows {
		t += 1 + rng.Int64N(600000)
		if rng.IntN(10) == 0 {
			t += rng.Int64N(1e9)
		}
		r := &rows[i]
		r.T = t
		for c := range r.F {
			switch rng.IntN(4) {
			case 0:
				r.F[c] = specials[rng.IntN(len(specials))]
			case 1:
				if i > 0 {
					r.F[c] = rows[i-1].F[c]
				}
			default:
				r.F[c] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-4))
			}
		}
		r.Status, r.Strings = rng.IntN(10)-2, rng.IntN(1<<20)
		switch rng.IntN(4) {
		case 0:
			r.CState = `{"a":{"ref":1.5}}`
		case 1:
			r.CState = "" // an empty text is not NULL
		default:
			r.CStateNull = true
		}
	}
	return rows
}

// sameBlockRows compares rows bit for bit (NaN payloads and the sign of zero included).
func sameBlockRows(a, b []blockRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		for c := range x.F {
			if math.Float64bits(x.F[c]) != math.Float64bits(y.F[c]) {
				return false
			}
			x.F[c], y.F[c] = 0, 0
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestBlockRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 12, 288, 1000} {
		in := randomBlockRows(rng, n)
		out, err := decodeBlock(encodeBlock(in))
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		if !sameBlockRows(in, out) {
			t.Fatalf("%d rows: round trip differs", n)
		}
	}
	b := encodeBlock(randomBlockRows(rng, 20))
	for _, cut := range []int{0, 1, 2, len(b) / 2, len(b) - 1} {
		if _, err := decodeBlock(b[:cut]); err == nil {
			t.Errorf("a block cut at %d bytes decoded", cut)
		}
	}
}

// A sealed day of 5-minute samples of slowly changing readings stays well below the 8
// bytes of a float per value.
func TestBlockCompresses(t *testing.T) {
	rows := make([]blockRow, 288)
	for i := range rows {
		r := &rows[i]
		r.T = 1_700_006_400_000 + int64(i)*300_000
		day := math.Max(0, math.Sin(float64(i-72)/144*math.Pi))
		r.F = [blockFloats]float64{50 * day, 1000 + float64(i)*0.2*day, 0, 600 * day, 80 * day, 230, 50, 25 + 10*day, 0, 900 * day}
		r.Status, r.Strings, r.CStateNull = 1, 8, true
	}
	size := len(encodeBlock(rows))
	if per := float64(size) / float64(len(rows)*12); per > 4 {
		t.Fatalf("%d bytes for %d points: %.2f B per point", size, len(rows)*12, per)
	}
}

func FuzzBlockDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	f.Add(encodeBlock(randomBlockRows(rng, 5)))
	f.Add([]byte{blockVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := decodeBlock(b)
		if err != nil {
			return
		}
		again, err := decodeBlock(encodeBlock(rows))
		if err != nil || !sameBlockRows(rows, again) {
			t.Fatalf("a decoded block does not round-trip: %v", err)
		}
	})
}
