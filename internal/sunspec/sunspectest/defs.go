// Package sunspectest builds SunSpec register maps from the Alliance's JSON definitions
// (../shared/sunspec beside the repository) and serves them over real Modbus TCP, for
// tests and benchmarks.
package sunspectest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Dir finds the shared SunSpec definitions: $HELIO_SUNSPEC_DIR, else a shared/sunspec
// folder beside the repository or any folder above the working directory. Tests skip
// with a clear message when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d, err := find(); err == nil {
		return d
	}
	tb.Skip("SunSpec definitions not found: put the shared folder (shared/sunspec) beside the clone or set HELIO_SUNSPEC_DIR")
	return ""
}

func find() (string, error) {
	if d := os.Getenv("HELIO_SUNSPEC_DIR"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "sunspec")
		if _, err := os.Stat(filepath.Join(c, "model_1.json")); err == nil {
			return c, nil
		}
		if filepath.Dir(d) == d {
			return "", os.ErrNotExist
		}
	}
}

// DefPoint is a point of a JSON definition.
type DefPoint struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Size  int    `json:"size"`
	SF    any    `json:"sf"`
	Units string `json:"units"`
}

// DefGroup is a group of a JSON definition (the model, or a repeating group).
type DefGroup struct {
	Name   string     `json:"name"`
	Count  any        `json:"count"`
	Points []DefPoint `json:"points"`
	Groups []DefGroup `json:"groups"`
}

// Def is one model's JSON definition.
type Def struct {
	ID    int      `json:"id"`
	Group DefGroup `json:"group"`
}

// Load reads model id's definition.
func Load(tb testing.TB, id int) *Def {
	tb.Helper()
	d, err := LoadFrom(Dir(tb), id)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// Find locates the definitions folder as Dir does, without a test.
func Find() (string, error) { return find() }

// LoadFrom reads model id's definition from a folder.
func LoadFrom(dir string, id int) (*Def, error) {
	b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("model_%d.json", id)))
	if err != nil {
		return nil, err
	}
	var d Def
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("model %d: %w", id, err)
	}
	return &d, nil
}

// Offsets returns each point's offset in a group and the group's size.
func (g *DefGroup) Offsets() (map[string]int, int) {
	out := map[string]int{}
	off := 0
	for _, p := range g.Points {
		out[p.Name] = off
		off += p.Size
	}
	return out, off
}

// SFName is the point's scale-factor point name ("" when none or a constant).
func (p DefPoint) SFName() string {
	s, _ := p.SF.(string)
	return s
}

// Block encodes the model: values are physical values by point name (scaled with the
// scale factors in sfs), groups the repeating groups' values; every other point carries
// its "not implemented" value. ID and L are filled in.
func (d *Def) Block(values map[string]float64, sfs map[string]int, groups []map[string]float64) []uint16 {
	out := encode(&d.Group, values, sfs)
	if len(d.Group.Groups) > 0 {
		for _, gv := range groups {
			out = append(out, encode(&d.Group.Groups[0], gv, sfs)...)
		}
	}
	out[0] = uint16(d.ID)
	out[1] = uint16(len(out) - 2)
	return out
}

func encode(g *DefGroup, values map[string]float64, sfs map[string]int) []uint16 {
	var out []uint16
	for _, p := range g.Points {
		v, set := values[p.Name]
		if p.Type == "sunssf" {
			if e, ok := sfs[p.Name]; ok {
				out = append(out, uint16(int16(e)))
			} else {
				out = append(out, 0x8000)
			}
			continue
		}
		if set && p.SFName() != "" {
			v = math.Round(v / math.Pow(10, float64(sfs[p.SFName()])))
		}
		out = append(out, word(p.Type, p.Size, v, set)...)
	}
	return out
}

func word(typ string, size int, v float64, set bool) []uint16 {
	w := make([]uint16, size)
	switch typ {
	case "int16":
		w[0] = 0x8000
		if set {
			w[0] = uint16(int16(v))
		}
	case "uint16", "enum16", "count", "bitfield16":
		w[0] = 0xFFFF
		if set {
			w[0] = uint16(v)
		}
	case "acc32", "uint32", "bitfield32", "int32":
		u := uint32(math.MaxUint32)
		switch {
		case typ == "int32":
			u = 0x80000000
		case typ == "acc32":
			u = 0
		}
		if set {
			u = uint32(int64(v))
		}
		w[0], w[1] = uint16(u>>16), uint16(u)
	case "uint64", "acc64":
		u := uint64(math.MaxUint64)
		if typ == "acc64" {
			u = 0
		}
		if set {
			u = uint64(v)
		}
		w[0], w[1], w[2], w[3] = uint16(u>>48), uint16(u>>32), uint16(u>>16), uint16(u)
	case "float32":
		u := math.Float32bits(float32(math.NaN()))
		if set {
			u = math.Float32bits(float32(v))
		}
		w[0], w[1] = uint16(u>>16), uint16(u)
	}
	return w
}

// String encodes text into a string point's registers.
func String(s string, size int) []uint16 {
	w := make([]uint16, size)
	for i := 0; i < len(s) && i < 2*size; i++ {
		if i%2 == 0 {
			w[i/2] |= uint16(s[i]) << 8
		} else {
			w[i/2] |= uint16(s[i])
		}
	}
	return w
}
