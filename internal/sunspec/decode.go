package sunspec

import (
	"math"
	"strings"
)

// Block is one model as read from a device: its id, the address of its ID register and
// its registers from the ID register on (fixed block and repeating groups).
type Block struct {
	ID   int      `json:"id"`
	Addr uint16   `json:"addr"`
	Regs []uint16 `json:"-"`
}

// Not-implemented values, per SunSpec point type.
const (
	niInt16  = 0x8000
	niUint16 = 0xFFFF
)

// raw returns the point's registers (nil when they lie outside the block).
func (b *Block) raw(off, size int) []uint16 {
	if off < 0 || off+size > len(b.Regs) {
		return nil
	}
	return b.Regs[off : off+size]
}

// unscaled decodes a point's registers; ok false when the point is not implemented.
// Accumulators come back as read: wrap is the caller's (see Accumulators).
func unscaled(typ string, r []uint16) (float64, bool) {
	if r == nil {
		return 0, false
	}
	switch typ {
	case "int16":
		if r[0] == niInt16 {
			return 0, false
		}
		return float64(int16(r[0])), true
	case "uint16", "enum16", "count":
		if r[0] == niUint16 {
			return 0, false
		}
		return float64(r[0]), true
	case "sunssf":
		v := int16(r[0])
		if r[0] == niInt16 || v < -10 || v > 10 {
			return 0, false
		}
		return float64(v), true
	case "acc32":
		v := uint32(r[0])<<16 | uint32(r[1])
		if v == 0 {
			return 0, false
		}
		return float64(v), true
	case "uint32":
		v := uint32(r[0])<<16 | uint32(r[1])
		if v == math.MaxUint32 {
			return 0, false
		}
		return float64(v), true
	case "uint64", "acc64":
		v := uint64(r[0])<<48 | uint64(r[1])<<32 | uint64(r[2])<<16 | uint64(r[3])
		if v == math.MaxUint64 || (typ == "acc64" && v == 0) {
			return 0, false
		}
		return float64(v), true
	case "float32":
		f := float64(math.Float32frombits(uint32(r[0])<<16 | uint32(r[1])))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// sf returns the scale factor named by a point (ok false when named but not implemented).
func (b *Block) sf(m *Model, name string) (float64, bool) {
	if name == "" {
		return 0, true
	}
	pt, found := m.Point(name)
	if !found {
		return 0, false
	}
	return unscaled("sunssf", b.raw(pt.Offset, 1))
}

// value returns a point's scaled value at a base offset (0 for the fixed block, a group's
// start for a repeating group's point).
func (b *Block) value(m *Model, pt Point, base int, acc *Accumulators) (float64, bool) {
	v, ok := unscaled(pt.Type, b.raw(base+pt.Offset, pt.Size))
	if !ok {
		return 0, false
	}
	if pt.Type == "acc32" && acc != nil {
		v = acc.unwrap(b.ID, pt.Name, v)
	}
	e, ok := b.sf(m, pt.SF)
	if !ok {
		return 0, false
	}
	return v * math.Pow(10, e), true
}

// Value returns the scaled value of a fixed-block point by name.
func (b *Block) Value(name string) (float64, bool) {
	m, ok := Lookup(b.ID)
	if !ok {
		return 0, false
	}
	pt, ok := m.Point(name)
	if !ok {
		return 0, false
	}
	return b.value(m, pt, 0, nil)
}

// Text returns a string point (common model), trimmed of its NUL padding.
func (b *Block) Text(name string) string {
	m, ok := Lookup(b.ID)
	if !ok {
		return ""
	}
	pt, ok := m.Point(name)
	if !ok || pt.Type != "string" {
		return ""
	}
	r := b.raw(pt.Offset, pt.Size)
	buf := make([]byte, 0, 2*len(r))
	for _, w := range r {
		buf = append(buf, byte(w>>8), byte(w))
	}
	return strings.TrimSpace(strings.TrimRight(string(buf), "\x00"))
}

// groups returns the base offsets of a model's repeating groups present in the block.
func (b *Block) groups(m *Model) []int {
	if m.Repeat == nil {
		return nil
	}
	n := (len(b.Regs) - m.Repeat.Start) / m.Repeat.Size
	if cp, ok := m.Point(m.Repeat.Count); ok && m.Repeat.Count != "" {
		n = 0
		if v, ok := unscaled(cp.Type, b.raw(cp.Offset, 1)); ok {
			n = int(v)
		}
	}
	var out []int
	for i := 0; i < n; i++ {
		base := m.Repeat.Start + i*m.Repeat.Size
		if base+m.Repeat.Size > len(b.Regs) {
			break
		}
		out = append(out, base)
	}
	return out
}

// Accumulators unwraps 32-bit energy accumulators across polls: a reading below the
// previous one by more than half the range is a wrap, not a reset. One per device.
type Accumulators struct {
	last  map[string]float64
	wraps map[string]float64
}

const acc32Range = 1 << 32

func (a *Accumulators) unwrap(model int, name string, raw float64) float64 {
	if a.last == nil {
		a.last, a.wraps = map[string]float64{}, map[string]float64{}
	}
	k := string(rune(model)) + name
	if prev, ok := a.last[k]; ok && raw < prev && prev-raw > acc32Range/2 {
		a.wraps[k]++
	}
	a.last[k] = raw
	return raw + a.wraps[k]*acc32Range
}
