package importer

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Row rejection reasons of the importer's own (the write path adds its reasons).
const (
	ReasonBadTime       = "unparseable_time"
	ReasonUnknownDevice = "unknown_device"
	ReasonNoDevice      = "missing_device"
	ReasonNotNumber     = "not_a_number"
	ReasonShortRow      = "missing_columns"
)

// Resolver finds a device of the organisation by serial number or name.
type Resolver func(key string) (id int64, ok bool)

type plannedCol struct {
	idx    int
	field  string
	factor float64
	delta  bool // per-interval energy, summed into a running counter
	group  int  // index into Converter.groups
}

type group struct {
	key   string // the column's device ("" : the row's or the file's)
	fixed int64  // resolved device of key (0: resolved per row)
}

// Converter turns a file's data rows into samples following a mapping. It keeps one
// running counter per device and energy field for per-interval energy, so that the write
// path's counter logic yields the same day totals as a device's own counter would.
type Converter struct {
	loc     *time.Location
	format  string
	timeIdx int
	devIdx  int
	width   int
	cols    []plannedCol
	groups  []group
	file    int64 // the file's device (0: none)
	resolve Resolver
	// State holds the running counters: per device, the main and second counter.
	State map[int64]*[2]float64
	// Base gives a device's starting counters the first time it is seen, at time t: the
	// stored counters just before t, so imported history continues them.
	Base func(dev int64, t time.Time) [2]float64

	samples []telemetry.Sample
	// Deltas holds, beside each sample Convert answers, the per-interval energy it added to
	// the device's running counters: taken back if the row is rejected later.
	Deltas []([2]float64)
	vals   []float64
	seen   []bool
}

// NewConverter plans the mapping against a file's header. fileDevice is the file's device
// when neither the mapping nor a column names one (0: none). It fails with a FieldError
// naming a column the header lacks.
func NewConverter(m Mapping, header []string, loc *time.Location, fileDevice int64, resolve Resolver) (*Converter, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	if m.Zone != "" {
		loc, _ = time.LoadLocation(m.Zone)
	}
	if loc == nil {
		loc = time.UTC
	}
	index := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := index[h]; !dup {
			index[h] = i
		}
	}
	c := &Converter{loc: loc, format: m.TimeFormat, devIdx: -1, file: fileDevice, resolve: resolve,
		State: map[int64]*[2]float64{}}
	var ok bool
	if c.timeIdx, ok = index[strings.TrimSpace(m.TimeColumn)]; !ok {
		return nil, &FieldError{"timeColumn", "not_in_file"}
	}
	c.width = c.timeIdx
	if m.DeviceColumn != "" {
		if c.devIdx, ok = index[strings.TrimSpace(m.DeviceColumn)]; !ok {
			return nil, &FieldError{"deviceColumn", "not_in_file"}
		}
		c.width = max(c.width, c.devIdx)
	}
	groupOf := map[string]int{}
	for i, col := range m.Columns {
		idx, ok := index[strings.TrimSpace(col.Name)]
		if !ok {
			return nil, &FieldError{"columns[" + strconv.Itoa(i) + "].name", "not_in_file"}
		}
		f, _ := unitFactor(col.Field, col.Unit)
		g, ok := groupOf[col.Device]
		if !ok {
			g = len(c.groups)
			groupOf[col.Device] = g
			gr := group{key: col.Device}
			if col.Device != "" {
				id, found := resolve(col.Device)
				if !found {
					return nil, &FieldError{"columns[" + strconv.Itoa(i) + "].device", ReasonUnknownDevice}
				}
				gr.fixed = id
			}
			c.groups = append(c.groups, gr)
		}
		c.cols = append(c.cols, plannedCol{idx: idx, field: col.Field, factor: f, delta: col.Energy == EnergyInterval, group: g})
		c.width = max(c.width, idx)
	}
	if c.devIdx < 0 && fileDevice == 0 {
		for i, g := range c.groups {
			if g.key == "" {
				return nil, &FieldError{"columns[" + strconv.Itoa(i) + "].device", ReasonNoDevice}
			}
		}
	}
	c.vals = make([]float64, len(c.cols))
	c.seen = make([]bool, len(c.cols))
	return c, nil
}

// Convert reads one data row. It answers the row's samples (reused by the next call), or
// a reason and the column at fault when the row is rejected whole.
func (c *Converter) Convert(row []string) (samples []telemetry.Sample, reason, column string) {
	c.samples = c.samples[:0]
	c.Deltas = c.Deltas[:0]
	if len(row) <= c.timeIdx {
		return nil, ReasonShortRow, ""
	}
	t, ok := ParseTime(row[c.timeIdx], c.format, c.loc)
	if !ok {
		return nil, ReasonBadTime, ""
	}
	rowDev := c.file
	if c.devIdx >= 0 {
		if c.devIdx >= len(row) || strings.TrimSpace(row[c.devIdx]) == "" {
			return nil, ReasonNoDevice, ""
		}
		id, found := c.resolve(strings.TrimSpace(row[c.devIdx]))
		if !found {
			return nil, ReasonUnknownDevice, ""
		}
		rowDev = id
	}
	for i, pc := range c.cols {
		c.seen[i] = false
		if pc.idx >= len(row) {
			continue
		}
		v := strings.TrimSpace(row[pc.idx])
		if v == "" || v == "-" || v == "--" {
			continue
		}
		x, ok := parseNumber(v)
		if !ok {
			return nil, ReasonNotNumber, strconv.Itoa(pc.idx)
		}
		c.vals[i], c.seen[i] = x*pc.factor, true
	}
	for g := range c.groups {
		dev := c.groups[g].fixed
		if dev == 0 {
			dev = rowDev
		}
		s := telemetry.Sample{DeviceID: dev, Time: t}
		var delta [2]float64
		any := false
		for i, pc := range c.cols {
			if pc.group != g {
				continue
			}
			st := c.state(dev, t)
			slot := 0
			if pc.field == FieldEnergy2 {
				slot = 1
			}
			switch pc.field {
			case FieldEnergy, FieldEnergy2:
				// an empty counter cell keeps the last reading: the next one credits the gap
				if c.seen[i] {
					if pc.delta {
						st[slot] += c.vals[i]
						delta[slot] += c.vals[i]
					} else {
						st[slot] = c.vals[i]
					}
				}
				setEnergy(&s, slot, st[slot])
			default:
				if c.seen[i] {
					setField(&s, pc.field, c.vals[i])
				}
			}
			any = any || c.seen[i]
		}
		if !any {
			continue // nothing for this device in the row
		}
		if s.Status == 0 && s.PowerKW > 0 {
			s.Status = telemetry.StatusRunning
		}
		c.samples = append(c.samples, s)
		c.Deltas = append(c.Deltas, delta)
	}
	return c.samples, "", ""
}

func (c *Converter) state(dev int64, t time.Time) *[2]float64 {
	st := c.State[dev]
	if st == nil {
		st = new([2]float64)
		if c.Base != nil {
			*st = c.Base(dev, t)
		}
		c.State[dev] = st
	}
	return st
}

func setEnergy(s *telemetry.Sample, slot int, v float64) {
	if slot == 0 {
		s.EnergyKWh = v
	} else {
		s.Energy2KWh = v
	}
}

// sampleField numbers the mapping's fields as telemetry.SampleFields.
var sampleField = map[string]int{FieldPower: telemetry.FieldPower, FieldDCVoltage: telemetry.FieldDCVoltage,
	FieldDCCurrent: telemetry.FieldDCCurrent, FieldACVoltage: telemetry.FieldACVoltage, FieldFrequency: telemetry.FieldFrequency,
	FieldTemp: telemetry.FieldTemp, FieldSOC: telemetry.FieldSOC, FieldIrradiance: telemetry.FieldIrradiance}

func setField(s *telemetry.Sample, field string, v float64) {
	if field == FieldStatus {
		s.Status = int(v) // a status code as the file writes it, not rounded
		return
	}
	if i, ok := sampleField[field]; ok {
		s.SetField(i, v)
	}
}

// parseNumber reads a decimal number written either way: "1234.5", "1,234.5", "1.234,5",
// "1234,5" (the decimal comma of semicolon-separated European exports).
func parseNumber(v string) (float64, bool) {
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	dot, comma := strings.LastIndexByte(v, '.'), strings.LastIndexByte(v, ',')
	switch {
	case comma >= 0 && dot > comma: // 1,234.5
		v = strings.ReplaceAll(v, ",", "")
	case comma >= 0: // 1.234,5 or 1234,5
		v = strings.ReplaceAll(v, ".", "")
		v = strings.Replace(v, ",", ".", 1)
	}
	x, err := strconv.ParseFloat(v, 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}
