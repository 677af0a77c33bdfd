package scada

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

var nameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)

// statusNames are the Helio statuses a code table may name (telemetry.StatusXxx).
var statusNames = map[string]int{"standby": telemetry.StatusStandby, "running": telemetry.StatusRunning, "fault": telemetry.StatusFault,
	"overTemp": telemetry.StatusOverTemp, "gridFault": telemetry.StatusGridFault}

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
	if err := v.Err(); err != nil {
		return err
	}
	names := map[string]int{}
	for i := range in.Registers {
		in.Registers[i].defaults()
		if _, dup := names[in.Registers[i].Name]; !dup {
			names[in.Registers[i].Name] = i
		}
	}
	targets := map[string]int{}
	for i := range in.Registers {
		r := &in.Registers[i]
		f := func(name string) string { return fmt.Sprintf("registers[%d].%s", i, name) }
		switch {
		case !v.Required(f("name"), r.Name):
		case len(r.Name) > maxNameLen:
			v.MaxLen(f("name"), r.Name, maxNameLen)
		case !nameRe.MatchString(r.Name):
			v.Add(f("name"), "scada_register_name")
		case names[r.Name] != i:
			v.Add(f("name"), "scada_duplicate_name", r.Name)
		}
		r.validateShape(&v, f)
		r.validateScale(&v, f, in.Registers, names)
		r.validateCodes(&v, f)
		v.MaxLen(f("unit"), r.Unit, 16)
		v.OneOf(f("target"), r.Target, SampleFields...)
		r.validateTarget(&v, f, in.Registers, targets, i)
	}
	if v.Err() == nil {
		overlaps(&v, in.Registers)
	}
	return v.Err()
}

func (r *Register) defaults() {
	if r.WordOrder == "" {
		r.WordOrder = "big"
	}
	if r.ByteOrder == "" {
		r.ByteOrder = "big"
	}
	if r.Scale == 0 {
		r.Scale = 1
	}
}

func (r *Register) integer() bool {
	return strings.HasPrefix(r.DataType, "int") || strings.HasPrefix(r.DataType, "uint") || r.DataType == "bool"
}

// validateShape checks function, type, width, address and orders.
func (r *Register) validateShape(v *httpapi.Validator, f func(string) string) {
	v.OneOf(f("function"), r.Function, "holding", "input", "coil", "discrete")
	width, ok := DataTypes[r.DataType]
	if !ok {
		v.OneOf(f("dataType"), r.DataType, "int16", "uint16", "int32", "uint32", "float32", "int64", "uint64", "float64", "string", "bool")
	}
	bits := r.Function == "coil" || r.Function == "discrete"
	if ok && bits != (r.DataType == "bool") {
		v.Add(f("dataType"), "scada_bool_function")
	}
	if r.DataType == "string" {
		if r.Size < 1 || r.Size > maxStringLen {
			v.Add(f("size"), "out_of_range", 1, maxStringLen)
		}
		width = max(r.Size, 1)
		if r.Target != "" || r.Values != nil || r.Writable || r.Bit != nil || r.ScaleRegister != "" || r.Sum {
			v.Add(f("dataType"), "scada_display_only")
		}
	} else if r.Size != 0 {
		v.Add(f("size"), "scada_size_string")
	}
	if r.Address < 0 || r.Address+width > 65536 {
		v.Add(f("address"), "out_of_range", 0, 65536-max(width, 1))
	}
	v.OneOf(f("wordOrder"), r.WordOrder, "big", "little")
	v.OneOf(f("byteOrder"), r.ByteOrder, "big", "little")
	if r.Bit != nil {
		switch {
		case !r.integer() || r.DataType == "bool":
			v.Add(f("bit"), "scada_integer_only", "bit")
		case *r.Bit < 0 || *r.Bit >= 16*width:
			v.Add(f("bit"), "out_of_range", 0, 16*width-1)
		}
	}
	if r.Writable {
		switch {
		case r.Function != "holding":
			v.Add(f("writable"), "scada_writable_holding")
		case r.Bit != nil || r.Values != nil || r.ScaleRegister != "":
			v.Add(f("writable"), "scada_writable_plain")
		}
	}
}

// validateScale checks scale, offset and the scale register.
func (r *Register) validateScale(v *httpapi.Validator, f func(string) string, regs []Register, names map[string]int) {
	if math.IsNaN(r.Scale) || math.IsInf(r.Scale, 0) || math.Abs(r.Scale) > 1e9 || math.Abs(r.Scale) < 1e-12 {
		v.Add(f("scale"), "scada_scale")
	}
	if math.IsNaN(r.Offset) || math.IsInf(r.Offset, 0) || math.Abs(r.Offset) > 1e12 {
		v.Add(f("offset"), "scada_offset")
	}
	if r.ScaleRegister == "" {
		return
	}
	j, ok := names[r.ScaleRegister]
	switch {
	case !ok || r.ScaleRegister == r.Name:
		v.Add(f("scaleRegister"), "scada_scale_register", r.ScaleRegister)
	case regs[j].ScaleRegister != "" || !regs[j].integer() || regs[j].Bit != nil || regs[j].Values != nil:
		v.Add(f("scaleRegister"), "scada_scale_register_plain", r.ScaleRegister)
	case r.Bit != nil || r.Values != nil:
		v.Add(f("scaleRegister"), "scada_integer_only", "scaleRegister")
	}
}

// validateCodes checks a code table: keys are codes, values statuses or numbers.
func (r *Register) validateCodes(v *httpapi.Validator, f func(string) string) {
	if r.Values == nil {
		return
	}
	if !r.integer() {
		v.Add(f("values"), "scada_integer_only", "values")
		return
	}
	if len(r.Values) > maxCodes {
		v.Add(f("values"), "scada_too_many_codes", maxCodes)
		return
	}
	keys := make([]string, 0, len(r.Values))
	for k := range r.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first bad key reported is the same every time
	for _, k := range keys {
		field := f("values." + clip(k, 24))
		if _, ok := parseCode(k); !ok && k != "default" {
			v.Add(field, "scada_code")
			continue
		}
		if _, ok := codeValue(r.Values[k]); !ok {
			v.Add(field, "scada_code_value")
		}
	}
}

// validateTarget checks the target's rules: one register per target unless all sum.
func (r *Register) validateTarget(v *httpapi.Validator, f func(string) string, regs []Register, targets map[string]int, i int) {
	if r.Target == "" {
		if r.Sum {
			v.Add(f("sum"), "scada_sum_target")
		}
		return
	}
	if r.Sum && (r.Target == "status" || r.Target == "fault") {
		v.Add(f("sum"), "scada_sum_target")
		return
	}
	j, dup := targets[r.Target]
	switch {
	case !dup:
		targets[r.Target] = i
	case r.Target == "fault": // several alarm registers may each raise a fault
	case !r.Sum || !regs[j].Sum:
		v.Add(f("target"), "scada_duplicate_target", r.Target, regs[j].Name)
	}
}

// overlaps refuses registers that share part of their words: sharing exactly the same
// words is fine (bit fields of one register, a code read as status and as fault).
func overlaps(v *httpapi.Validator, regs []Register) {
	idx := make([]int, len(regs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ra, rb := &regs[idx[a]], &regs[idx[b]]
		if ra.Function != rb.Function {
			return ra.Function < rb.Function
		}
		return ra.Address < rb.Address
	})
	reach := -1 // index (in idx) of the register reaching furthest so far in this function
	for n, i := range idx {
		r := &regs[i]
		if reach >= 0 {
			p := &regs[idx[reach]]
			if p.Function != r.Function {
				reach = -1
			} else if r.Address < p.Address+p.width() && (r.Address != p.Address || r.width() != p.width()) {
				v.Add(fmt.Sprintf("registers[%d].address", i), "scada_overlap", p.Name, p.Address, p.Address+p.width()-1)
			}
		}
		if reach < 0 || r.Address+r.width() > regs[idx[reach]].Address+regs[idx[reach]].width() {
			reach = n
		}
	}
}

// parseCode reads a code table key: decimal (may be negative) or 0x hex.
func parseCode(k string) (int64, bool) {
	if h, ok := strings.CutPrefix(strings.ToLower(k), "0x"); ok {
		u, err := strconv.ParseUint(h, 16, 64)
		return int64(u), err == nil
	}
	n, err := strconv.ParseInt(k, 10, 64)
	return n, err == nil
}

// codeValue reads a code table value: a status name or a finite number.
func codeValue(s string) (float64, bool) {
	if st, ok := statusNames[s]; ok {
		return float64(st), true
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
