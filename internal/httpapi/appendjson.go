package httpapi

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// Appender is an answer that writes its own JSON, byte for byte what encoding/json
// writes for it, for an answer whose size makes reflection show (a device's history of
// hundreds of points). AppendJSON fails where encoding/json would (a NaN or an infinity).
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// ErrUnsupportedFloat is an Appender's error for a value JSON cannot hold.
var ErrUnsupportedFloat = errors.New("httpapi: NaN or infinity in an answer")

// AppendFloat appends f as encoding/json writes a float64; false for NaN and ±Inf.
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

// appendEnvelope writes env with an Appender's data as encoding/json's Encoder would
// (a newline after); false when the data cannot be written.
func appendEnvelope(b []byte, env Envelope, data Appender) ([]byte, bool) {
	msg, err := json.Marshal(env.Msg)
	if err != nil {
		return b, false
	}
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(env.Code), 10)
	b = append(b, `,"msg":`...)
	b = append(b, msg...)
	b = append(b, `,"data":`...)
	if b, err = data.AppendJSON(b); err != nil {
		return b, false
	}
	return append(b, "}\n"...), true
}
