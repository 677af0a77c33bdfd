package device

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/station"
)

// Adding and editing devices: the body, its checks and where a device may be placed.

// Input is the body of POST /v2/dev/add and /v2/dev/edit/{uid}.
type Input struct {
	StationID            int64   `json:"stationId" validate:"required" doc:"the station the device belongs to"`
	ParentID             int64   `json:"parentId" doc:"parent device in the tree, 0 for directly under the station"`
	Name                 string  `json:"name" validate:"required"`
	SN                   string  `json:"sn" validate:"required"`
	Type                 string  `json:"type" validate:"required"`
	CustomType           string  `json:"customType"`
	Model                string  `json:"model"`
	RatedPowerKW         float64 `json:"ratedPowerKw"`
	CapacityKWh          float64 `json:"capacityKwh"`
	ComponentRatedPowerW float64 `json:"componentRatedPowerW"`
	ComponentCount       int     `json:"componentCount"`
	StringsTotal         int     `json:"stringsTotal"`
	StringsEnabled       int     `json:"stringsEnabled"`
	MeterPosition        string  `json:"meterPosition"`
	CollectorSN          string  `json:"collectorSn"`
}

var snRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._\-]{2,63}$`)

// Validate checks the device form rules (SPEC.md section 5) and plausible ranges.
func (in *Input) Validate() error {
	var v httpapi.Validator
	for _, f := range []*string{&in.Name, &in.SN, &in.Type, &in.CustomType, &in.Model, &in.MeterPosition, &in.CollectorSN} {
		*f = strings.TrimSpace(*f)
	}
	if in.StationID <= 0 {
		v.Add("stationId", "required")
	}
	v.Required("name", in.Name)
	v.MaxLen("name", in.Name, 100)
	if v.Required("sn", in.SN) && !snRe.MatchString(in.SN) {
		v.Add("sn", "invalid_format")
	}
	if v.Required("type", in.Type) {
		v.OneOf("type", in.Type, Types...)
	}
	v.MaxLen("customType", in.CustomType, 50)
	v.MaxLen("model", in.Model, 100)
	v.Range("ratedPowerKw", in.RatedPowerKW, 0, 100_000)
	v.Range("capacityKwh", in.CapacityKWh, 0, 1_000_000)
	v.Range("componentRatedPowerW", in.ComponentRatedPowerW, 0, 2_000)
	v.Range("componentCount", float64(in.ComponentCount), 0, 1_000_000)
	v.Range("stringsTotal", float64(in.StringsTotal), 0, 1_000)
	v.Range("stringsEnabled", float64(in.StringsEnabled), 0, float64(max(in.StringsTotal, 0)))
	if in.Type == "inverter" && in.RatedPowerKW <= 0 {
		v.Add("ratedPowerKw", "required")
	}
	if (in.Type == "battery" || in.Type == "storage") && in.CapacityKWh <= 0 {
		v.Add("capacityKwh", "required")
	}
	if in.Type == "meter" {
		v.OneOf("meterPosition", in.MeterPosition, "grid", "load")
	} else if in.MeterPosition != "" {
		v.Add("meterPosition", "one_of", "")
	}
	if in.CollectorSN != "" && !snRe.MatchString(in.CollectorSN) {
		v.Add("collectorSn", "invalid_format")
	}
	return v.Err()
}

func (in *Input) apply(d *Device) {
	d.StationID, d.ParentID, d.Name, d.SN, d.Type = in.StationID, in.ParentID, in.Name, in.SN, in.Type
	d.CustomType, d.Model, d.RatedPowerKW, d.CapacityKWh = in.CustomType, in.Model, in.RatedPowerKW, in.CapacityKWh
	d.ComponentRatedPowerW, d.ComponentCount = in.ComponentRatedPowerW, in.ComponentCount
	d.ComponentCapacityKWp = math.Round(in.ComponentRatedPowerW*float64(in.ComponentCount)) / 1000
	d.StringsTotal, d.StringsEnabled, d.MeterPosition, d.CollectorSN = in.StringsTotal, in.StringsEnabled, in.MeterPosition, in.CollectorSN
}

// checkPlacement verifies that the station is visible and the parent device sits in
// the same station.
func (s *Service) checkPlacement(r *http.Request, in *Input, self int64) error {
	p := httpapi.Caller(r)
	if _, err := station.Get(r.Context(), s.DB, p, in.StationID); err != nil {
		return httpapi.InvalidField("stationId", "not_found")
	}
	if in.ParentID != 0 {
		parent, err := Get(r.Context(), s.DB, p, in.ParentID)
		if err != nil || parent.StationID != in.StationID || parent.ID == self {
			return httpapi.InvalidField("parentId", "not_found")
		}
		if self != 0 {
			below, err := s.isDescendant(r.Context(), in.ParentID, self)
			if err != nil {
				return httpapi.Internal(err)
			}
			if below {
				return httpapi.InvalidField("parentId", "parent_cycle")
			}
		}
	}
	return nil
}

// isDescendant reports whether id sits below ancestor in the device tree, however deep
// the chain (a chain that already loops counts as below: it must not grow).
func (s *Service) isDescendant(ctx context.Context, id, ancestor int64) (bool, error) {
	seen := map[int64]bool{}
	for id != 0 {
		if seen[id] {
			return true, nil
		}
		seen[id] = true
		var parent int64
		err := s.DB.QueryRow(ctx, "SELECT COALESCE(parent_id, 0) FROM devices WHERE id = ?", id).Scan(&parent)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("device: unable to walk the device tree: %w", err)
		}
		if parent == ancestor {
			return true, nil
		}
		id = parent
	}
	return false, nil
}

func duplicateSN() error {
	return &httpapi.Error{Status: 409, Code: 409, Key: "duplicate", Fields: map[string]httpapi.Msg{"sn": {Key: "duplicate"}}}
}

func (s *Service) add(r *http.Request) (any, error) {
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkPlacement(r, &in, 0); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	d := &Device{OrgID: p.OrgID}
	in.apply(d)
	if _, err := Insert(r.Context(), s.DB, d); errors.Is(err, ErrDuplicateSN) {
		return nil, duplicateSN()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "device.add", d.SN, d.Name, httpapi.ClientAddr(r))
	return Get(r.Context(), s.DB, p, d.ID)
}

func (s *Service) edit(r *http.Request) (any, error) {
	d, err := s.get(r, "uid")
	if err != nil {
		return nil, err
	}
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkPlacement(r, &in, d.ID); err != nil {
		return nil, err
	}
	in.apply(d)
	if err := Update(r.Context(), s.DB, d); errors.Is(err, ErrDuplicateSN) {
		return nil, duplicateSN()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "device.edit", d.SN, d.Name, httpapi.ClientAddr(r))
	return Get(r.Context(), s.DB, p, d.ID)
}
