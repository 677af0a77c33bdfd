package telemetry

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
)

// Stats are the figures of one roll-up bucket of a device or of a station (all its
// devices of one kind). Everything but the power extremes adds up across buckets.
type Stats struct {
	// EnergyKWh and Energy2KWh come from the counters (see StepCounter): produced,
	// discharged or imported; charged or exported.
	EnergyKWh  float64 `json:"energyKwh"`
	Energy2KWh float64 `json:"energy2Kwh"`
	// PowerKWh is the integral of the reported power (trapezoids between samples at most
	// Options.MaxGap apart); for batteries and meters it is net (signed).
	PowerKWh float64 `json:"powerKwh"`
	// MaxPowerKW and MinPowerKW are the extremes of the reported power for a device, of the
	// station's 5-minute average power for a station; NaN when the bucket has none.
	MaxPowerKW float64 `json:"maxPowerKw"`
	MinPowerKW float64 `json:"minPowerKw"`
	// Samples counts the samples whose instant falls in the bucket.
	Samples int64 `json:"samples"`
	// IrradianceSum is the sum of the samples' irradiance (W/m²): ÷ Samples = average.
	IrradianceSum float64 `json:"irradianceSum"`
	// IrradiationKWhM2 is the plane-of-array irradiation (integral of irradiance); for a
	// station, the sum over its devices (RefEnergyKWh ÷ kWp gives the weighted mean).
	IrradiationKWhM2 float64 `json:"irradiationKwhM2"`
	// RefEnergyKWh is installed kWp × irradiation ÷ 1 kW/m², the energy at a performance
	// ratio of 1: PR = EnergyKWh ÷ RefEnergyKWh (IEC 61724).
	RefEnergyKWh float64 `json:"refEnergyKwh"`
	// FaultMin is the time spent in a fault status (2, 3 or 4), OnlineMin the time covered
	// by samples at most MaxGap apart, both in minutes.
	FaultMin  float64 `json:"faultMin"`
	OnlineMin float64 `json:"onlineMin"`
	// Sums of the samples' readings: ÷ Samples = the bucket's average.
	DCVoltageSum float64 `json:"dcVoltageSum"`
	DCCurrentSum float64 `json:"dcCurrentSum"`
	ACVoltageSum float64 `json:"acVoltageSum"`
	FrequencySum float64 `json:"frequencySum"`
	TempSum      float64 `json:"tempSum"`
	SOCSum       float64 `json:"socSum"`
}

// nstats is the number of stored Stats values.
const nstats = 17

func emptyStats() Stats { return Stats{MaxPowerKW: math.NaN(), MinPowerKW: math.NaN()} }

// add adds o into s; the extremes combine.
func (s *Stats) add(o *Stats) {
	s.addSums(o)
	s.extremes(o.MaxPowerKW, o.MinPowerKW)
}

// addSums adds everything but the extremes.
func (s *Stats) addSums(o *Stats) {
	s.EnergyKWh += o.EnergyKWh
	s.Energy2KWh += o.Energy2KWh
	s.PowerKWh += o.PowerKWh
	s.Samples += o.Samples
	s.IrradianceSum += o.IrradianceSum
	s.IrradiationKWhM2 += o.IrradiationKWhM2
	s.RefEnergyKWh += o.RefEnergyKWh
	s.FaultMin += o.FaultMin
	s.OnlineMin += o.OnlineMin
	s.DCVoltageSum += o.DCVoltageSum
	s.DCCurrentSum += o.DCCurrentSum
	s.ACVoltageSum += o.ACVoltageSum
	s.FrequencySum += o.FrequencySum
	s.TempSum += o.TempSum
	s.SOCSum += o.SOCSum
}

func (s *Stats) extremes(mx, mn float64) {
	if !math.IsNaN(mx) && (math.IsNaN(s.MaxPowerKW) || mx > s.MaxPowerKW) {
		s.MaxPowerKW = mx
	}
	if !math.IsNaN(mn) && (math.IsNaN(s.MinPowerKW) || mn < s.MinPowerKW) {
		s.MinPowerKW = mn
	}
}

// fields lists the Stats values in their stored order (Samples as a float64).
func (s *Stats) fields() [nstats]float64 {
	return [nstats]float64{s.EnergyKWh, s.Energy2KWh, s.PowerKWh, s.MaxPowerKW, s.MinPowerKW, float64(s.Samples),
		s.IrradianceSum, s.IrradiationKWhM2, s.RefEnergyKWh, s.FaultMin, s.OnlineMin,
		s.DCVoltageSum, s.DCCurrentSum, s.ACVoltageSum, s.FrequencySum, s.TempSum, s.SOCSum}
}

func statsFromFields(f [nstats]float64) Stats {
	return Stats{EnergyKWh: f[0], Energy2KWh: f[1], PowerKWh: f[2], MaxPowerKW: f[3], MinPowerKW: f[4], Samples: int64(f[5]),
		IrradianceSum: f[6], IrradiationKWhM2: f[7], RefEnergyKWh: f[8], FaultMin: f[9], OnlineMin: f[10],
		DCVoltageSum: f[11], DCCurrentSum: f[12], ACVoltageSum: f[13], FrequencySum: f[14], TempSum: f[15], SOCSum: f[16]}
}

// dayAcc holds one local day of a device or of a station kind: its hours and, for
// stations, its 5-minute slots (energy from the power integral, kWh; NaN = no data).
// In the write path it holds changes; merged with the stored row it holds the day.
type dayAcc struct {
	start, end int64
	cal        *Calendar // the owner's calendar (set on change sets)
	hours      []Stats
	slots      []float64
}

func newDayAcc(start, end int64, withSlots bool) *dayAcc {
	d := &dayAcc{start: start, end: end, hours: make([]Stats, hoursIn(start, end))}
	for i := range d.hours {
		d.hours[i] = emptyStats()
	}
	if withSlots {
		d.slots = make([]float64, slotsIn(start, end))
		for i := range d.slots {
			d.slots[i] = math.NaN()
		}
	}
	return d
}

func (d *dayAcc) hourOf(t int64) int {
	h := int((t - d.start) / hourMs)
	return min(max(h, 0), len(d.hours)-1)
}

func (d *dayAcc) addSlot(i int, kwh float64) {
	if i < 0 || i >= len(d.slots) {
		return
	}
	if math.IsNaN(d.slots[i]) {
		d.slots[i] = kwh
	} else {
		d.slots[i] += kwh
	}
}

// merge adds the changes in o (same day) into d.
func (d *dayAcc) merge(o *dayAcc) {
	for i := range o.hours {
		if i < len(d.hours) {
			d.hours[i].add(&o.hours[i])
		}
	}
	for i, v := range o.slots {
		if !math.IsNaN(v) {
			d.addSlot(i, v)
		}
	}
}

// finishStation sets each hour's power extremes from the 5-minute slots (a station's
// power is the sum of its devices', known per slot, not per sample).
func (d *dayAcc) finishStation() {
	for h := range d.hours {
		mx, mn := math.NaN(), math.NaN()
		lo := int(int64(h) * hourMs / slotMs)
		hi := min(lo+int(hourMs/slotMs), len(d.slots))
		for i := lo; i < hi; i++ {
			v := d.slots[i]
			if math.IsNaN(v) {
				continue
			}
			kw := v * float64(hourMs/slotMs) // kWh in 5 minutes → average kW
			if math.IsNaN(mx) || kw > mx {
				mx = kw
			}
			if math.IsNaN(mn) || kw < mn {
				mn = kw
			}
		}
		d.hours[h].MaxPowerKW, d.hours[h].MinPowerKW = mx, mn
	}
}

// total sums the hours.
func (d *dayAcc) total() Stats {
	t := emptyStats()
	for i := range d.hours {
		t.add(&d.hours[i])
	}
	return t
}

// Packed hour and slot lists (format version 2). Hours: a version byte, then per
// non-empty hour its index (1 byte), a bit mask of the fields present (4 bytes) and those
// fields: energies, integrals, extremes and minutes as float64, the sample count as
// uint32, and the sums that only ever give averages (irradiance, voltages, current,
// frequency, temperature, state of charge) as float32. Absent additive fields are 0,
// absent extremes "none". Slots: a version byte, then every slot's kWh as float32 (NaN =
// no data). Little-endian throughout.
const packVersion = 2

var errPacked = errors.New("telemetry: malformed packed roll-up")

// fieldWidth is how each Stats field is stored: 8 (float64), 4 (float32) or -4 (uint32).
var fieldWidth = [nstats]int{8, 8, 8, 8, 8, -4, 4, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4}

func packHours(hours []Stats) []byte {
	b := make([]byte, 1, 1+len(hours)*64)
	b[0] = packVersion
	for i := range hours {
		f := hours[i].fields()
		var mask uint32
		for j, v := range f {
			if (j == 3 || j == 4) && !math.IsNaN(v) || (j != 3 && j != 4) && v != 0 {
				mask |= 1 << j
			}
		}
		if mask == 0 {
			continue
		}
		b = append(b, byte(i))
		b = binary.LittleEndian.AppendUint32(b, mask)
		for j, v := range f {
			if mask&(1<<j) == 0 {
				continue
			}
			switch fieldWidth[j] {
			case 8:
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			case 4:
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
			default:
				b = binary.LittleEndian.AppendUint32(b, uint32(min(max(v, 0), math.MaxUint32)))
			}
		}
	}
	return b
}

func unpackHours(b []byte, hours []Stats) error {
	if len(b) == 0 {
		return nil
	}
	if b[0] != packVersion {
		return errPacked
	}
	b = b[1:]
	for len(b) > 0 {
		if len(b) < 5 {
			return errPacked
		}
		i, mask := int(b[0]), binary.LittleEndian.Uint32(b[1:5])
		b = b[5:]
		if mask>>nstats != 0 {
			return errPacked
		}
		f := [nstats]float64{3: math.NaN(), 4: math.NaN()}
		for j := range f {
			if mask&(1<<j) == 0 {
				continue
			}
			w := fieldWidth[j]
			if w < 0 {
				w = -w
			}
			if len(b) < w {
				return errPacked
			}
			switch fieldWidth[j] {
			case 8:
				f[j] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			case 4:
				f[j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
			default:
				f[j] = float64(binary.LittleEndian.Uint32(b))
			}
			b = b[w:]
		}
		if i < len(hours) {
			hours[i] = statsFromFields(f)
		}
	}
	return nil
}

func packSlots(slots []float64) []byte {
	if slots == nil {
		return nil
	}
	b := make([]byte, 1, 1+len(slots)*4)
	b[0] = packVersion
	for _, v := range slots {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
	}
	return b
}

func unpackSlots(b []byte, slots []float64) error {
	if len(b) == 0 {
		return nil
	}
	if b[0] != packVersion || (len(b)-1)%4 != 0 {
		return errPacked
	}
	for i, b := 0, b[1:]; len(b) > 0; i, b = i+1, b[4:] {
		if i < len(slots) {
			slots[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
	}
	return nil
}

// MarshalJSON writes absent power extremes as null.
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	out := struct {
		plain
		MaxPowerKW *float64 `json:"maxPowerKw"`
		MinPowerKW *float64 `json:"minPowerKw"`
	}{plain: plain(s)}
	if !math.IsNaN(s.MaxPowerKW) {
		out.MaxPowerKW = &s.MaxPowerKW
	}
	if !math.IsNaN(s.MinPowerKW) {
		out.MinPowerKW = &s.MinPowerKW
	}
	return json.Marshal(out)
}
