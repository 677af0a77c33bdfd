package scada

import (
	"fmt"
	"strings"
)

// functionKey keeps the four Modbus tables apart in one word map.
var functionKey = map[string]int{"holding": 0, "input": 1 << 17, "coil": 2 << 17, "discrete": 3 << 17}

// readMap reads a register map's spans and decodes every register (readings in the
// map's order). A failed read names the registers it was for.
func readMap(l *link, regs []Register) ([]reading, error) {
	words := map[int]uint16{}
	for _, sp := range spans(regs) {
		n := sp.end - sp.start
		var v []uint16
		var err error
		if sp.function == "coil" || sp.function == "discrete" {
			v, err = l.readBits(sp.function, uint16(sp.start), uint16(n))
		} else {
			v, err = l.read(sp.function, uint16(sp.start), uint16(n))
		}
		if err == nil && len(v) != n {
			err = fmt.Errorf("%d values, want %d", len(v), n)
		}
		if err != nil {
			return nil, spanError{sp: sp, names: spanNames(regs, sp), err: err}
		}
		for i, w := range v {
			words[functionKey[sp.function]+sp.start+i] = w
		}
	}
	return decodeAll(regs, func(r *Register) []uint16 {
		ws := make([]uint16, r.width())
		for k := range ws {
			ws[k] = words[functionKey[r.Function]+r.Address+k]
		}
		return ws
	}), nil
}

// spanError is a failed read with the registers it covered; it unwraps to the link's
// error so that exceptions stay exceptions.
type spanError struct {
	sp    span
	names string
	err   error
}

func (e spanError) Error() string {
	return fmt.Sprintf("%s %d-%d (%s): %v", e.sp.function, e.sp.start, e.sp.end-1, e.names, e.err)
}

func (e spanError) Unwrap() error { return e.err }

// spanNames lists the registers a span covers (the first few, then how many more).
func spanNames(regs []Register, sp span) string {
	var names []string
	more := 0
	for i := range regs {
		r := &regs[i]
		if r.Function != sp.function || r.Address < sp.start || r.Address >= sp.end {
			continue
		}
		if len(names) < 6 {
			names = append(names, r.Name)
		} else {
			more++
		}
	}
	s := strings.Join(names, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}
