package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// WireSample is a sample as devices send it: the telemetry.Sample fields without the
// device id, with the device named by its serial number (sn) where the topic does not
// name it.
type WireSample struct {
	SN            string   `json:"sn,omitempty" doc:"device serial number"`
	Time          WireTime `json:"time" doc:"RFC 3339 or unix milliseconds"`
	PowerKW       float64  `json:"powerKw"`
	EnergyKWh     float64  `json:"energyKwh"`
	Energy2KWh    float64  `json:"energy2Kwh"`
	DCVoltageV    float64  `json:"dcVoltageV"`
	DCCurrentA    float64  `json:"dcCurrentA"`
	ACVoltageV    float64  `json:"acVoltageV"`
	FrequencyHz   float64  `json:"frequencyHz"`
	TempC         float64  `json:"tempC"`
	SOC           float64  `json:"soc"`
	IrradianceWm2 float64  `json:"irradianceWm2"`
	Status        int      `json:"status"`
	StringsActive int      `json:"stringsActive"`
}

// Sample converts to the write path's shape.
func (w *WireSample) Sample(deviceID int64) telemetry.Sample {
	return telemetry.Sample{DeviceID: deviceID, Time: time.Time(w.Time), PowerKW: w.PowerKW, EnergyKWh: w.EnergyKWh,
		Energy2KWh: w.Energy2KWh, DCVoltageV: w.DCVoltageV, DCCurrentA: w.DCCurrentA, ACVoltageV: w.ACVoltageV,
		FrequencyHz: w.FrequencyHz, TempC: w.TempC, SOC: w.SOC, IrradianceWm2: w.IrradianceWm2, Status: w.Status,
		StringsActive: w.StringsActive}
}

// WireTime is an instant given as an RFC 3339 string or as unix milliseconds.
type WireTime time.Time

// OpenAPISchema describes the two forms a time may take.
func (WireTime) OpenAPISchema() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "string", "format": "date-time"},
		map[string]any{"type": "integer", "description": "unix milliseconds"},
	}}
}

// Instants outside [1970, 10000) are not device readings.
var (
	minWireTime = time.Unix(0, 0)
	maxWireTime = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
)

// UnmarshalJSON reads either form.
func (t *WireTime) UnmarshalJSON(b []byte) error {
	bad := &httpapi.FieldError{Field: "time", Key: "invalid_format"}
	var v time.Time
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		p, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return bad
		}
		v = p
	} else {
		ms, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return bad
		}
		v = time.UnixMilli(ms).UTC()
	}
	if v.Before(minWireTime) || !v.Before(maxWireTime) {
		return bad
	}
	*t = WireTime(v)
	return nil
}

// MarshalJSON writes RFC 3339.
func (t WireTime) MarshalJSON() ([]byte, error) { return json.Marshal(time.Time(t)) }

var errEmpty = errors.New("ingest: empty payload")

// ParsePayload reads an MQTT payload: one sample object or an array of them, strictly
// (unknown fields and trailing data are errors; a sample needs a time).
func ParsePayload(b []byte) ([]WireSample, error) {
	out, ok := fastSamples(b)
	if !ok {
		var err error
		if out, err = decodePayload(b); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if time.Time(out[i].Time).IsZero() {
			return nil, fmt.Errorf("ingest: sample %d has no time", i)
		}
	}
	return out, nil
}

// decodePayload is ParsePayload with encoding/json, for every payload (fastSamples
// reads only the common ones).
func decodePayload(b []byte) ([]WireSample, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errEmpty
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var out []WireSample
	if b[0] == '[' {
		if err := dec.Decode(&out); err != nil {
			return nil, err
		}
	} else {
		var one WireSample
		if err := dec.Decode(&one); err != nil {
			return nil, err
		}
		out = []WireSample{one}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("ingest: data after the payload")
	}
	return out, nil
}
