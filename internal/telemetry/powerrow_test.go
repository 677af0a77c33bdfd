package telemetry

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// powerDays are days of power whose instants and values reach each branch of the
// encoding: regular and jittered instants, gaps, the extremes of int64, repeated values,
// values with many trailing zeros and the special floats.
func powerDays(rng *rand.Rand) [][]blockRow {
	days := [][]blockRow{nil, randomBlockRows(rng, 1), randomBlockRows(rng, 288), randomBlockRows(rng, 1000), slowDay()}
	extreme := make([]blockRow, 6)
	for i, t := range []int64{math.MinInt64, -1, 0, 1 << 40, 1<<62 + 5, math.MaxInt64} {
		extreme[i].T, extreme[i].F[0] = t, float64(i%2)*math.Inf(1)
	}
	days = append(days, extreme)
	jitter := make([]blockRow, 288)
	t := int64(1_700_000_000_000)
	for i := range jitter {
		t += 300_000 + rng.Int64N(60_000) - 30_000
		if i == 100 {
			t += 3 * hourMs
		}
		jitter[i].T = t
		switch i % 5 {
		case 0:
			jitter[i].F[0] = float64(rng.IntN(5000)) / 4 // few meaningful bits
		case 1:
			jitter[i].F[0] = jitter[max(i-1, 0)].F[0]
		default:
			jitter[i].F[0] = rng.NormFloat64() * 40
		}
	}
	return append(days, jitter)
}

// A power row gives back the instants and the power of the rows it was written from, bit
// for bit, over any range; a damaged row is refused.
func TestPowerRowRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k, rows := range powerDays(rng) {
		p := encodePower(rows)
		back := make([]blockRow, len(rows))
		for i := range rows {
			back[i].T = rows[i].T
		}
		if err := setPower(back, p); err != nil {
			t.Fatalf("day %d: %v", k, err)
		}
		for i := range rows {
			if math.Float64bits(back[i].F[0]) != math.Float64bits(rows[i].F[0]) {
				t.Fatalf("day %d, sample %d: %v, want %v", k, i, back[i].F[0], rows[i].F[0])
			}
		}
		from, to := int64(math.MinInt64), int64(math.MaxInt64)
		if len(rows) > 3 {
			from, to = rows[len(rows)/3].T, rows[2*len(rows)/3].T
		}
		pts, err := appendPowerPoints([][2]float64{{1, 2}}, p, from, to)
		if err != nil {
			t.Fatalf("day %d: %v", k, err)
		}
		want := [][2]float64{{1, 2}}
		for i := range rows {
			if rows[i].T >= from && rows[i].T < to {
				want = append(want, [2]float64{float64(rows[i].T), rows[i].F[0]})
			}
		}
		if len(pts) != len(want) {
			t.Fatalf("day %d: %d points, want %d", k, len(pts), len(want))
		}
		for i := range pts {
			if pts[i][0] != want[i][0] || math.Float64bits(pts[i][1]) != math.Float64bits(want[i][1]) {
				t.Fatalf("day %d, point %d: %v, want %v", k, i, pts[i], want[i])
			}
		}
		for _, cut := range []int{0, 1, len(p) / 2, len(p) - 1} {
			if cut >= len(p) || len(rows) < 2 {
				continue
			}
			if _, err := appendPowerPoints(nil, p[:cut], math.MinInt64, math.MaxInt64); err == nil {
				t.Errorf("day %d: a row cut at %d of %d bytes read", k, cut, len(p))
			}
		}
		if _, err := appendPowerPoints(nil, append(p, 0), math.MinInt64, math.MaxInt64); err == nil {
			t.Errorf("day %d: a row with a byte too many read", k)
		}
	}
}

// A day of 5-minute samples of slowly changing power takes well under the 8 bytes of a
// float a sample, with its instants.
func TestPowerRowCompresses(t *testing.T) {
	rows := slowDay()
	if per := float64(len(encodePower(rows))) / float64(len(rows)); per > 4 {
		t.Fatalf("%.2f bytes a sample", per)
	}
}

func FuzzPowerRowDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, rows := range powerDays(rng) {
		f.Add(encodePower(rows[:min(len(rows), 12)])) // short: the fuzzer minimizes long inputs slowly
	}
	f.Add([]byte{powerVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := appendPowerPoints(nil, b, math.MinInt64, math.MaxInt64); err != nil {
			return
		}
		p, _ := openPowerRow(b)
		rows := make([]blockRow, p.n)
		for i := range rows {
			rows[i].T = p.nextTime()
		}
		for i := range rows {
			rows[i].F[0] = p.nextValue()
		}
		back := make([]blockRow, len(rows))
		for i := range rows {
			back[i].T = rows[i].T
		}
		if err := setPower(back, encodePower(rows)); err != nil {
			t.Fatalf("a decoded row does not round-trip: %v", err)
		}
		for i := range rows {
			if math.Float64bits(back[i].F[0]) != math.Float64bits(rows[i].F[0]) {
				t.Fatalf("sample %d differs", i)
			}
		}
	})
}

// BenchmarkPowerOfADay decodes a day's power: from its power row, and from the head of a
// block of version 2 (inflated).
func BenchmarkPowerOfADay(b *testing.B) {
	rng := rand.New(rand.NewPCG(15, 16))
	ss := solarDays(rng, 1, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 6, 2, 0, 0, 0, 0, time.UTC), 10)
	rows := make([]blockRow, len(ss))
	for i := range ss {
		rows[i] = blockRowOf(newRawRow(ss[i], -1))
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"power row", encodePower(rows)}, {"block of version 2", encodeBlockV2(rows, deflateTo)}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			dst := make([][2]float64, 0, len(rows))
			for range b.N {
				pts, err := appendBlockPoints(dst, tc.data, 0, math.MinInt64, math.MaxInt64)
				if err != nil || len(pts) != len(rows) {
					b.Fatalf("%d points: %v", len(pts), err)
				}
			}
		})
	}
}
