// Package device holds the devices under a station (inverters, batteries, all-in-one
// home storage, meters) and the /v2/dev calls.
package device

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Types are the device types.
var Types = []string{"inverter", "battery", "storage", "meter"}

// Device is one device as stored (SPEC.md section 3).
type Device struct {
	ID                   int64     `json:"id"`
	StationID            int64     `json:"stationId"`
	StationName          string    `json:"stationName"`
	ParentID             int64     `json:"parentId" doc:"0 when the device hangs directly under the station"`
	Name                 string    `json:"name"`
	SN                   string    `json:"sn" doc:"serial number, unique in the organisation"`
	Type                 string    `json:"type" doc:"inverter, battery, storage (all-in-one home storage) or meter"`
	CustomType           string    `json:"customType"`
	Model                string    `json:"model" doc:"the device model (SPEC: device type)"`
	RatedPowerKW         float64   `json:"ratedPowerKw"`
	CapacityKWh          float64   `json:"capacityKwh"`
	ComponentCapacityKWp float64   `json:"componentCapacityKwp" doc:"PV array capacity behind an inverter"`
	ComponentRatedPowerW float64   `json:"componentRatedPowerW"`
	ComponentCount       int       `json:"componentCount"`
	StringsTotal         int       `json:"stringsTotal"`
	StringsEnabled       int       `json:"stringsEnabled" doc:"actual enabled strings"`
	MeterPosition        string    `json:"meterPosition" doc:"grid or load (meters)"`
	CollectorSN          string    `json:"collectorSn"`
	CreateTime           time.Time `json:"createTime"`
	UpdateTime           time.Time `json:"updateTime"`

	OrgID  int64  `json:"-"`
	SimKey string `json:"-"`
}

// Columns are the columns Scan reads, of devices d joined to their stations s.
const Columns = `d.id, d.station_id, s.name, COALESCE(d.parent_id, 0), d.name, d.sn, d.type, d.custom_type, d.model,
	d.rated_power_kw, d.capacity_kwh, d.component_capacity_kwp, d.component_rated_power_w, d.component_count,
	d.strings_total, d.strings_enabled, d.meter_position, d.collector_sn, d.created_at, d.updated_at, d.org_id, d.sim_key`

// Scan reads a device from a row of Columns followed by the columns extra points to.
func Scan(row interface{ Scan(...any) error }, extra ...any) (*Device, error) {
	var d Device
	var created, updated int64
	err := row.Scan(append([]any{&d.ID, &d.StationID, &d.StationName, &d.ParentID, &d.Name, &d.SN, &d.Type, &d.CustomType, &d.Model,
		&d.RatedPowerKW, &d.CapacityKWh, &d.ComponentCapacityKWp, &d.ComponentRatedPowerW, &d.ComponentCount,
		&d.StringsTotal, &d.StringsEnabled, &d.MeterPosition, &d.CollectorSN, &created, &updated, &d.OrgID, &d.SimKey}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("device: unable to read: %w", err)
	}
	d.CreateTime = time.UnixMilli(created).UTC()
	d.UpdateTime = time.UnixMilli(updated).UTC()
	return &d, nil
}

// Get loads a device whose station the caller may see.
func Get(ctx context.Context, db *store.DB, p *httpapi.Principal, id int64) (*Device, error) {
	where, args := station.Scope(p)
	return Scan(db.QueryRow(ctx, "SELECT "+Columns+" FROM devices d JOIN stations s ON s.id = d.station_id WHERE d.id = ? AND "+where,
		append([]any{id}, args...)...))
}

// Filter narrows a device list.
type Filter struct {
	StationIDs    []int64 // nil: every visible station
	Type          string
	Name          string // part of name or serial number
	Page, PerPage int
}

// List returns the visible devices matching f and the total before paging.
func List(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter) ([]*Device, int64, error) {
	where, args := station.Scope(p)
	conds := []string{where}
	if f.StationIDs != nil {
		if len(f.StationIDs) == 0 {
			return []*Device{}, 0, nil
		}
		conds = append(conds, "d.station_id IN ("+strings.TrimSuffix(strings.Repeat("?,", len(f.StationIDs)), ",")+")")
		for _, id := range f.StationIDs {
			args = append(args, id)
		}
	}
	if f.Type != "" {
		conds = append(conds, "d.type = ?")
		args = append(args, f.Type)
	}
	if f.Name != "" {
		conds = append(conds, "(LOWER(d.name) LIKE ? ESCAPE '\\' OR LOWER(d.sn) LIKE ? ESCAPE '\\')")
		pat := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(f.Name)) + "%"
		args = append(args, pat, pat)
	}
	q := " FROM devices d JOIN stations s ON s.id = d.station_id WHERE " + strings.Join(conds, " AND ")
	var total int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*)"+q, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("device: unable to count: %w", err)
	}
	sel := "SELECT " + Columns + q + " ORDER BY s.name, d.type, d.name, d.id"
	if f.PerPage > 0 {
		sel += fmt.Sprintf(" LIMIT %d OFFSET %d", f.PerPage, (f.Page-1)*f.PerPage)
	}
	rows, err := db.Query(ctx, sel, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("device: unable to list: %w", err)
	}
	defer rows.Close()
	out := []*Device{}
	for rows.Next() {
		d, err := Scan(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}

// Insert stores a new device.
func Insert(ctx context.Context, db *store.DB, d *Device) (int64, error) {
	now := time.Now().UnixMilli()
	var parent any
	if d.ParentID != 0 {
		parent = d.ParentID
	}
	id, err := db.Insert(ctx, `INSERT INTO devices (org_id, station_id, parent_id, name, sn, type, custom_type, model,
		rated_power_kw, capacity_kwh, component_capacity_kwp, component_rated_power_w, component_count, strings_total,
		strings_enabled, meter_position, collector_sn, sim_key, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.OrgID, d.StationID, parent, d.Name, d.SN, d.Type, d.CustomType, d.Model, d.RatedPowerKW, d.CapacityKWh,
		d.ComponentCapacityKWp, d.ComponentRatedPowerW, d.ComponentCount, d.StringsTotal, d.StringsEnabled,
		d.MeterPosition, d.CollectorSN, d.SimKey, now, now)
	if err != nil {
		if store.IsUniqueViolation(err) {
			return 0, ErrDuplicateSN
		}
		return 0, fmt.Errorf("device: unable to insert: %w", err)
	}
	d.ID = id
	return id, nil
}

// ErrDuplicateSN is returned when the serial number is already used in the organisation.
var ErrDuplicateSN = errors.New("device: serial number already in use")

// Update stores a device's editable fields.
func Update(ctx context.Context, db *store.DB, d *Device) error {
	var parent any
	if d.ParentID != 0 {
		parent = d.ParentID
	}
	_, err := db.Exec(ctx, `UPDATE devices SET station_id = ?, parent_id = ?, name = ?, sn = ?, type = ?, custom_type = ?,
		model = ?, rated_power_kw = ?, capacity_kwh = ?, component_capacity_kwp = ?, component_rated_power_w = ?,
		component_count = ?, strings_total = ?, strings_enabled = ?, meter_position = ?, collector_sn = ?, updated_at = ?
		WHERE id = ?`,
		d.StationID, parent, d.Name, d.SN, d.Type, d.CustomType, d.Model, d.RatedPowerKW, d.CapacityKWh,
		d.ComponentCapacityKWp, d.ComponentRatedPowerW, d.ComponentCount, d.StringsTotal, d.StringsEnabled,
		d.MeterPosition, d.CollectorSN, time.Now().UnixMilli(), d.ID)
	if store.IsUniqueViolation(err) {
		return ErrDuplicateSN
	}
	if err != nil {
		return fmt.Errorf("device: unable to update: %w", err)
	}
	return nil
}
