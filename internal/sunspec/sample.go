package sunspec

import (
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Reading is one decoded point, for the debugging page.
type Reading struct {
	Model int      `json:"model"`
	Group int      `json:"group" doc:"repeating group number from 1; 0 for the fixed block"`
	Name  string   `json:"name"`
	Addr  uint16   `json:"addr"`
	Raw   []uint16 `json:"raw"`
	Value *float64 `json:"value" doc:"scaled value; null when the device does not implement the point"`
	Unit  string   `json:"unit"`
}

var units = map[string]string{
	"W": "W", "WH": "Wh", "DCA": "A", "DCV": "V", "DCW": "W", "PhVphA": "V", "PhV": "V", "LNV": "V", "V": "V", "A": "A",
	"Hz": "Hz", "TmpCab": "°C", "TotWhExp": "Wh", "TotWhImp": "Wh", "TotWhInj": "Wh", "TotWhAbs": "Wh",
	"DCWhInj": "Wh", "DCWhAbs": "Wh", "SoC": "%", "ChaState": "%", "InBatV": "V",
}

// Readings lists every point of the product's tables found in the blocks.
func Readings(blocks []Block) []Reading {
	var out []Reading
	for i := range blocks {
		b := &blocks[i]
		m, ok := Lookup(b.ID)
		if !ok {
			continue
		}
		add := func(pt Point, base, group int) {
			if pt.Type == "sunssf" || pt.Type == "string" {
				return
			}
			r := Reading{Model: b.ID, Group: group, Name: pt.Name, Addr: b.Addr + uint16(base+pt.Offset), Unit: units[pt.Name]}
			r.Raw = append([]uint16(nil), b.raw(base+pt.Offset, pt.Size)...)
			if v, ok := b.value(m, pt, base, nil); ok {
				r.Value = &v
			}
			out = append(out, r)
		}
		for _, pt := range m.Points {
			add(pt, 0, 0)
		}
		for gi, base := range b.groups(m) {
			for _, pt := range m.Repeat.Points {
				add(pt, base, gi+1)
			}
		}
	}
	return out
}

// filler sets each sample field once: the first model that implements a value wins.
type filler struct {
	s   *telemetry.Sample
	set map[string]bool
}

func (f *filler) put(field string, v float64, ok bool, into *float64) {
	if !ok || f.set[field] {
		return
	}
	f.set[field] = true
	*into = v
}

// ToSample maps a device's blocks onto a telemetry sample of the given device type
// (inverter, battery, storage or meter). Models are read in priority order: inverter,
// DER AC, meter, battery, storage, MPPT, DER DC. acc carries the device's counter wraps.
func ToSample(deviceID int64, at time.Time, deviceType string, blocks []Block, acc *Accumulators) telemetry.Sample {
	s := telemetry.Sample{DeviceID: deviceID, Time: at}
	f := &filler{s: &s, set: map[string]bool{}}
	byKind := func(kinds ...string) []*Block {
		var out []*Block
		for _, k := range kinds {
			for i := range blocks {
				if m, ok := Lookup(blocks[i].ID); ok && m.Kind == k {
					out = append(out, &blocks[i])
				}
			}
		}
		return out
	}
	val := func(b *Block, name string) (float64, bool) {
		m, _ := Lookup(b.ID)
		pt, ok := m.Point(name)
		if !ok {
			return 0, false
		}
		return b.value(m, pt, 0, acc)
	}
	status, statusSet := telemetry.StatusStandby, false
	for _, b := range byKind("inverter") {
		v, ok := val(b, "W")
		f.put("power", v/1000, ok, &s.PowerKW)
		v, ok = val(b, "WH")
		f.put("energy", v/1000, ok, &s.EnergyKWh)
		v, ok = val(b, "DCV")
		f.put("dcv", v, ok, &s.DCVoltageV)
		v, ok = val(b, "DCA")
		f.put("dca", v, ok, &s.DCCurrentA)
		v, ok = val(b, "PhVphA")
		f.put("acv", v, ok, &s.ACVoltageV)
		v, ok = val(b, "Hz")
		f.put("hz", v, ok, &s.FrequencyHz)
		v, ok = val(b, "TmpCab")
		f.put("temp", v, ok, &s.TempC)
		if st, ok := val(b, "St"); ok && !statusSet {
			status, statusSet = inverterStatus(int(st)), true
		}
	}
	for _, b := range byKind("der") {
		if b.ID != 701 {
			continue
		}
		v, ok := val(b, "W")
		f.put("power", v/1000, ok, &s.PowerKW)
		v, ok = val(b, "TotWhInj")
		f.put("energy", v/1000, ok, &s.EnergyKWh)
		if deviceType != "inverter" {
			v, ok = val(b, "TotWhAbs")
			f.put("energy2", v/1000, ok, &s.Energy2KWh)
		}
		v, ok = val(b, "LNV")
		f.put("acv", v, ok, &s.ACVoltageV)
		v, ok = val(b, "Hz")
		f.put("hz", v, ok, &s.FrequencyHz)
		v, ok = val(b, "TmpCab")
		f.put("temp", v, ok, &s.TempC)
		if st, ok := val(b, "St"); ok && !statusSet {
			status, statusSet = telemetry.StatusStandby, true
			if st == 1 && s.PowerKW != 0 {
				status = telemetry.StatusRunning
			}
		}
	}
	for _, b := range byKind("meter") {
		v, ok := val(b, "W")
		f.put("power", v/1000, ok, &s.PowerKW)
		v, ok = val(b, "TotWhImp")
		f.put("energy", v/1000, ok, &s.EnergyKWh)
		v, ok = val(b, "TotWhExp")
		f.put("energy2", v/1000, ok, &s.Energy2KWh)
		v, ok = val(b, "PhV")
		f.put("acv", v, ok, &s.ACVoltageV)
		v, ok = val(b, "PhVphA")
		f.put("acv", v, ok, &s.ACVoltageV)
		v, ok = val(b, "Hz")
		f.put("hz", v, ok, &s.FrequencyHz)
		if !statusSet {
			status, statusSet = telemetry.StatusRunning, true
		}
	}
	for _, b := range byKind("storage") {
		switch b.ID {
		case 802:
			v, ok := val(b, "SoC")
			f.put("soc", v, ok, &s.SOC)
			v, ok = val(b, "W")
			f.put("power", v/1000, ok, &s.PowerKW)
			v, ok = val(b, "V")
			f.put("dcv", v, ok, &s.DCVoltageV)
			v, ok = val(b, "A")
			f.put("dca", v, ok, &s.DCCurrentA)
			if st, ok := val(b, "State"); ok && !statusSet {
				status, statusSet = batteryStatus(int(st), s.PowerKW), true
			}
		case 124:
			v, ok := val(b, "ChaState")
			f.put("soc", v, ok, &s.SOC)
			v, ok = val(b, "InBatV")
			f.put("dcv", v, ok, &s.DCVoltageV)
		case 713:
			v, ok := val(b, "SoC")
			f.put("soc", v, ok, &s.SOC)
		}
	}
	mpptAndPorts(&s, f, byKind("mppt", "der"))
	if !statusSet && s.PowerKW != 0 {
		status = telemetry.StatusRunning
	}
	s.Status = status
	if deviceType == "inverter" && s.PowerKW < 0 {
		s.PowerKW = 0 // night consumption reported as negative output
	}
	return s
}

// mpptAndPorts fills DC figures from MPPT modules (160) or DC ports (714) where the
// inverter did not give them, and counts the strings producing current.
func mpptAndPorts(s *telemetry.Sample, f *filler, blocks []*Block) {
	for _, b := range blocks {
		if b.ID != 160 && b.ID != 714 {
			continue
		}
		m, _ := Lookup(b.ID)
		var sumA, sumV float64
		var active, withV int
		for _, base := range b.groups(m) {
			for _, pt := range m.Repeat.Points {
				v, ok := b.value(m, pt, base, nil)
				if !ok {
					continue
				}
				switch pt.Name {
				case "DCA":
					sumA += v
					if v > 0.05 {
						active++
					}
				case "DCV":
					sumV += v
					withV++
				}
			}
		}
		if withV > 0 {
			f.put("dcv", sumV/float64(withV), true, &s.DCVoltageV)
		}
		if active > 0 || withV > 0 {
			f.put("dca", sumA, true, &s.DCCurrentA)
		}
		if b.ID == 160 && s.StringsActive == 0 {
			s.StringsActive = active
		}
	}
}

// inverterStatus maps the inverter operating state (St) onto the sample status.
func inverterStatus(st int) int {
	switch st {
	case 4, 5: // MPPT, throttled
		return telemetry.StatusRunning
	case 7:
		return telemetry.StatusFault
	default: // off, sleeping, starting, shutting down, standby
		return telemetry.StatusStandby
	}
}

// batteryStatus maps the battery state (802 State).
func batteryStatus(st int, powerKW float64) int {
	switch {
	case st == 99:
		return telemetry.StatusFault
	case st == 3 && powerKW != 0:
		return telemetry.StatusRunning
	default:
		return telemetry.StatusStandby
	}
}
