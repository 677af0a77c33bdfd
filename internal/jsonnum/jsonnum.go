// Package jsonnum writes numbers and strings as encoding/json writes them, for the few
// places whose JSON is written by hand because reflection shows in their cost (a device's
// history answer, the fleet's and a station's series, the counter state stored with every
// raw sample).
package jsonnum

import (
	"encoding/json"
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

// AppendPairs appends points as encoding/json writes a [][2]float64 (null when nil);
// false on a NaN or an infinity.
func AppendPairs(b []byte, points [][2]float64) ([]byte, bool) {
	if points == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, p := range points {
		if i > 0 {
			b = append(b, ',')
		}
		var ok0, ok1 bool
		b, ok0 = AppendFloat(append(b, '['), p[0])
		b, ok1 = AppendFloat(append(b, ','), p[1])
		if !ok0 || !ok1 {
			return b, false
		}
		b = append(b, ']')
	}
	return append(b, ']'), true
}

// AppendString appends s quoted as encoding/json writes it: printable ASCII other than
// the characters it escapes (" \ < > &) is written as is, anything else through
// encoding/json.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}
