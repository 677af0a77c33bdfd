// Package scada connects field devices over Modbus TCP: the poller (SunSpec discovery or
// a register map per device), the register maps themselves (/v1/scada), and the remote
// debugging calls (live reads, audited writes).
package scada

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"sort"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Register is one entry of a register map.
type Register struct {
	Name      string  `json:"name" validate:"required" doc:"unique in the map, e.g. active_power"`
	Address   int     `json:"address" doc:"0-65535, protocol address (holding 40001 is address 0)"`
	Function  string  `json:"function" validate:"required" doc:"holding (function 3) or input (function 4)"`
	DataType  string  `json:"dataType" validate:"required" doc:"int16, uint16, int32, uint32, float32, int64, uint64, float64"`
	WordOrder string  `json:"wordOrder" doc:"big (high word first, default) or little (low word first)"`
	Scale     float64 `json:"scale" doc:"raw value × scale = value in unit (0 means 1)"`
	Unit      string  `json:"unit"`
	Target    string  `json:"target" doc:"sample field the value feeds ('' for display only): power (kW), energy (kWh), energy2 (kWh), dcVoltage (V), dcCurrent (A), acVoltage (V), frequency (Hz), temperature (°C), soc (%), irradiance (W/m²), status, stringsActive"`
	Writable  bool    `json:"writable" doc:"the debugging page may write it (admins, audited)"`
}

// MapInput is a register map as added, exported and imported.
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
)

// DataTypes and their width in registers.
var DataTypes = map[string]int{"int16": 1, "uint16": 1, "int32": 2, "uint32": 2, "float32": 2, "int64": 4, "uint64": 4, "float64": 4}

// SampleFields are the sample fields a register may feed.
var SampleFields = []string{"", "power", "energy", "energy2", "dcVoltage", "dcCurrent", "acVoltage", "frequency", "temperature", "soc", "irradiance", "status", "stringsActive"}

var nameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)

// Validate checks a map and fills defaults; the 400 names each bad register field
// (registers[3].dataType).
func (in *MapInput) Validate() error {
	var v httpapi.Validator
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, maxNameLen)
	}
	v.MaxLen("model", in.Model, maxNameLen)
	if in.ID < 0 {
		v.Add("id", "out_of_range", 0, math.MaxInt64)
	}
	switch {
	case len(in.Registers) == 0:
		v.Add("registers", "required")
	case len(in.Registers) > MaxRegisters:
		v.Add("registers", "scada_too_many", MaxRegisters)
	}
	names := map[string]bool{}
	targets := map[string]string{}
	for i := range in.Registers {
		r := &in.Registers[i]
		f := func(name string) string { return fmt.Sprintf("registers[%d].%s", i, name) }
		if r.WordOrder == "" {
			r.WordOrder = "big"
		}
		if r.Scale == 0 {
			r.Scale = 1
		}
		switch {
		case !v.Required(f("name"), r.Name):
		case len(r.Name) > maxNameLen:
			v.MaxLen(f("name"), r.Name, maxNameLen)
		case !nameRe.MatchString(r.Name):
			v.Add(f("name"), "scada_register_name")
		case names[r.Name]:
			v.Add(f("name"), "scada_duplicate_name", r.Name)
		}
		names[r.Name] = true
		v.OneOf(f("function"), r.Function, "holding", "input")
		width, ok := DataTypes[r.DataType]
		if !ok {
			v.OneOf(f("dataType"), r.DataType, "int16", "uint16", "int32", "uint32", "float32", "int64", "uint64", "float64")
		}
		if r.Address < 0 || r.Address+width > 65536 {
			v.Add(f("address"), "out_of_range", 0, 65536-max(width, 1))
		}
		v.OneOf(f("wordOrder"), r.WordOrder, "big", "little")
		if math.IsNaN(r.Scale) || math.IsInf(r.Scale, 0) || math.Abs(r.Scale) > 1e9 || math.Abs(r.Scale) < 1e-12 {
			v.Add(f("scale"), "scada_scale")
		}
		v.MaxLen(f("unit"), r.Unit, 16)
		v.OneOf(f("target"), r.Target, SampleFields...)
		if r.Target != "" {
			if other, dup := targets[r.Target]; dup {
				v.Add(f("target"), "scada_duplicate_target", r.Target, other)
			}
			targets[r.Target] = r.Name
		}
		if r.Writable && r.Function != "holding" {
			v.Add(f("writable"), "scada_writable_holding")
		}
	}
	return v.Err()
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
		end := r.Address + DataTypes[r.DataType]
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

// decode turns a register's words (as read, one per register) into its scaled value.
func decode(r *Register, words []uint16) float64 {
	if r.WordOrder == "little" {
		rev := make([]uint16, len(words))
		for i, w := range words {
			rev[len(words)-1-i] = w
		}
		words = rev
	}
	buf := make([]byte, 2*len(words))
	for i, w := range words {
		binary.BigEndian.PutUint16(buf[2*i:], w)
	}
	var v float64
	switch r.DataType {
	case "int16":
		v = float64(int16(binary.BigEndian.Uint16(buf)))
	case "uint16":
		v = float64(binary.BigEndian.Uint16(buf))
	case "int32":
		v = float64(int32(binary.BigEndian.Uint32(buf)))
	case "uint32":
		v = float64(binary.BigEndian.Uint32(buf))
	case "float32":
		v = float64(math.Float32frombits(binary.BigEndian.Uint32(buf)))
	case "int64":
		v = float64(int64(binary.BigEndian.Uint64(buf)))
	case "uint64":
		v = float64(binary.BigEndian.Uint64(buf))
	case "float64":
		v = math.Float64frombits(binary.BigEndian.Uint64(buf))
	}
	return v * r.Scale
}

// encode turns a value in the register's unit into the words to write (ok false when it
// does not fit the data type).
func encode(r *Register, value float64) ([]uint16, bool) {
	raw := value / r.Scale
	width := DataTypes[r.DataType]
	buf := make([]byte, 8)
	fits := func(lo, hi float64) bool { raw = math.Round(raw); return raw >= lo && raw <= hi }
	switch r.DataType {
	case "int16":
		if !fits(math.MinInt16, math.MaxInt16) {
			return nil, false
		}
		binary.BigEndian.PutUint16(buf, uint16(int16(raw)))
	case "uint16":
		if !fits(0, math.MaxUint16) {
			return nil, false
		}
		binary.BigEndian.PutUint16(buf, uint16(raw))
	case "int32":
		if !fits(math.MinInt32, math.MaxInt32) {
			return nil, false
		}
		binary.BigEndian.PutUint32(buf, uint32(int32(raw)))
	case "uint32":
		if !fits(0, math.MaxUint32) {
			return nil, false
		}
		binary.BigEndian.PutUint32(buf, uint32(raw))
	case "float32":
		if math.Abs(raw) > math.MaxFloat32 {
			return nil, false
		}
		binary.BigEndian.PutUint32(buf, math.Float32bits(float32(raw)))
	case "int64":
		if !fits(-9e18, 9e18) {
			return nil, false
		}
		binary.BigEndian.PutUint64(buf, uint64(int64(raw)))
	case "uint64":
		if !fits(0, 1.8e19) {
			return nil, false
		}
		binary.BigEndian.PutUint64(buf, uint64(raw))
	case "float64":
		binary.BigEndian.PutUint64(buf, math.Float64bits(raw))
	}
	words := make([]uint16, width)
	for i := range words {
		words[i] = binary.BigEndian.Uint16(buf[2*i:])
	}
	if r.WordOrder == "little" {
		for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
			words[i], words[j] = words[j], words[i]
		}
	}
	return words, true
}

// mapSample sets a sample's fields from a map's decoded values.
func mapSample(s *telemetry.Sample, regs []Register, values map[string]float64) {
	hasStatus := false
	for _, r := range regs {
		hasStatus = hasStatus || r.Target == "status"
		v, ok := values[r.Name]
		if !ok || r.Target == "" || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		switch r.Target {
		case "power":
			s.PowerKW = v
		case "energy":
			s.EnergyKWh = v
		case "energy2":
			s.Energy2KWh = v
		case "dcVoltage":
			s.DCVoltageV = v
		case "dcCurrent":
			s.DCCurrentA = v
		case "acVoltage":
			s.ACVoltageV = v
		case "frequency":
			s.FrequencyHz = v
		case "temperature":
			s.TempC = v
		case "soc":
			s.SOC = v
		case "irradiance":
			s.IrradianceWm2 = v
		case "status":
			s.Status = int(v)
		case "stringsActive":
			s.StringsActive = int(v)
		}
	}
	if !hasStatus && s.PowerKW != 0 {
		s.Status = telemetry.StatusRunning
	}
}
