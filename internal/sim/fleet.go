package sim

import (
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
)

// StationType is how a station is built.
type StationType string

// Station types.
const (
	StationGround      StationType = "ground"      // utility-scale ground-mounted plant
	StationRooftop     StationType = "rooftop"     // commercial or industrial rooftop
	StationResidential StationType = "residential" // homes, usually with storage
)

// SystemType is what a station's system is made of.
type SystemType string

// System types.
const (
	SystemPV        SystemType = "pv"         // PV only
	SystemPVStorage SystemType = "pv_storage" // PV with batteries or all-in-one storage
)

// DeviceType is the kind of a device (SPEC.md: inverter, battery, all-in-one storage, meter).
type DeviceType string

// Device types.
const (
	DeviceInverter DeviceType = "inverter"
	DeviceBattery  DeviceType = "battery"
	DeviceStorage  DeviceType = "storage" // all-in-one home storage (hybrid inverter + battery)
	DeviceMeter    DeviceType = "meter"
)

// MeterPosition is where a meter measures.
type MeterPosition string

// Meter positions.
const (
	MeterGrid MeterPosition = "grid" // grid connection point: import and export
	MeterLoad MeterPosition = "load" // site consumption
)

// CounterMode is how an inverter reports its energy counter.
type CounterMode string

// Counter modes.
const (
	CounterLifetime CounterMode = "lifetime" // cumulative since commissioning
	CounterDaily    CounterMode = "daily"    // energy of the local day, reset at local midnight
)

// LoadKind selects a site load profile.
type LoadKind string

// Load profiles.
const (
	LoadNone        LoadKind = ""            // no consumption behind the meter
	LoadAuxiliary   LoadKind = "auxiliary"   // plant auxiliaries: transformers, monitoring, cooling
	LoadResidential LoadKind = "residential" // household: morning and evening peaks
	LoadCommercial  LoadKind = "commercial"  // offices, shops, wineries: working hours, weekdays
	LoadIndustrial  LoadKind = "industrial"  // factories and logistics: two shifts, high base
)

// DispatchMode is how the batteries of a sub-station are operated.
type DispatchMode string

// Dispatch modes.
const (
	// DispatchSelfConsumption charges from PV surplus and discharges into the load
	// whenever the load exceeds PV (homes, commercial sites).
	DispatchSelfConsumption DispatchMode = "self_consumption"
	// DispatchTimeShift charges from PV from 09:00 to 15:00 local and discharges at rated
	// power into the evening peak, 17:00–22:00 local (utility plants).
	DispatchTimeShift DispatchMode = "time_shift"
)

// Fleet is a set of top-level stations.
type Fleet struct {
	Stations []Station `json:"stations"`
}

// Station is a power station (top level) or a sub-station (in a station's Children).
//
// A top-level station groups sub-stations; devices hang under sub-stations only. Every
// descriptive field is filled on sub-stations as well, so each maps to a full station
// row; a top-level station's CapacityKWp is the sum of its children's.
type Station struct {
	// Key is stable and unique across the fleet ("cn-golmud", "cn-golmud-1"); ParentKey is
	// the top-level station's key on a sub-station and "" on a top-level station.
	Key       string `json:"key"`
	ParentKey string `json:"parentKey,omitempty"`

	Name      string  `json:"name"`
	Location  string  `json:"location"` // town and district, for display
	Address   string  `json:"address"`
	Region    string  `json:"region"`  // administrative region (province, state, prefecture)
	Country   string  `json:"country"` // ISO 3166-1 alpha-2
	Lat       float64 `json:"lat"`
	Lng       float64 `json:"lng"`
	AltitudeM float64 `json:"altitudeM"`
	// Timezone is an IANA zone name; the station's calendar (its day for daily counters
	// and energy totals) follows it.
	Timezone string `json:"timezone"`

	StationType StationType `json:"stationType"`
	SystemType  SystemType  `json:"systemType"`
	// CapacityKWp is the installed DC capacity: the sum of the inverters' component
	// capacity (module rated power × count).
	CapacityKWp float64 `json:"capacityKwp"`
	// AzimuthDeg is the main array azimuth, clockwise from north (180 = facing south,
	// 0 = facing north); TiltDeg the inclination from horizontal. Devices carry their own.
	AzimuthDeg float64 `json:"azimuthDeg"`
	TiltDeg    float64 `json:"tiltDeg"`

	BuildDate time.Time `json:"buildDate"` // construction finished (local midnight)
	// GridDate is the grid-connection date; the simulator emits nothing for a
	// sub-station before it.
	GridDate time.Time `json:"gridDate"`
	Line     string    `json:"line"` // grid feeder / line the station connects to

	Currency       string   `json:"currency"` // ISO 4217
	PricePerKWh    float64  `json:"pricePerKwh"`
	SubsidyPerKWh  float64  `json:"subsidyPerKwh"`
	TotalCost      float64  `json:"totalCost"`      // investment, in Currency
	DailyRepayment float64  `json:"dailyRepayment"` // loan repayment per day, in Currency
	OwnerName      string   `json:"ownerName"`
	OwnerPhone     string   `json:"ownerPhone"`
	OwnerCompany   string   `json:"ownerCompany"`
	Manager        string   `json:"manager"`
	ManagerPhone   string   `json:"managerPhone"`
	Tags           []string `json:"tags"`

	// NominalVoltageV is the AC voltage the inverters and meters report in normal
	// operation (phase voltage for single-phase homes, line voltage for three-phase
	// plants); NominalFrequencyHz the grid frequency. Normal readings stay within ±5 %
	// and ±0.1 Hz; a grid fault goes beyond ±10 % or ±0.5 Hz (see FaultGrid).
	NominalVoltageV    float64 `json:"nominalVoltageV"`
	NominalFrequencyHz float64 `json:"nominalFrequencyHz"`

	// Load is the consumption behind the grid meter of a sub-station.
	Load LoadProfile `json:"load"`
	// Dispatch is how the sub-station's batteries run (default self-consumption).
	Dispatch DispatchMode `json:"dispatch,omitempty"`
	// Climate drives weather and temperature; set on the top-level station (sub-stations
	// share their parent's weather).
	Climate pvmodel.Climate `json:"climate"`

	// Collectors are the data loggers of a sub-station; each device names the one it
	// reports through in Device.CollectorSN.
	Collectors []Collector `json:"collectors,omitempty"`
	Children   []Station   `json:"children,omitempty"`
	Devices    []Device    `json:"devices,omitempty"`
}

// LoadProfile is a site consumption profile.
type LoadProfile struct {
	Kind LoadKind `json:"kind"`
	// PeakKW is the typical daily peak of the profile.
	PeakKW float64 `json:"peakKw"`
}

// Collector is a data logger (or a home's Wi-Fi dongle) through which devices report.
// When it loses its uplink (FaultCollectorLost) none of its devices report.
type Collector struct {
	SN    string `json:"sn"`
	Name  string `json:"name"`
	Model string `json:"model"`
}

// Device is one device of a sub-station.
type Device struct {
	// Key is stable and unique across the fleet ("cn-golmud-1-inv03"). ParentKey is the
	// key of the parent device, "" for a device directly under its sub-station (e.g. the
	// battery pack of an all-in-one unit has the unit as parent). StationKey is the
	// sub-station the device belongs to.
	Key        string `json:"key"`
	ParentKey  string `json:"parentKey,omitempty"`
	StationKey string `json:"stationKey"`

	SN   string     `json:"sn"` // serial number, unique across the fleet
	Name string     `json:"name"`
	Type DeviceType `json:"type"`
	// CustomType is a free label for display ("string inverter", "BESS container",
	// "battery pack", "hybrid all-in-one").
	CustomType   string `json:"customType"`
	Manufacturer string `json:"manufacturer"`
	Model        string `json:"model"` // the device type/model designation
	// CollectorSN is the collector the device reports through.
	CollectorSN string `json:"collectorSn"`
	// InBalance is false for a device whose flow another device already reports: the
	// battery pack inside an all-in-one unit (the unit reports the AC flow). Station totals
	// (PV, battery, grid, load) count only devices with InBalance true.
	InBalance bool `json:"inBalance"`

	// Inverter fields.
	RatedACKW       float64 `json:"ratedAcKw,omitempty"`       // rated AC output, the clipping limit
	ComponentRatedW float64 `json:"componentRatedW,omitempty"` // PV module rated power, W
	ComponentCount  int     `json:"componentCount,omitempty"`  // modules connected
	Strings         int     `json:"strings,omitempty"`         // string inputs of the inverter
	EnabledStrings  int     `json:"enabledStrings,omitempty"`  // strings actually wired ("actual enabled strings")
	AzimuthDeg      float64 `json:"azimuthDeg,omitempty"`      // array azimuth, clockwise from north
	TiltDeg         float64 `json:"tiltDeg,omitempty"`         // array inclination
	// Counter is how EnergyKWh is reported; "" means lifetime. Meters and batteries
	// always report lifetime counters.
	Counter CounterMode `json:"counter,omitempty"`

	// Battery and all-in-one storage fields.
	CapacityKWh float64 `json:"capacityKwh,omitempty"`
	RatedKW     float64 `json:"ratedKw,omitempty"` // charge/discharge power limit

	// Meter fields.
	MeterPosition MeterPosition `json:"meterPosition,omitempty"`
}

// ComponentCapacityKWp is the installed DC capacity of an inverter's array.
func (d Device) ComponentCapacityKWp() float64 {
	return d.ComponentRatedW * float64(d.ComponentCount) / 1000
}

// SubStations returns every sub-station of the fleet in order.
func (f Fleet) SubStations() []Station {
	var out []Station
	for _, s := range f.Stations {
		out = append(out, s.Children...)
	}
	return out
}

// Devices returns every device of the fleet in order (station, sub-station, device).
func (f Fleet) Devices() []Device {
	var out []Device
	for _, s := range f.Stations {
		for _, c := range s.Children {
			out = append(out, c.Devices...)
		}
	}
	return out
}

// Station returns the station or sub-station with the given key.
func (f Fleet) Station(key string) (Station, bool) {
	for _, s := range f.Stations {
		if s.Key == key {
			return s, true
		}
		for _, c := range s.Children {
			if c.Key == key {
				return c, true
			}
		}
	}
	return Station{}, false
}

// Device returns the device with the given key.
func (f Fleet) Device(key string) (Device, bool) {
	for _, d := range f.Devices() {
		if d.Key == key {
			return d, true
		}
	}
	return Device{}, false
}

// Validate checks the fleet's structure: unique keys and serial numbers, known types,
// loadable time zones, parents that exist, inverter sizes that make sense.
func (f Fleet) Validate() error {
	var errs []error
	keys := map[string]bool{}
	sns := map[string]bool{}
	seen := func(m map[string]bool, k, what string) {
		if k == "" {
			errs = append(errs, fmt.Errorf("empty %s", what))
		} else if m[k] {
			errs = append(errs, fmt.Errorf("duplicate %s %q", what, k))
		}
		m[k] = true
	}
	for _, s := range f.Stations {
		seen(keys, s.Key, "key")
		if _, err := time.LoadLocation(s.Timezone); err != nil {
			errs = append(errs, fmt.Errorf("station %s: timezone: %w", s.Key, err))
		}
		if len(s.Children) == 0 {
			errs = append(errs, fmt.Errorf("station %s has no sub-stations", s.Key))
		}
		for _, c := range s.Children {
			seen(keys, c.Key, "key")
			if c.ParentKey != s.Key {
				errs = append(errs, fmt.Errorf("sub-station %s: parent %q, want %q", c.Key, c.ParentKey, s.Key))
			}
			if _, err := time.LoadLocation(c.Timezone); err != nil {
				errs = append(errs, fmt.Errorf("sub-station %s: timezone: %w", c.Key, err))
			}
			colls := map[string]bool{}
			for _, col := range c.Collectors {
				seen(sns, col.SN, "serial number")
				colls[col.SN] = true
			}
			devs := map[string]DeviceType{}
			for _, d := range c.Devices {
				seen(keys, d.Key, "key")
				seen(sns, d.SN, "serial number")
				devs[d.Key] = d.Type
				if d.StationKey != c.Key {
					errs = append(errs, fmt.Errorf("device %s: station %q, want %q", d.Key, d.StationKey, c.Key))
				}
				if d.CollectorSN != "" && !colls[d.CollectorSN] {
					errs = append(errs, fmt.Errorf("device %s: unknown collector %q", d.Key, d.CollectorSN))
				}
				switch d.Type {
				case DeviceInverter:
					if d.RatedACKW <= 0 || d.ComponentCount <= 0 || d.ComponentRatedW <= 0 || d.EnabledStrings <= 0 || d.EnabledStrings > d.Strings {
						errs = append(errs, fmt.Errorf("inverter %s: bad rating or strings", d.Key))
					}
				case DeviceBattery, DeviceStorage:
					if d.CapacityKWh <= 0 || d.RatedKW <= 0 {
						errs = append(errs, fmt.Errorf("%s %s: bad capacity", d.Type, d.Key))
					}
				case DeviceMeter:
					if d.MeterPosition != MeterGrid && d.MeterPosition != MeterLoad {
						errs = append(errs, fmt.Errorf("meter %s: bad position %q", d.Key, d.MeterPosition))
					}
				default:
					errs = append(errs, fmt.Errorf("device %s: unknown type %q", d.Key, d.Type))
				}
			}
			for _, d := range c.Devices {
				if d.ParentKey != "" {
					if _, ok := devs[d.ParentKey]; !ok {
						errs = append(errs, fmt.Errorf("device %s: parent %q not in sub-station", d.Key, d.ParentKey))
					}
				}
			}
		}
	}
	return errors.Join(errs...)
}
