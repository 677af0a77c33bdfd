package importer

import (
	"fmt"
	"strings"
	"time"
)

// Sample fields a column can feed.
const (
	FieldPower      = "power"       // AC active power
	FieldEnergy     = "energy"      // the main counter: produced, discharged, imported
	FieldEnergy2    = "energy2"     // the second counter: charged, exported
	FieldDCVoltage  = "dcVoltage"   // V
	FieldDCCurrent  = "dcCurrent"   // A
	FieldACVoltage  = "acVoltage"   // V
	FieldFrequency  = "frequency"   // Hz
	FieldTemp       = "temperature" // °C
	FieldSOC        = "soc"         // %
	FieldIrradiance = "irradiance"  // W/m²
	FieldStatus     = "status"      // the device status code
)

// Energy column kinds.
const (
	EnergyCounter  = "counter"  // a cumulative reading (a meter's register)
	EnergyInterval = "interval" // the energy of the interval ending at the row's time
)

// Device matching.
const (
	MatchSerial = "serial"
	MatchName   = "name"
)

// Mapping says how a file's rows become samples. It is also what a template stores: columns
// are named by their header, so a template fits every export of the same vendor format.
type Mapping struct {
	// HeaderRow is the 0-based row holding the column names (vendor exports may start with
	// a title or a "sep=" line).
	HeaderRow int `json:"headerRow"`
	// TimeColumn names the time column; TimeFormat is a Go layout or unix, unix_ms,
	// excel_serial.
	TimeColumn string `json:"timeColumn" validate:"required"`
	TimeFormat string `json:"timeFormat" validate:"required"`
	// Zone is the IANA zone of times without an offset ("" : the station's).
	Zone string `json:"zone"`
	// DeviceColumn names the column holding each row's device ("" : one device per file,
	// or per column, see Column.Device).
	DeviceColumn string `json:"deviceColumn"`
	// Match says whether devices are named by serial number or by name.
	Match   string   `json:"match" doc:"serial or name"`
	Columns []Column `json:"columns"`
}

// Column maps one column to a sample field.
type Column struct {
	Name  string `json:"name"`
	Field string `json:"field" doc:"power, energy, energy2, dcVoltage, dcCurrent, acVoltage, frequency, temperature, soc, irradiance, status"`
	// Unit is W, kW, MW for power; Wh, kWh, MWh for energy; "" for the others.
	Unit string `json:"unit"`
	// Energy is counter or interval for the energy fields.
	Energy string `json:"energy"`
	// Device, when set, is this column's device (a wide export: one column per inverter);
	// it overrides the device column and the file's device.
	Device string `json:"device"`
}

// FieldError is a mapping fault: which field and why.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

var fields = map[string]bool{FieldPower: true, FieldEnergy: true, FieldEnergy2: true, FieldDCVoltage: true,
	FieldDCCurrent: true, FieldACVoltage: true, FieldFrequency: true, FieldTemp: true, FieldSOC: true,
	FieldIrradiance: true, FieldStatus: true}

// Check validates a mapping on its own (not yet against a file's header).
func (m *Mapping) Check() error {
	if m.HeaderRow < 0 || m.HeaderRow > 100 {
		return &FieldError{"headerRow", "out_of_range"}
	}
	if strings.TrimSpace(m.TimeColumn) == "" {
		return &FieldError{"timeColumn", "required"}
	}
	if !knownFormat(m.TimeFormat) {
		return &FieldError{"timeFormat", "unknown"}
	}
	if m.Zone != "" {
		if _, err := time.LoadLocation(m.Zone); err != nil {
			return &FieldError{"zone", "unknown"}
		}
	}
	if m.Match != MatchSerial && m.Match != MatchName {
		return &FieldError{"match", "unknown"}
	}
	if len(m.Columns) == 0 || len(m.Columns) > 200 {
		return &FieldError{"columns", "count"}
	}
	for i, c := range m.Columns {
		at := fmt.Sprintf("columns[%d].", i)
		if strings.TrimSpace(c.Name) == "" {
			return &FieldError{at + "name", "required"}
		}
		if !fields[c.Field] {
			return &FieldError{at + "field", "unknown"}
		}
		if _, ok := unitFactor(c.Field, c.Unit); !ok {
			return &FieldError{at + "unit", "unknown"}
		}
		energy := c.Field == FieldEnergy || c.Field == FieldEnergy2
		if energy && c.Energy != EnergyCounter && c.Energy != EnergyInterval {
			return &FieldError{at + "energy", "unknown"}
		}
		if !energy && c.Energy != "" {
			return &FieldError{at + "energy", "not_energy"}
		}
		if len(c.Name) > 200 || len(c.Device) > 200 {
			return &FieldError{at + "name", "too_long"}
		}
	}
	return nil
}

func knownFormat(f string) bool {
	switch f {
	case TimeUnix, TimeUnixM, TimeExcel:
		return true
	}
	for _, l := range layouts {
		if l == f {
			return true
		}
	}
	return false
}

// unitFactor converts a unit to the sample's (kW for power, kWh for energy).
func unitFactor(field, unit string) (float64, bool) {
	switch field {
	case FieldPower:
		switch unit {
		case "W":
			return 0.001, true
		case "kW", "":
			return 1, true
		case "MW":
			return 1000, true
		}
		return 0, false
	case FieldEnergy, FieldEnergy2:
		switch unit {
		case "Wh":
			return 0.001, true
		case "kWh", "":
			return 1, true
		case "MWh":
			return 1000, true
		}
		return 0, false
	}
	return 1, unit == "" || unit == "V" || unit == "A" || unit == "Hz" || unit == "°C" || unit == "%" || unit == "W/m²"
}
