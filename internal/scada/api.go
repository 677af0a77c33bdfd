package scada

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Request bodies.
type (
	// Empty is a call without arguments.
	Empty struct{}
	// StationRef names a station.
	StationRef struct {
		StationID int64 `json:"stationId" validate:"required"`
	}
	// DeviceRef names a device.
	DeviceRef struct {
		DeviceID int64 `json:"deviceId" validate:"required"`
	}
	// MapRef names a map and optionally a version (0: current).
	MapRef struct {
		ID      int64 `json:"id" validate:"required"`
		Version int   `json:"version"`
	}
	// LinkInput sets a device's connection.
	LinkInput struct {
		DeviceID  int64  `json:"deviceId" validate:"required"`
		Host      string `json:"host" validate:"required" doc:"IP address or host name of the device or its gateway"`
		Port      int    `json:"port" doc:"default 502"`
		UnitID    int    `json:"unitId" doc:"0-247 (default 1)"`
		IntervalS int    `json:"intervalS" doc:"5-3600 s (default 60)"`
		TimeoutMs int    `json:"timeoutMs" doc:"100-30000 ms (default 2000)"`
		MapID     int64  `json:"mapId" doc:"0: SunSpec discovery"`
	}
	// MapListQuery filters the map list.
	MapListQuery struct {
		Name string `query:"name" maxLen:"64" doc:"part of the name or model"`
		httpapi.Paging
	}
)

// Project is the organisation's field overview.
type Project struct {
	Maps       int `json:"maps"`
	Devices    int `json:"devices" doc:"devices with a field connection"`
	Online     int `json:"online"`
	Connecting int `json:"connecting"`
	Offline    int `json:"offline"`
	Gateways   int `json:"gateways" doc:"addresses shared by several devices"`
}

// DeviceField is a device with its connection and poll status.
type DeviceField struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	SN          string  `json:"sn"`
	Type        string  `json:"type"`
	StationID   int64   `json:"stationId"`
	StationName string  `json:"stationName"`
	Link        *Link   `json:"link" doc:"null when the device is not read over Modbus"`
	Status      *Status `json:"status" doc:"null until the poller has the device"`
}

// Routes registers the /v1/scada calls.
func (s *Service) Routes(api *httpapi.API) {
	add := func(method, path, summary string, access httpapi.Access, body, resp any, h func(*http.Request) (any, error)) {
		api.Add(httpapi.Route{Method: method, Path: path, Tag: "scada", Summary: summary, Access: access, Body: body, Resp: resp, Handle: h})
	}
	add("POST", "/v1/scada/project/get", "Field overview: maps, connected devices and their communication", httpapi.Signed, Empty{}, Project{}, s.project)
	add("POST", "/v1/scada/site/get", "A station's devices with their field connection and poll status", httpapi.Signed, StationRef{}, []DeviceField{}, s.site)
	add("POST", "/v1/scada/dev/get", "One device's field connection, poll status and last errors", httpapi.Signed, DeviceRef{}, DeviceField{}, s.dev)
	add("POST", "/v1/scada/dev/set", "Connect a device over Modbus TCP (applied without restart)", httpapi.Admin, LinkInput{}, DeviceField{}, s.setLink)
	add("POST", "/v1/scada/dev/delete", "Stop reading a device over Modbus TCP", httpapi.Admin, DeviceRef{}, DeviceField{}, s.deleteLink)
	add("POST", "/v1/scada/register/get", "Read a device's registers live (raw and decoded)", httpapi.Signed, DeviceRef{}, Live{}, s.registers)
	add("POST", "/v1/scada/register/set", "Write a writable register (administrators, confirmed, audited)", httpapi.Admin, WriteInput{}, Live{}, s.write)
	add("POST", "/v1/scada/register/config/add", "Add a register map, or the next version of one (also imports an exported file)", httpapi.Admin, MapInput{}, MapDetail{}, s.addMap)
	add("POST", "/v1/scada/register/config/preview", "Read a map being edited once against a connected device: each register raw, decoded, or why not (nothing saved)", httpapi.Admin, PreviewInput{}, Live{}, s.preview)
	add("POST", "/v1/scada/template/list", "The shipped register maps (Huawei SUN2000, Sungrow SG, Growatt MAX/MID) to start a map from", httpapi.Signed, Empty{}, []MapInput{}, s.templates)
	add("POST", "/v1/scada/config/get", "A register map (a version of it) with its registers and versions", httpapi.Signed, MapRef{}, MapDetail{}, s.getMap)
	add("POST", "/v1/scada/config/delete", "Delete a register map no device uses", httpapi.Admin, MapRef{}, MapSummary{}, s.deleteMap)
	api.Add(httpapi.Route{Method: "GET", Path: "/v1/scada/project/register/config/list", Tag: "scada", Summary: "The organisation's register maps, paged",
		Access: httpapi.Signed, Query: MapListQuery{}, Resp: httpapi.Page[MapSummary]{}, Handle: s.listMaps})
	api.Add(httpapi.Route{Method: "GET", Path: "/v1/scada/config/export/{id}", Tag: "scada", Summary: "A register map as a file to import elsewhere",
		Access: httpapi.Signed, RawTypes: []string{"application/vnd.helio.regmap+json"}, Raw: s.export})
}

func (s *Service) project(r *http.Request) (any, error) {
	var in Empty
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	var out Project
	if err := s.DB.QueryRow(r.Context(), "SELECT COUNT(*) FROM register_maps WHERE org_id = ?", p.OrgID).Scan(&out.Maps); err != nil {
		return nil, httpapi.Internal(err)
	}
	devs, _, err := device.List(r.Context(), s.DB, p, device.Filter{})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	fields, err := s.fields(r.Context(), devs)
	if err != nil {
		return nil, err
	}
	addrs := map[string]int{}
	for _, f := range fields {
		if f.Link == nil {
			continue
		}
		out.Devices++
		addrs[f.Link.Addr()]++
		switch s.Comm(f.ID) {
		case StateOnline:
			out.Online++
		case StateOffline:
			out.Offline++
		default:
			out.Connecting++
		}
	}
	for _, n := range addrs {
		if n > 1 {
			out.Gateways++
		}
	}
	return out, nil
}

// fields joins devices with their links and statuses.
func (s *Service) fields(ctx context.Context, devs []*device.Device) ([]DeviceField, error) {
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	links, err := Links(ctx, s.DB, ids)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	linked := make([]int64, 0, len(links))
	for id := range links {
		linked = append(linked, id)
	}
	sts, err := s.statuses(ctx, linked)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := make([]DeviceField, 0, len(devs))
	for _, d := range devs {
		f := DeviceField{ID: d.ID, Name: d.Name, SN: d.SN, Type: d.Type, StationID: d.StationID, StationName: d.StationName, Link: links[d.ID]}
		if st, ok := sts[d.ID]; ok && f.Link != nil {
			f.Status = &st
		}
		out = append(out, f)
	}
	return out, nil
}

func (s *Service) site(r *http.Request) (any, error) {
	var in StationRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.StationID <= 0 {
		return nil, httpapi.InvalidField("stationId", "required")
	}
	p := httpapi.Caller(r)
	if _, err := station.Get(r.Context(), s.DB, p, in.StationID); errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	devs, _, err := device.List(r.Context(), s.DB, p, device.Filter{StationIDs: []int64{in.StationID}})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.fields(r.Context(), devs)
}

// device loads a device the caller may see (404 otherwise).
func (s *Service) device(r *http.Request, id int64) (*device.Device, error) {
	if id <= 0 {
		return nil, httpapi.InvalidField("deviceId", "required")
	}
	d, err := device.Get(r.Context(), s.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return d, nil
}

func (s *Service) field(ctx context.Context, d *device.Device) (*DeviceField, error) {
	fs, err := s.fields(ctx, []*device.Device{d})
	if err != nil {
		return nil, err
	}
	return &fs[0], nil
}

func (s *Service) dev(r *http.Request) (any, error) {
	var in DeviceRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	return s.field(r.Context(), d)
}

// Validate checks a link and fills its defaults.
func (in *LinkInput) Validate() error {
	var v httpapi.Validator
	in.Host = strings.TrimSpace(in.Host)
	if v.Required("host", in.Host) {
		v.MaxLen("host", in.Host, 253)
		if strings.ContainsAny(in.Host, " /\\?#@[]") {
			v.Add("host", "scada_host")
		}
	}
	if in.Port == 0 {
		in.Port = 502
	}
	if in.IntervalS == 0 {
		in.IntervalS = 60
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 2000
	}
	v.Range("port", float64(in.Port), 1, 65535)
	v.Range("unitId", float64(in.UnitID), 0, 247)
	v.Range("intervalS", float64(in.IntervalS), 1, 3600)
	v.Range("timeoutMs", float64(in.TimeoutMs), 100, 30000)
	if in.MapID < 0 {
		v.Add("mapId", "out_of_range", 0, "∞")
	}
	if in.TimeoutMs > in.IntervalS*1000 {
		v.Add("timeoutMs", "scada_timeout_interval")
	}
	return v.Err()
}

func (s *Service) setLink(r *http.Request) (any, error) {
	var in LinkInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	if in.UnitID == 0 {
		in.UnitID = 1
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if in.MapID != 0 {
		if _, err := GetMap(r.Context(), s.DB, p.OrgID, in.MapID, 0); errors.Is(err, store.ErrNotFound) {
			return nil, httpapi.InvalidField("mapId", "not_found")
		} else if err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	l := &Link{DeviceID: d.ID, Host: in.Host, Port: in.Port, UnitID: in.UnitID, IntervalS: in.IntervalS, TimeoutMs: in.TimeoutMs, MapID: in.MapID}
	if err := SaveLink(r.Context(), s.DB, p.OrgID, l); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "scada.dev.set", d.SN, fmt.Sprintf("%s unit %d every %d s map %d", l.Addr(), l.UnitID, l.IntervalS, l.MapID), httpapi.ClientAddr(r))
	s.linksChanged(r.Context())
	return s.field(r.Context(), d)
}

func (s *Service) deleteLink(r *http.Request) (any, error) {
	var in DeviceRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	ok, err := DeleteLink(r.Context(), s.DB, d.ID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if !ok {
		return nil, httpapi.Conflict("scada_not_linked")
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "scada.dev.delete", d.SN, d.Name, httpapi.ClientAddr(r))
	s.linksChanged(r.Context())
	return s.field(r.Context(), d)
}
