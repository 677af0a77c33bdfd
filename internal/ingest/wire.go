package ingest

import (
	"bytes"
	"strconv"
	"time"
)

// A fast reader for the two shapes samples arrive in: an MQTT payload (one sample object
// or an array of them) and the HTTP body {"samples":[...]}. It reads only the plain form
// devices send — keys spelled exactly as the json tags, each at most once, numbers,
// strings of printable ASCII without escapes, times as unix milliseconds or RFC 3339 —
// and declines (ok false) anything else, whether valid or not: the caller then decodes
// with encoding/json, which gives the result or the error. What it accepts, it reads to
// the same values encoding/json would (the same strconv and time calls on the same
// literal bytes); wire_test.go checks that property.

// Field numbers of WireSample, as bits of the set of keys an object has given.
const (
	fSN = iota
	fTime
	fPowerKW
	fEnergyKWh
	fEnergy2KWh
	fDCVoltageV
	fDCCurrentA
	fACVoltageV
	fFrequencyHz
	fTempC
	fSOC
	fIrradianceWm2
	fStatus
	fStringsActive
)

// wireField numbers a key by its exact spelling; encoding/json would also take other
// cases of it, which the fast reader leaves to encoding/json (-1).
func wireField(key []byte) int {
	switch string(key) {
	case "sn":
		return fSN
	case "time":
		return fTime
	case "powerKw":
		return fPowerKW
	case "energyKwh":
		return fEnergyKWh
	case "energy2Kwh":
		return fEnergy2KWh
	case "dcVoltageV":
		return fDCVoltageV
	case "dcCurrentA":
		return fDCCurrentA
	case "acVoltageV":
		return fACVoltageV
	case "frequencyHz":
		return fFrequencyHz
	case "tempC":
		return fTempC
	case "soc":
		return fSOC
	case "irradianceWm2":
		return fIrradianceWm2
	case "status":
		return fStatus
	case "stringsActive":
		return fStringsActive
	}
	return -1
}

func (w *WireSample) float(f int) *float64 {
	switch f {
	case fPowerKW:
		return &w.PowerKW
	case fEnergyKWh:
		return &w.EnergyKWh
	case fEnergy2KWh:
		return &w.Energy2KWh
	case fDCVoltageV:
		return &w.DCVoltageV
	case fDCCurrentA:
		return &w.DCCurrentA
	case fACVoltageV:
		return &w.ACVoltageV
	case fFrequencyHz:
		return &w.FrequencyHz
	case fTempC:
		return &w.TempC
	case fSOC:
		return &w.SOC
	case fIrradianceWm2:
		return &w.IrradianceWm2
	}
	return nil
}

// maxHint bounds the samples allocated ahead from a count of '{' (which strings may
// inflate), so that a payload of braces cannot make a large allocation.
const maxHint = 4096

// fastSamples reads an MQTT payload: one sample object or an array of them.
func fastSamples(b []byte) ([]WireSample, bool) {
	s := wireScanner{b: b}
	s.space()
	var out []WireSample
	ok := false
	switch s.peek() {
	case '[':
		out, ok = s.array(min(bytes.Count(b, []byte{'{'}), maxHint))
	case '{':
		out = make([]WireSample, 1)
		ok = s.object(&out[0])
	}
	if !ok || !s.end() {
		return nil, false
	}
	return out, true
}

// fastRequest reads an HTTP body {"samples":[...]}; the key is required (a body
// without it is left to encoding/json).
func fastRequest(b []byte) (IngestRequest, bool) {
	s := wireScanner{b: b}
	s.space()
	if !s.eat('{') {
		return IngestRequest{}, false
	}
	s.space()
	if k, ok := s.str(); !ok || string(k) != "samples" || !s.colon() {
		return IngestRequest{}, false
	}
	samples, ok := s.array(min(bytes.Count(b, []byte{'{'})-1, maxHint))
	s.space()
	if !ok || !s.eat('}') || !s.end() {
		return IngestRequest{}, false
	}
	return IngestRequest{Samples: samples}, true
}

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
