package scada

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// reading is one register as read and decoded.
type reading struct {
	Raw   []uint16
	Value float64 // NaN when there is no number (a string, an unlisted code, a bad scale)
	Text  string  // strings; for a code, the name it maps to
	Err   string  // why there is no value, naming what is wrong
}

// words puts a register's words in big-endian order: bytes swapped within each word for
// byteOrder little, words reversed for wordOrder little.
func (r *Register) words(in []uint16) []uint16 {
	out := make([]uint16, len(in))
	for i, w := range in {
		if r.ByteOrder == "little" {
			w = w<<8 | w>>8
		}
		if r.WordOrder == "little" && r.DataType != "string" {
			out[len(in)-1-i] = w
		} else {
			out[i] = w
		}
	}
	return out
}

// number decodes the words as the data type, unscaled; bits is the raw bit pattern for
// whole-number types (bit fields and code tables use it).
func (r *Register) number(words []uint16) (v float64, bits uint64) {
	buf := make([]byte, 8)
	for i, w := range r.words(words) {
		if 2*i+2 <= len(buf) {
			binary.BigEndian.PutUint16(buf[2*i:], w)
		}
	}
	switch r.DataType {
	case "bool":
		if len(words) > 0 && words[0] != 0 {
			return 1, 1
		}
		return 0, 0
	case "int16":
		x := int16(binary.BigEndian.Uint16(buf))
		return float64(x), uint64(uint16(x))
	case "uint16":
		x := binary.BigEndian.Uint16(buf)
		return float64(x), uint64(x)
	case "int32":
		x := int32(binary.BigEndian.Uint32(buf))
		return float64(x), uint64(uint32(x))
	case "uint32":
		x := binary.BigEndian.Uint32(buf)
		return float64(x), uint64(x)
	case "float32":
		return float64(math.Float32frombits(binary.BigEndian.Uint32(buf))), 0
	case "int64":
		x := binary.BigEndian.Uint64(buf)
		return float64(int64(x)), x
	case "uint64":
		x := binary.BigEndian.Uint64(buf)
		return float64(x), x
	case "float64":
		return math.Float64frombits(binary.BigEndian.Uint64(buf)), 0
	}
	return math.NaN(), 0
}

// text decodes a string register: ASCII, two characters per word, trailing NULs and
// spaces dropped, anything outside printable ASCII shown as '?'.
func (r *Register) text(words []uint16) string {
	var b strings.Builder
	for _, w := range r.words(words) {
		for _, c := range []byte{byte(w >> 8), byte(w)} {
			switch {
			case c == 0:
			case c < 0x20 || c > 0x7e:
				b.WriteByte('?')
			default:
				b.WriteByte(c)
			}
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// decode turns a register's words (as read, one per register) into its value with
// everything but a scale register applied: bit, code table, scale and offset.
func decode(r *Register, words []uint16) float64 { return r.decode(words, 0).Value }

// decode is decode with the scale register's exponent (0 without one).
func (r *Register) decode(words []uint16, exp int) reading {
	out := reading{Raw: words, Value: math.NaN()}
	if r.DataType == "string" {
		out.Text = r.text(words)
		return out
	}
	v, bits := r.number(words)
	if r.Bit != nil {
		bits = bits >> uint(*r.Bit) & 1
		v = float64(bits)
	}
	if r.Values != nil {
		code := int64(bits)
		if r.Bit == nil && strings.HasPrefix(r.DataType, "int") {
			code = int64(v) // a negative code as written in the table
		}
		name, ok := lookupCode(r.Values, code)
		if !ok {
			out.Err = fmt.Sprintf("code %d (0x%04X) is not in the table", code, uint64(code)&0xFFFFFFFF)
			return out
		}
		out.Text = name
		out.Value, _ = codeValue(name)
		return out
	}
	out.Value = v*r.Scale*math.Pow10(exp) + r.Offset
	return out
}

// lookupCode finds a code in a table whose keys are decimal or hex ("default" otherwise).
func lookupCode(table map[string]string, code int64) (string, bool) {
	for k, name := range table {
		if c, ok := parseCode(k); ok && c == code {
			return name, true
		}
	}
	name, ok := table["default"]
	return name, ok
}

// decodeAll decodes a map's registers from their words, scale registers first.
func decodeAll(regs []Register, words func(r *Register) []uint16) []reading {
	out := make([]reading, len(regs))
	index := make(map[string]int, len(regs))
	for i := range regs {
		index[regs[i].Name] = i
		if regs[i].ScaleRegister == "" {
			out[i] = regs[i].decode(words(&regs[i]), 0)
		}
	}
	for i := range regs {
		r := &regs[i]
		if r.ScaleRegister == "" {
			continue
		}
		sf := math.NaN()
		if j, ok := index[r.ScaleRegister]; ok {
			sf = out[j].Value
		}
		if math.IsNaN(sf) || sf != math.Trunc(sf) || math.Abs(sf) > 10 {
			out[i] = reading{Raw: words(r), Value: math.NaN(), Err: fmt.Sprintf("scale register %s is %v, not an exponent from -10 to 10", r.ScaleRegister, sf)}
			continue
		}
		out[i] = r.decode(words(r), int(sf))
	}
	return out
}

// encode turns a value in the register's unit into the words to write (ok false when it
// does not fit the data type).
func encode(r *Register, value float64) ([]uint16, bool) {
	raw := (value - r.Offset) / r.Scale
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
	default:
		return nil, false // strings and bits are not written
	}
	words := make([]uint16, width)
	for i := range words {
		words[i] = binary.BigEndian.Uint16(buf[2*i:])
	}
	// words() is its own inverse: the same swaps put big-endian words in device order
	return r.words(words), true
}
