package telemetry

import "math"

// The sample's value fields by their wire names (the JSON names of Sample), in a fixed
// order: a field's index is its number wherever sources name fields (line-protocol rules,
// MQTT mapping rules, register maps), so that every door sets a field the same way.
var SampleFields = [...]string{"powerKw", "energyKwh", "energy2Kwh", "dcVoltageV", "dcCurrentA", "acVoltageV",
	"frequencyHz", "tempC", "soc", "irradianceWm2", "status", "stringsActive"}

// Indexes of SampleFields.
const (
	FieldPower = iota
	FieldEnergy
	FieldEnergy2
	FieldDCVoltage
	FieldDCCurrent
	FieldACVoltage
	FieldFrequency
	FieldTemp
	FieldSOC
	FieldIrradiance
	FieldStatus
	FieldStringsActive
	NumFields
)

// FieldIndex returns the index of a wire name, or -1.
func FieldIndex(name string) int {
	for i, f := range SampleFields {
		if f == name {
			return i
		}
	}
	return -1
}

// SetField writes v into field i; the whole-number fields (status, active strings) are
// rounded. An index out of range changes nothing.
func (s *Sample) SetField(i int, v float64) {
	switch i {
	case FieldPower:
		s.PowerKW = v
	case FieldEnergy:
		s.EnergyKWh = v
	case FieldEnergy2:
		s.Energy2KWh = v
	case FieldDCVoltage:
		s.DCVoltageV = v
	case FieldDCCurrent:
		s.DCCurrentA = v
	case FieldACVoltage:
		s.ACVoltageV = v
	case FieldFrequency:
		s.FrequencyHz = v
	case FieldTemp:
		s.TempC = v
	case FieldSOC:
		s.SOC = v
	case FieldIrradiance:
		s.IrradianceWm2 = v
	case FieldStatus:
		s.Status = int(math.Round(v))
	case FieldStringsActive:
		s.StringsActive = int(math.Round(v))
	}
}
