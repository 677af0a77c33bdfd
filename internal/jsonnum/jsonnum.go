// Package jsonnum writes numbers as encoding/json writes them, for the few places whose
// JSON is written by hand because reflection shows in their cost (a device's history
// answer, the counter state stored with every raw sample).
package jsonnum

import (
	"math"
	"strconv"
)

// AppendFloat appends f as encoding/json writes a float64; false for NaN and ±Inf, which
// encoding/json refuses.
func AppendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	abs := math.Abs(f)
	if abs < 1e15 && f == math.Trunc(f) {
		// an integer: what 'f' formatting writes, without its search for the shortest digits
		if f == 0 && math.Signbit(f) {
			return append(b, "-0"...), true
		}
		return strconv.AppendInt(b, int64(f), 10), true
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json does
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}
