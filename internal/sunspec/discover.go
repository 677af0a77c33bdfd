package sunspec

import (
	"errors"
	"fmt"
)

// Reader reads holding registers of one device (unit) over whatever carries them.
type Reader interface {
	ReadHolding(addr, count uint16) ([]uint16, error)
}

// Bases are where a SunSpec map may start, in the order they are tried.
var Bases = []uint16{40000, 50000, 0}

// MaxRead is the most registers one Modbus read may ask for.
const MaxRead = 125

// maxModels bounds the chain walk on a device whose chain never ends.
const maxModels = 64

// Header is one model in a device's chain.
type Header struct {
	ID   int    `json:"id"`
	Addr uint16 `json:"addr" doc:"address of the model's ID register"`
	Len  int    `json:"len" doc:"registers after ID and L"`
}

// Layout is a device's SunSpec map: where it starts and its model chain.
type Layout struct {
	Base   uint16   `json:"base"`
	Models []Header `json:"models"`
}

// ErrNotSunSpec means no base held the "SunS" marker.
var ErrNotSunSpec = errors.New("sunspec: no SunS marker at 40000, 50000 or 0")

// IsException reports whether err is the device's own refusal (a Modbus exception: the
// error has an Exception() method answering true) rather than a broken link. Discover
// tries the next base only on those.
func IsException(err error) bool {
	var e interface{ Exception() bool }
	return errors.As(err, &e) && e.Exception()
}

// Discover finds the marker and walks the model chain up to the end marker (0xFFFF).
func Discover(r Reader) (*Layout, error) {
	var refused error
	for _, base := range Bases {
		regs, err := r.ReadHolding(base, 2)
		if err != nil {
			if IsException(err) {
				refused = err
				continue
			}
			return nil, err
		}
		if len(regs) != 2 || regs[0] != 0x5375 || regs[1] != 0x6E53 {
			continue
		}
		return walk(r, base)
	}
	if refused != nil {
		return nil, fmt.Errorf("%w (the device answered %w)", ErrNotSunSpec, refused)
	}
	return nil, ErrNotSunSpec
}

func walk(r Reader, base uint16) (*Layout, error) {
	l := &Layout{Base: base}
	addr := int(base) + 2
	for range maxModels {
		if addr+2 > 0xFFFF {
			return nil, fmt.Errorf("sunspec: model chain runs past the last register")
		}
		h, err := r.ReadHolding(uint16(addr), 2)
		if err != nil {
			return nil, fmt.Errorf("sunspec: model header at %d: %w", addr, err)
		}
		if len(h) != 2 {
			return nil, fmt.Errorf("sunspec: short model header at %d", addr)
		}
		if h[0] == 0xFFFF {
			if len(l.Models) == 0 {
				return nil, fmt.Errorf("sunspec: empty model chain at %d", base)
			}
			return l, nil
		}
		l.Models = append(l.Models, Header{ID: int(h[0]), Addr: uint16(addr), Len: int(h[1])})
		addr += int(h[1]) + 2
	}
	return nil, fmt.Errorf("sunspec: more than %d models without an end marker", maxModels)
}

// Read reads every model of the layout the product has a table for (others are skipped;
// the common model only when withCommon).
func Read(r Reader, l *Layout, withCommon bool) ([]Block, error) {
	var out []Block
	for _, h := range l.Models {
		if _, ok := Lookup(h.ID); !ok || (h.ID == 1 && !withCommon) {
			continue
		}
		n := h.Len + 2
		regs := make([]uint16, 0, n)
		for off := 0; off < n; off += MaxRead {
			c := min(MaxRead, n-off)
			part, err := r.ReadHolding(h.Addr+uint16(off), uint16(c))
			if err != nil {
				return nil, fmt.Errorf("sunspec: model %d at %d: %w", h.ID, h.Addr, err)
			}
			if len(part) != c {
				return nil, fmt.Errorf("sunspec: model %d: %d registers, want %d", h.ID, len(part), c)
			}
			regs = append(regs, part...)
		}
		if int(regs[0]) != h.ID {
			return nil, fmt.Errorf("sunspec: model %d moved (found %d at %d)", h.ID, regs[0], h.Addr)
		}
		out = append(out, Block{ID: h.ID, Addr: h.Addr, Regs: regs})
	}
	return out, nil
}
