// Package scada connects field devices over Modbus TCP: the poller (SunSpec discovery or
// a register map per device), the register maps themselves (/v1/scada), and the remote
// debugging calls (live reads, audited writes).
package scada

import (
	"sort"
)

// Register is one entry of a register map. docs/field.md describes every field with a
// vendor example; the rules that tie fields together are in Validate.
type Register struct {
	Name      string  `json:"name" validate:"required" doc:"unique in the map, e.g. active_power"`
	Address   int     `json:"address" doc:"0-65535, protocol address (holding 40001 is address 0)"`
	Function  string  `json:"function" validate:"required" doc:"holding (function 3), input (function 4), coil (function 1) or discrete (discrete input, function 2)"`
	DataType  string  `json:"dataType" validate:"required" doc:"int16, uint16, int32, uint32, float32, int64, uint64, float64; string (ASCII over size registers, display only); bool (coils and discrete inputs)"`
	WordOrder string  `json:"wordOrder" doc:"big (high word first, default) or little (low word first)"`
	ByteOrder string  `json:"byteOrder,omitempty" doc:"big (high byte first in each word, default) or little (the two bytes of every word swapped); independent of wordOrder"`
	Size      int     `json:"size,omitempty" doc:"registers a string spans (1-64); strings only"`
	Scale     float64 `json:"scale" doc:"raw value × scale = value in unit (0 means 1)"`
	Offset    float64 `json:"offset,omitempty" doc:"added after the scale: value = raw × scale × 10^scaleRegister + offset"`
	// ScaleRegister is SunSpec's scale factor: another register of the map holds a
	// power-of-ten exponent (int16, e.g. -2 for hundredths) read in the same poll.
	ScaleRegister string `json:"scaleRegister,omitempty" doc:"name of another register of the map whose value is a power-of-ten exponent (SunSpec _SF style): value × 10^that"`
	Bit           *int   `json:"bit,omitempty" doc:"the value is this bit (0 = least significant) of the raw number: 0 or 1; whole-number types only"`
	// Values is a vendor code table. A code maps to a Helio status name or a number;
	// "default" catches codes not listed.
	Values   CodeTable `json:"values,omitempty" doc:"code table: raw code (decimal or 0x hex, or default) → standby, running, fault, overTemp, gridFault or a number; with target status it sets the device status, with target fault a fault, over-temperature or grid-fault code raises that status"`
	Sum      bool      `json:"sum,omitempty" doc:"several registers with sum set may feed one target: their values are added (e.g. per-string currents into dcCurrent)"`
	Unit     string    `json:"unit"`
	Target   string    `json:"target" doc:"sample field the value feeds ('' for display only): power (kW), energy (kWh), energy2 (kWh), dcVoltage (V), dcCurrent (A), acVoltage (V), frequency (Hz), temperature (°C), soc (%), irradiance (W/m²), status, stringsActive; fault (non-zero, or a code mapped to fault/overTemp/gridFault, sets that status); display only, named on the debugging page: acVoltageA/B/C (V), acCurrentA/B/C (A), reactivePower (kvar), powerFactor"`
	Writable bool      `json:"writable" doc:"the debugging page may write it (admins, audited); plain number holding registers only"`
}

// MapInput is a register map as added, exported and imported. Its JSON is read strictly
// (see UnmarshalJSON): an unknown register field is refused by its path.
type MapInput struct {
	ID        int64      `json:"id" doc:"0 adds a new map; an existing id adds its next version"`
	Name      string     `json:"name" validate:"required"`
	Model     string     `json:"model" doc:"the device model the map is written for"`
	Registers []Register `json:"registers" validate:"required"`
}

// Limits of a map.
const (
	MaxRegisters = 500
	maxNameLen   = 64
	maxStringLen = 64  // registers of a string
	maxCodes     = 256 // entries of a code table
)

// DataTypes and their width in registers (strings take their size; bool one coil).
var DataTypes = map[string]int{"int16": 1, "uint16": 1, "int32": 2, "uint32": 2, "float32": 2, "int64": 4, "uint64": 4, "float64": 4, "string": 0, "bool": 1}

// SampleFields are the targets a register may feed: the sample's fields, fault, and the
// display-only values (no sample field: shown on the debugging page).
var SampleFields = []string{"", "power", "energy", "energy2", "dcVoltage", "dcCurrent", "acVoltage", "frequency", "temperature", "soc", "irradiance", "status", "stringsActive",
	"fault", "acVoltageA", "acVoltageB", "acVoltageC", "acCurrentA", "acCurrentB", "acCurrentC", "reactivePower", "powerFactor"}

// displayTargets have no sample field (telemetry.Sample is unchanged): named values only.
var displayTargets = map[string]bool{"acVoltageA": true, "acVoltageB": true, "acVoltageC": true, "acCurrentA": true, "acCurrentB": true,
	"acCurrentC": true, "reactivePower": true, "powerFactor": true}

// width is the registers (or coils) a register spans.
func (r *Register) width() int {
	if r.DataType == "string" {
		return r.Size
	}
	return DataTypes[r.DataType]
}

// span is one contiguous read covering several registers.
type span struct {
	function   string
	start, end int // [start, end)
}

// spans groups a map's registers into reads of at most 125 registers, joining neighbours
// separated by a gap of up to 8 registers.
func spans(regs []Register) []span {
	idx := make([]int, len(regs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		ra, rb := regs[idx[a]], regs[idx[b]]
		if ra.Function != rb.Function {
			return ra.Function < rb.Function
		}
		return ra.Address < rb.Address
	})
	var out []span
	for _, i := range idx {
		r := regs[i]
		end := r.Address + r.width()
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.function == r.Function && r.Address <= last.end+8 && end-last.start <= 125 {
				last.end = max(last.end, end)
				continue
			}
		}
		out = append(out, span{function: r.Function, start: r.Address, end: end})
	}
	return out
}
