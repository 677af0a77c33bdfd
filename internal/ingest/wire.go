package ingest

import (
	"bytes"
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
