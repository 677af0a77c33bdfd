package station

import (
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/jsonnum"
)

// AppendJSON implements httpapi.Appender: a day of the station's 5-minute power is among
// the larger answers of the station screen, and reflection over its floats was a quarter
// of its cost. The bytes are encoding/json's (TestSeriesAsEncodingJSON).
func (s Series) AppendJSON(b []byte) ([]byte, error) {
	b = append(jsonnum.AppendString(append(b, `{"unit":`...), s.Unit), `,"points":`...)
	b, ok := jsonnum.AppendPairs(b, s.Points)
	if !ok {
		return b, httpapi.ErrUnsupportedFloat
	}
	return append(b, '}'), nil
}
