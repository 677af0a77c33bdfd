package ingest

import (
	"strconv"
	"time"
)

// The scanner under the fast path: one pass over the bytes of a samples array, no reflection.

// wireScanner reads b from i; a method that returns false has found something it does
// not read, and the whole read is declined.
type wireScanner struct {
	b []byte
	i int
	// serial numbers read: a batch names few devices, each many times, and the samples
	// share one string per device
	last string
	sns  map[string]string
}

// maxInterned bounds the serial numbers kept for sharing.
const maxInterned = 1024

func (s *wireScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0 // no JSON token starts with NUL
}

func (s *wireScanner) eat(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// space skips JSON whitespace (exactly the four bytes JSON allows).
func (s *wireScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// end tells whether only whitespace is left.
func (s *wireScanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

func (s *wireScanner) colon() bool {
	s.space()
	if !s.eat(':') {
		return false
	}
	s.space()
	return true
}

// str reads a string and returns its bytes, which are its value: only printable ASCII
// is read (encoding/json would unescape, and replace invalid UTF-8).
func (s *wireScanner) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	for j := s.i; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			v := s.b[s.i:j]
			s.i = j + 1
			return v, true
		case c < ' ' || c == '\\' || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// number reads a number by the JSON grammar and returns its literal; integer tells that
// it has neither fraction nor exponent. What follows is left to the caller, so that
// 01 or 1.5.5 read as a number followed by a stray byte.
func (s *wireScanner) number() (lit []byte, integer, ok bool) {
	b, i := s.b, s.i
	digits := func(i int) int {
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(i + 1)
	default:
		return nil, false, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return nil, false, false
		}
		i, integer = j, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return nil, false, false
		}
		i, integer = j, false
	}
	lit = b[s.i:i]
	s.i = i
	return lit, integer, true
}

// array reads [ object, ... ]; hint is the capacity to start with. An empty array gives
// an empty slice that is not nil, as encoding/json does.
func (s *wireScanner) array(hint int) ([]WireSample, bool) {
	if !s.eat('[') {
		return nil, false
	}
	out := make([]WireSample, 0, max(hint, 0))
	s.space()
	if s.eat(']') {
		return out, true
	}
	for {
		if s.peek() != '{' {
			return nil, false
		}
		out = append(out, WireSample{})
		if !s.object(&out[len(out)-1]) {
			return nil, false
		}
		s.space()
		switch {
		case s.eat(','):
			s.space()
		case s.eat(']'):
			return out, true
		default:
			return nil, false
		}
	}
}

// object reads one sample into w (zero). A key given twice is declined: encoding/json
// keeps the last, but a second time that is invalid would still be an error.
func (s *wireScanner) object(w *WireSample) bool {
	if !s.eat('{') {
		return false
	}
	s.space()
	if s.eat('}') {
		return true
	}
	var seen uint16
	for {
		k, ok := s.str()
		if !ok {
			return false
		}
		f := wireField(k)
		if f < 0 || seen&(1<<f) != 0 || !s.colon() || !s.value(w, f) {
			return false
		}
		seen |= 1 << f
		s.space()
		switch {
		case s.eat(','):
			s.space()
		case s.eat('}'):
			return true
		default:
			return false
		}
	}
}

// value reads field f's value into w, with encoding/json's conversions.
func (s *wireScanner) value(w *WireSample, f int) bool {
	switch f {
	case fSN:
		v, ok := s.str()
		if !ok {
			return false
		}
		w.SN = s.intern(v)
		return true
	case fTime:
		return s.time(w)
	case fStatus, fStringsActive:
		lit, integer, ok := s.number()
		if !ok || !integer {
			return false
		}
		n, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil || int64(int(n)) != n {
			return false
		}
		if f == fStatus {
			w.Status = int(n)
		} else {
			w.StringsActive = int(n)
		}
		return true
	default:
		lit, _, ok := s.number()
		if !ok {
			return false
		}
		v, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			return false
		}
		*w.float(f) = v
		return true
	}
}

// time reads a time as WireTime.UnmarshalJSON does; an invalid one is declined, for
// encoding/json to report.
func (s *wireScanner) time(w *WireSample) bool {
	var v time.Time
	if s.peek() == '"' {
		str, ok := s.str()
		if !ok {
			return false
		}
		p, err := time.Parse(time.RFC3339Nano, string(str))
		if err != nil {
			return false
		}
		v = p
	} else {
		lit, _, ok := s.number()
		if !ok {
			return false
		}
		ms, err := strconv.ParseInt(string(lit), 10, 64) // as UnmarshalJSON: 1e3 and 1.0 are not read
		if err != nil {
			return false
		}
		v = time.UnixMilli(ms).UTC()
	}
	if v.Before(minWireTime) || !v.Before(maxWireTime) {
		return false
	}
	w.Time = WireTime(v)
	return true
}

// intern returns v as a string, the same one as for an equal v before.
func (s *wireScanner) intern(v []byte) string {
	if s.last == string(v) {
		return s.last
	}
	sn, ok := s.sns[string(v)]
	if !ok {
		sn = string(v)
		switch {
		case s.sns == nil && s.last == "":
			// the first: a payload of one device needs no map
		case s.sns == nil:
			s.sns = map[string]string{s.last: s.last, sn: sn}
		case len(s.sns) < maxInterned:
			s.sns[sn] = sn
		}
	}
	s.last = sn
	return sn
}
