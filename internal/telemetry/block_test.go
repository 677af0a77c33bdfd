package telemetry

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
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
		b, p := encodeBlock(in)
		out, err := decodeBlock(b, p)
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		if !sameBlockRows(in, out) {
			t.Fatalf("%d rows: round trip differs", n)
		}
		if _, err := decodeBlock(b, nil); err == nil {
			t.Fatalf("%d rows: a block of version 4 decoded without its power row", n)
		}
	}
	in := randomBlockRows(rng, 20)
	b, p := encodeBlock(in)
	for _, cut := range []int{0, 1, 2, len(b) / 2, len(b) - 1} {
		if _, err := decodeBlock(b[:cut], p); err == nil {
			t.Errorf("a block cut at %d bytes decoded", cut)
		}
	}
	for _, cut := range []int{0, 1, 2, len(p) / 2, len(p) - 1} {
		if _, err := decodeBlock(b, p[:cut]); err == nil {
			t.Errorf("a power row cut at %d bytes decoded", cut)
		}
	}
	// another day's power row (other instants) is refused
	other := slices.Clone(in)
	other[7].T++
	if _, err := decodeBlock(b, encodePower(other)); err == nil {
		t.Error("a block decoded with a power row of other instants")
	}
}

// encodeBlockV1 writes what the first version wrote: the plain form in one stream.
func encodeBlockV1(rows []blockRow) []byte {
	raw, _ := appendPlainForm(nil, rows, true)
	var out bytes.Buffer
	out.WriteByte(blockVersion1)
	deflateTo(&out, raw)
	return out.Bytes()
}

// encodeBlockV2 writes what the second version wrote with the given deflate writer: every
// column, the head (n, timestamps and power) and the tail in two streams.
func encodeBlockV2(rows []blockRow, deflate func(out *bytes.Buffer, raw []byte)) []byte {
	raw, head := appendPlainForm(nil, rows, true)
	var h, out bytes.Buffer
	deflate(&h, raw[:head])
	out.WriteByte(blockVersion2)
	out.Write(binary.AppendUvarint(nil, uint64(h.Len())))
	out.Write(h.Bytes())
	deflate(&out, raw[head:])
	return out.Bytes()
}

// Blocks sealed by the first two versions still read, and a column read from any version
// (power from the power row for version 4) equals the whole decode's column over the range.
func TestBlockVersionsAndColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 288, 1000} {
		in := randomBlockRows(rng, n)
		b4, p4 := encodeBlock(in)
		for v, b := range map[int][]byte{1: encodeBlockV1(in), 2: encodeBlockV2(in, deflateTo), 4: b4} {
			var power []byte
			if v == 4 {
				power = p4
			}
			out, err := decodeBlock(b, power)
			if err != nil || !sameBlockRows(in, out) {
				t.Fatalf("version %d, %d rows: round trip differs (%v)", v, n, err)
			}
			for _, col := range []int{0, 1, 9, -1, -2} {
				from, to := int64(math.MinInt64), int64(math.MaxInt64)
				if n > 2 {
					from, to = in[n/3].T, in[2*n/3].T
				}
				src := b
				if v == 4 && col == 0 {
					if _, err := appendBlockPoints(nil, b, col, from, to); err == nil {
						t.Fatalf("version 4: power read from a block without it")
					}
					src = power
				}
				got, err := appendBlockPoints([][2]float64{{1, 2}}, src, col, from, to)
				if err != nil {
					t.Fatalf("version %d, column %d: %v", v, col, err)
				}
				want := [][2]float64{{1, 2}}
				for i := range in {
					if in[i].T >= from && in[i].T < to {
						want = append(want, [2]float64{float64(in[i].T), in[i].value(col)})
					}
				}
				if len(got) != len(want) {
					t.Fatalf("version %d, column %d: %d points, want %d", v, col, len(got), len(want))
				}
				for i := range got {
					if got[i][0] != want[i][0] || math.Float64bits(got[i][1]) != math.Float64bits(want[i][1]) {
						t.Fatalf("version %d, column %d, point %d: %v, want %v", v, col, i, got[i], want[i])
					}
				}
			}
		}
	}
	// version 2's head holds the power column apart: a small part of a day's block
	rows := slowDay()
	b := encodeBlockV2(rows, deflateTo)
	head, tail, err := blockStreams(b)
	if err != nil || len(head) == 0 || len(tail) == 0 || len(head)+len(tail) >= len(b) {
		t.Fatalf("version 2 streams: head %d, tail %d bytes of %d (%v)", len(head), len(tail), len(b), err)
	}
	var plain bytes.Buffer
	if err := inflateTo(&plain, head); err != nil {
		t.Fatal(err)
	}
	if raw, h := appendPlainForm(nil, rows, true); !bytes.Equal(plain.Bytes(), raw[:h]) || h > len(raw)/5 {
		t.Fatalf("the head inflates to %d bytes, want the %d of the plain form's %d that hold the times and power", plain.Len(), h, len(raw))
	}
	headEnd := len(b) - len(tail) // the version, the head's length and the head
	for _, cut := range []int{1, 2, headEnd / 2, headEnd - 1} {
		if _, err := appendBlockPoints(nil, b[:cut], 0, 0, math.MaxInt64); err == nil {
			t.Errorf("a block cut at %d bytes gave its power", cut)
		}
	}
}

// Blocks sealed before the writer moved to klauspost's deflate (compress/flate at best
// compression, version 2) read as they did, and a day of slowly changing readings now
// takes, block and power row, at most 3 % more than such a block.
func TestBlocksOfTheEarlierWriterRead(t *testing.T) {
	std := func(out *bytes.Buffer, raw []byte) {
		w, _ := flate.NewWriter(out, flate.BestCompression)
		w.Write(raw)
		w.Close()
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		rows  []blockRow
		sized bool // a day of readings, not random bits
	}{{slowDay(), true}, {randomBlockRows(rng, 288), false}, {randomBlockRows(rng, 1), false}} {
		in := tc.rows
		old := bytes.NewBuffer(encodeBlockV2(in, std))
		out, err := decodeBlock(old.Bytes(), nil)
		if err != nil || !sameBlockRows(in, out) {
			t.Fatalf("a block of the earlier writer (%d rows) does not read back (%v)", len(in), err)
		}
		pts, err := appendBlockPoints(nil, old.Bytes(), 0, math.MinInt64, math.MaxInt64)
		if err != nil || len(pts) != len(in) {
			t.Fatalf("the power of a block of the earlier writer: %d points (%v)", len(pts), err)
		}
		b, p := encodeBlock(in)
		if n := len(b) + len(p); tc.sized && float64(n) > 1.03*float64(old.Len()) {
			t.Fatalf("the writer wrote %d bytes (block %d, power row %d) where the earlier one wrote %d", n, len(b), len(p), old.Len())
		}
	}
}

// slowDay is a sealed day of 5-minute samples of slowly changing readings.
func slowDay() []blockRow {
	rows := make([]blockRow, 288)
	for i := range rows {
		r := &rows[i]
		r.T = 1_700_006_400_000 + int64(i)*300_000
		day := math.Max(0, math.Sin(float64(i-72)/144*math.Pi))
		r.F = [blockFloats]float64{50 * day, 1000 + float64(i)*0.2*day, 0, 600 * day, 80 * day, 230, 50, 25 + 10*day, 0, 900 * day}
		r.Status, r.Strings, r.CStateNull = 1, 8, true
	}
	return rows
}

// A sealed day of 5-minute samples of slowly changing readings stays well below the 8
// bytes of a float per value.
func TestBlockCompresses(t *testing.T) {
	rows := slowDay()
	b, p := encodeBlock(rows)
	size := len(b) + len(p)
	if per := float64(size) / float64(len(rows)*12); per > 4 {
		t.Fatalf("%d bytes for %d points: %.2f B per point", size, len(rows)*12, per)
	}
}

func FuzzBlockDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	f.Add(encodeBlockV2(randomBlockRows(rng, 5), deflateTo))
	f.Add([]byte{blockVersion2})
	f.Add(encodeBlockV1(randomBlockRows(rng, 5)))
	f.Add([]byte{blockVersion1})
	b, _ := encodeBlock(randomBlockRows(rng, 5))
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		if pts, err := appendBlockPoints(nil, b, 0, math.MinInt64, math.MaxInt64); err == nil {
			// the power read alone agrees with the whole decode wherever both succeed
			if rows, err := decodeBlock(b, nil); err == nil {
				if len(rows) != len(pts) {
					t.Fatalf("%d points of power, %d rows", len(pts), len(rows))
				}
				for i := range rows {
					if math.Float64bits(rows[i].F[0]) != math.Float64bits(pts[i][1]) {
						t.Fatalf("point %d differs", i)
					}
				}
			}
		}
		rows, err := decodeBlock(b, nil)
		if err != nil {
			return
		}
		again, err := decodeBlock(encodeBlock(rows))
		if err != nil || !sameBlockRows(rows, again) {
			t.Fatalf("a decoded block does not round-trip: %v", err)
		}
	})
}
