package sim

import "math"

// Deterministic randomness.
//
// Everything random in the simulator is a pure function of the seed and of what it is
// about (a station, a device, an hour, a month), computed with SplitMix64-style mixing.
// No generator state is shared between stations, so the samples do not depend on the
// order in which stations are stepped or on how many goroutines step them.

// mix64 is the SplitMix64 finaliser: a fast, well-distributed 64-bit bijection.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// hash2 and hash3 combine values into one well-mixed word.
func hash2(a, b uint64) uint64    { return mix64(a ^ mix64(b)) }
func hash3(a, b, c uint64) uint64 { return mix64(a ^ mix64(b^mix64(c))) }

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) * (1.0 / (1 << 53)) }

// signed maps a hash to [-1, 1).
func signed(h uint64) float64 { return 2*unit(h) - 1 }

// strHash is FNV-1a over a string, used to derive per-station and per-device seeds from
// their stable keys (so adding a station does not reshuffle the others).
func strHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return mix64(h)
}

// rng is a tiny sequential generator for places that draw several numbers in a row
// (fault scheduling, weather chains). It is always created from a derived seed, used
// locally and thrown away.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) float() float64 { return unit(r.next()) }

// intn returns a value in [0, n).
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(r.next() % uint64(n))
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
