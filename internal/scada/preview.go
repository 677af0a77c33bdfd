package scada

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// PreviewInput reads a map that is being edited once against a connected device.
type PreviewInput struct {
	DeviceID int64    `json:"deviceId" validate:"required" doc:"a device with a field connection (its map, if any, is not changed)"`
	Map      MapInput `json:"map" validate:"required" doc:"the map as edited; nothing is saved"`
}

// UnmarshalJSON reads the call strictly and names a map problem under map.
// (registers[3].foo becomes map.registers[3].foo).
func (in *PreviewInput) UnmarshalJSON(b []byte) error {
	var top struct {
		DeviceID int64           `json:"deviceId"`
		Map      json.RawMessage `json:"map"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&top); err != nil {
		return fieldError("", err)
	}
	in.DeviceID = top.DeviceID
	if len(top.Map) == 0 || string(top.Map) == "null" {
		return &httpapi.FieldError{Field: "map", Key: "required"}
	}
	if err := json.Unmarshal(top.Map, &in.Map); err != nil {
		var fe *httpapi.FieldError
		var ute *json.UnmarshalTypeError
		switch {
		case errors.As(err, &fe):
			return &httpapi.FieldError{Field: "map." + fe.Field, Key: fe.Key, Args: fe.Args}
		case errors.As(err, &ute) && ute.Field == "":
			return &httpapi.FieldError{Field: "map", Key: "wrong_type", Args: []any{"an object"}}
		}
		return fieldError("map.", err)
	}
	return nil
}

// withPrefix renames a 400's fields under prefix.
func withPrefix(err error, prefix string) error {
	var he *httpapi.Error
	if !errors.As(err, &he) || len(he.Fields) == 0 {
		return err
	}
	fields := make(map[string]httpapi.Msg, len(he.Fields))
	for k, m := range he.Fields {
		fields[prefix+k] = m
	}
	return httpapi.Invalid(fields)
}

func (s *Service) preview(r *http.Request) (any, error) {
	var in PreviewInput
	if err := httpapi.DecodeLimit(r, &in, maxMapBody); err != nil {
		return nil, err
	}
	if in.Map.Name == "" {
		in.Map.Name = "preview" // a map being written may not be named yet
	}
	if err := in.Map.Validate(); err != nil {
		return nil, withPrefix(err, "map.")
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	a := s.debug(r.Context(), debugCall{Op: opPreview, DeviceID: d.ID, Registers: in.Map.Registers})
	if err := a.err(); err != nil {
		return nil, s.deviceFailure(err)
	}
	a.Live.MapName = in.Map.Name
	return a.Live, nil
}

// previewRead reads regs once on the device's connection (its unit id), as liveRead does
// for the device's own map.
func previewRead(ss *Session, id int64, regs []Register) (*Live, error) {
	start := time.Now()
	ss.l.setUnit(ss.Target.Unit)
	rd, err := previewMap(ss.l, regs)
	if err != nil {
		return nil, err
	}
	return &Live{DeviceID: id, Protocol: "map", ReadAt: start.UTC().Truncate(time.Millisecond), Registers: liveRegisters(regs, rd),
		LatencyMs: float64(time.Since(start).Microseconds()) / 1000}, nil
}
