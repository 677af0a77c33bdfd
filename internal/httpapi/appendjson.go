package httpapi

import (
	"encoding/json"
	"errors"
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
