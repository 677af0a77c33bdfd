package scada

import (
	"fmt"
	"math"
	"strings"
)

// functionKey keeps the four Modbus tables apart in one word map.
var functionKey = map[string]int{"holding": 0, "input": 1 << 17, "coil": 2 << 17, "discrete": 3 << 17}

// readMap reads a register map's spans and decodes every register (readings in the
// map's order). A failed read names the registers it was for.
func readMap(l *link, regs []Register) ([]reading, error) {
	words, _, err := readSpans(l, regs, false)
	if err != nil {
		return nil, err
	}
	return decodeAll(regs, wordsOf(words)), nil
}

// previewMap reads a map once as it would be polled, but a read the device refuses
// (an exception) only marks the registers it covered: the editor shows which registers
// are wrong and the others' values. A broken link still fails the whole call.
func previewMap(l *link, regs []Register) ([]reading, error) {
	words, refused, err := readSpans(l, regs, true)
	if err != nil {
		return nil, err
	}
	rd := decodeAll(regs, wordsOf(words))
	for _, se := range refused {
		for i := range regs {
			r := &regs[i]
			if r.Function == se.sp.function && r.Address >= se.sp.start && r.Address < se.sp.end {
				rd[i] = reading{Value: math.NaN(), Err: se.Error()}
			}
		}
	}
	// a register scaled by a refused one has no value either (its exponent was not read)
	index := make(map[string]int, len(regs))
	for i := range regs {
		index[regs[i].Name] = i
	}
	for i := range regs {
		if j, ok := index[regs[i].ScaleRegister]; ok && regs[i].ScaleRegister != "" && rd[j].Raw == nil {
			rd[i] = reading{Value: math.NaN(), Err: "scale register " + regs[i].ScaleRegister + " was not read"}
		}
	}
	return rd, nil
}

// readSpans reads every span into a word map; with keepGoing, spans the device refuses
// are listed instead of ending the read.
func readSpans(l *link, regs []Register, keepGoing bool) (map[int]uint16, []spanError, error) {
	words := map[int]uint16{}
	var refused []spanError
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
			se := spanError{sp: sp, names: spanNames(regs, sp), err: err}
			if keepGoing && IsException(err) {
				refused = append(refused, se)
				continue
			}
			return nil, nil, se
		}
		for i, w := range v {
			words[functionKey[sp.function]+sp.start+i] = w
		}
	}
	return words, refused, nil
}

func wordsOf(words map[int]uint16) func(r *Register) []uint16 {
	return func(r *Register) []uint16 {
		ws := make([]uint16, r.width())
		for k := range ws {
			ws[k] = words[functionKey[r.Function]+r.Address+k]
		}
		return ws
	}
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
