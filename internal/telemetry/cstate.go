package telemetry

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/helio-energy/helio/internal/jsonnum"
)

// The counter state stored with a raw sample (the cstate column), so that a late sample
// can re-run the counter logic from any stored row. It is JSON, written by hand: a row
// whose state cannot be rebuilt from its reading alone (a counter held above a noisy
// reading, a reset being confirmed) is common on some meters, and encoding/json's
// reflection was a tenth of such a batch's write time. The bytes are encoding/json's
// (TestCounterStateAsEncodingJSON), so rows written before and after read alike.

type storedState struct {
	A     *CounterState `json:"a,omitempty"`
	B     *CounterState `json:"b,omitempty"`
	First bool          `json:"f,omitempty"`
}

// cstate encodes the counter state for the cstate column: NULL when it can be rebuilt
// from the reading itself.
func (r *rawRow) cstate() any {
	var s storedState
	if !r.C1.trivial(r.EnergyKWh, r.T) {
		s.A = &r.C1
	}
	if !r.C2.trivial(r.Energy2KWh, r.T) {
		s.B = &r.C2
	}
	s.First = r.First
	if s.A == nil && s.B == nil && !s.First {
		return nil
	}
	if b, ok := s.appendJSON(make([]byte, 0, 64)); ok {
		return string(b)
	}
	b, _ := json.Marshal(s) // a NaN or an infinity: stored as before, as no state
	return string(b)
}

// appendJSON appends s as encoding/json writes it; false when a value JSON cannot hold
// (NaN, ±Inf).
func (s *storedState) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, '{')
	ok := true
	if s.A != nil {
		b = append(b, `"a":`...)
		b, ok = s.A.appendJSON(b)
	}
	if s.B != nil && ok {
		if s.A != nil {
			b = append(b, ',')
		}
		b = append(b, `"b":`...)
		b, ok = s.B.appendJSON(b)
	}
	if s.First {
		if s.A != nil || s.B != nil {
			b = append(b, ',')
		}
		b = append(b, `"f":true`...)
	}
	return append(b, '}'), ok
}

// appendJSON appends c as encoding/json writes it: its fields in order under their tags,
// zeros left out (omitempty).
func (c *CounterState) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, '{')
	first, ok := true, true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `":`...)
	}
	float := func(k string, f float64) {
		if f != 0 && ok {
			key(k)
			b, ok = jsonnum.AppendFloat(b, f)
		}
	}
	integer := func(k string, n int64) {
		if n != 0 {
			key(k)
			b = strconv.AppendInt(b, n, 10)
		}
	}
	float("r", c.Ref)
	integer("rt", c.RefT)
	float("h", c.Held)
	integer("ht", c.HeldT)
	integer("hn", int64(c.HeldN))
	float("he", c.HeldE)
	float("pv", c.PendV)
	integer("pt", c.PendT)
	float("lv", c.LastV)
	integer("lt", c.LastT)
	integer("pn", int64(c.PendN))
	return append(b, '}'), ok
}

func (r *rawRow) setState(cs sql.NullString) error {
	r.C1 = CounterState{Ref: r.EnergyKWh, RefT: r.T}
	r.C2 = CounterState{Ref: r.Energy2KWh, RefT: r.T}
	r.First = false
	if !cs.Valid || cs.String == "" {
		return nil
	}
	var s storedState
	if err := json.Unmarshal([]byte(cs.String), &s); err != nil {
		return fmt.Errorf("telemetry: unreadable counter state of device %d at %d: %w", r.DeviceID, r.T, err)
	}
	if s.A != nil {
		r.C1 = *s.A
	}
	if s.B != nil {
		r.C2 = *s.B
	}
	r.First = s.First
	return nil
}
