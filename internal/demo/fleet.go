package demo

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Fleet is the simulated fleet: the demo organisation's nine stations plus one station
// of the second organisation, a copy of the last one under other keys and serials.
func Fleet() sim.Fleet {
	f := sim.DemoFleet()
	other := CloneStation(f.Stations[len(f.Stations)-1], "other-", "OT")
	other.Name = "Sunfield Ranch (Other Solar Co.)"
	other.OwnerCompany = "Other Solar Co."
	f.Stations = append(f.Stations, other)
	return f
}

// OtherOrgStationKey is the key of the second organisation's station.
func OtherOrgStationKey(f sim.Fleet) string { return f.Stations[len(f.Stations)-1].Key }

// CloneStation copies a station with its sub-stations, collectors and devices under new
// keys (keyPrefix) and serial numbers (snPrefix), so the copy can be stored beside it.
func CloneStation(s sim.Station, keyPrefix, snPrefix string) sim.Station {
	c := s
	c.Key = keyPrefix + s.Key
	if s.ParentKey != "" {
		c.ParentKey = keyPrefix + s.ParentKey
	}
	c.Tags = append([]string(nil), s.Tags...)
	c.Collectors = nil
	for _, col := range s.Collectors {
		col.SN = snPrefix + col.SN
		c.Collectors = append(c.Collectors, col)
	}
	c.Devices = nil
	for _, d := range s.Devices {
		d.Key = keyPrefix + d.Key
		if d.ParentKey != "" {
			d.ParentKey = keyPrefix + d.ParentKey
		}
		d.StationKey = keyPrefix + d.StationKey
		d.SN = snPrefix + d.SN
		if d.CollectorSN != "" {
			d.CollectorSN = snPrefix + d.CollectorSN
		}
		c.Devices = append(c.Devices, d)
	}
	c.Children = nil
	for _, ch := range s.Children {
		c.Children = append(c.Children, CloneStation(ch, keyPrefix, snPrefix))
	}
	return c
}

// SeedFleet stores the fleet's stations and devices: the last station belongs to the
// second organisation, the others to the demo organisation, created by its headquarters.
// The first three stations are granted to the operator's department. It does nothing
// when stations already exist.
func SeedFleet(ctx context.Context, db *store.DB, acc *Accounts, f sim.Fleet) error {
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM stations").Scan(&n); err != nil || n > 0 {
		return err
	}
	tags := map[string]int64{}
	for i, top := range f.Stations {
		orgID, deptID := acc.OrgID, acc.HQDeptID
		if i == len(f.Stations)-1 {
			orgID, deptID = acc.OtherOrgID, acc.OtherDeptID
		}
		topID, err := insertStation(ctx, db, top, orgID, deptID, 0, tags)
		if err != nil {
			return err
		}
		if i < 3 {
			if err := station.Grant(ctx, db, topID, acc.OpsDeptID); err != nil {
				return err
			}
		}
		if err := insertDevices(ctx, db, top, orgID, topID); err != nil {
			return err
		}
		for _, sub := range top.Children {
			subID, err := insertStation(ctx, db, sub, orgID, deptID, topID, tags)
			if err != nil {
				return err
			}
			if err := insertDevices(ctx, db, sub, orgID, subID); err != nil {
				return err
			}
		}
	}
	return nil
}

var tagColors = []string{"arcoblue", "green", "orange", "purple", "cyan", "magenta", "gold", "lime"}

func insertStation(ctx context.Context, db *store.DB, s sim.Station, orgID, deptID, parentID int64, tags map[string]int64) (int64, error) {
	st := &station.Station{
		OrgID: orgID, ParentID: parentID, CreatedByDept: deptID, SimKey: s.Key,
		Name: s.Name, Location: s.Location, Country: s.Country, Region: s.Region, Address: s.Address,
		Lat: s.Lat, Lng: s.Lng, Timezone: s.Timezone, StationType: string(s.StationType), SystemType: string(s.SystemType),
		CapacityKWp: math.Round(s.CapacityKWp*1000) / 1000, Azimuth: s.AzimuthDeg, Inclination: s.TiltDeg, Line: s.Line,
		BuildDate: localDate(s.BuildDate, s.Timezone), CombineStatus: 1, CombineDate: localDate(s.BuildDate, s.Timezone),
		GridStatus: 1, GridDate: localDate(s.GridDate, s.Timezone), Currency: s.Currency, PricePerKWh: s.PricePerKWh,
		SubsidyPerKWh: s.SubsidyPerKWh, TotalCost: s.TotalCost, DailyRepayment: s.DailyRepayment,
		OwnerName: s.OwnerName, OwnerPhone: s.OwnerPhone, OwnerCompany: s.OwnerCompany,
		ManagerName: s.Manager, ManagerPhone: s.ManagerPhone,
	}
	id, err := station.Insert(ctx, db, st)
	if err != nil {
		return 0, fmt.Errorf("demo: station %s: %w", s.Key, err)
	}
	var tagIDs []int64
	for _, name := range s.Tags {
		key := fmt.Sprint(orgID, "\x00", name)
		tid, ok := tags[key]
		if !ok {
			tid, err = db.Insert(ctx, "INSERT INTO station_tags (org_id, name, color, created_at) VALUES (?, ?, ?, ?)",
				orgID, name, tagColors[len(tags)%len(tagColors)], time.Now().UnixMilli())
			if err != nil {
				return 0, fmt.Errorf("demo: tag %s: %w", name, err)
			}
			tags[key] = tid
		}
		tagIDs = append(tagIDs, tid)
	}
	return id, station.SetTags(ctx, db, id, tagIDs)
}

func localDate(t time.Time, tz string) string {
	if t.IsZero() {
		return ""
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		t = t.In(loc)
	}
	return t.Format("2006-01-02")
}

// insertDevices stores a station's devices, parents before children.
func insertDevices(ctx context.Context, db *store.DB, s sim.Station, orgID, stationID int64) error {
	ids := map[string]int64{}
	pending := append([]sim.Device(nil), s.Devices...)
	for len(pending) > 0 {
		var next []sim.Device
		for _, d := range pending {
			parentID, ok := int64(0), true
			if d.ParentKey != "" {
				parentID, ok = ids[d.ParentKey]
			}
			if !ok {
				next = append(next, d)
				continue
			}
			rated := d.RatedACKW
			if d.Type != sim.DeviceInverter {
				rated = d.RatedKW
			}
			dev := &device.Device{
				OrgID: orgID, StationID: stationID, ParentID: parentID, SimKey: d.Key, Name: d.Name, SN: d.SN,
				Type: string(d.Type), CustomType: d.CustomType, Model: d.Model, RatedPowerKW: rated,
				CapacityKWh: d.CapacityKWh, ComponentCapacityKWp: math.Round(d.ComponentCapacityKWp()*1000) / 1000,
				ComponentRatedPowerW: d.ComponentRatedW, ComponentCount: d.ComponentCount, StringsTotal: d.Strings,
				StringsEnabled: d.EnabledStrings, MeterPosition: string(d.MeterPosition), CollectorSN: d.CollectorSN,
			}
			id, err := device.Insert(ctx, db, dev)
			if err != nil {
				return fmt.Errorf("demo: device %s: %w", d.Key, err)
			}
			ids[d.Key] = id
		}
		if len(next) == len(pending) {
			return fmt.Errorf("demo: station %s has devices whose parent is missing", s.Key)
		}
		pending = next
	}
	return nil
}

// DeviceIDs maps simulator device keys to database ids.
func DeviceIDs(ctx context.Context, db *store.DB) (map[string]int64, error) {
	rows, err := db.Query(ctx, "SELECT sim_key, id FROM devices WHERE sim_key <> ''")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			return nil, err
		}
		out[k] = id
	}
	return out, rows.Err()
}

// Climate returns the simulator's climate of a demo station (or sub-station) by its key.
func Climate(key string) (pvmodel.Climate, bool) {
	for _, st := range Fleet().Stations {
		if st.Key == key {
			return st.Climate, true
		}
		for _, sub := range st.Children {
			if sub.Key == key {
				return st.Climate, true
			}
		}
	}
	return pvmodel.Climate{}, false
}
