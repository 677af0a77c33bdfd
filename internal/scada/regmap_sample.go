package scada

import (
	"math"

	"github.com/helio-energy/helio/internal/telemetry"
)

// mapSample sets a sample's fields from a map's readings (one per register, in order).
// Registers marked sum add up into their target; fault registers override the status;
// display-only targets feed nothing (the debugging page shows them).
func mapSample(s *telemetry.Sample, regs []Register, rd []reading) {
	statusSet := false
	fault := -1 // the strongest status a fault register raised
	sums := map[string]float64{}
	for i, r := range regs {
		v := rd[i].Value
		if r.Target == "" || displayTargets[r.Target] || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		switch r.Target {
		case "fault":
			st := telemetry.StatusFault
			if r.Values != nil {
				st = int(v) // the table says which status the code means
			} else if v == 0 {
				continue
			}
			if st == telemetry.StatusFault || st == telemetry.StatusOverTemp || st == telemetry.StatusGridFault {
				if fault != telemetry.StatusFault {
					fault = st
				}
			}
			continue
		case "status":
			if !knownStatus(v) {
				continue // a vendor code with no table (e.g. 512): inferred from power below
			}
			statusSet = true
		}
		if r.Sum {
			v += sums[r.Target]
			sums[r.Target] = v
		}
		setField(s, r.Target, v)
	}
	if !statusSet && s.PowerKW != 0 {
		s.Status = telemetry.StatusRunning
	}
	if fault >= 0 {
		s.Status = fault
	}
}

// sampleField numbers a register map's targets as telemetry.SampleFields.
var sampleField = map[string]int{"power": telemetry.FieldPower, "energy": telemetry.FieldEnergy, "energy2": telemetry.FieldEnergy2,
	"dcVoltage": telemetry.FieldDCVoltage, "dcCurrent": telemetry.FieldDCCurrent, "acVoltage": telemetry.FieldACVoltage,
	"frequency": telemetry.FieldFrequency, "temperature": telemetry.FieldTemp, "soc": telemetry.FieldSOC,
	"irradiance": telemetry.FieldIrradiance, "status": telemetry.FieldStatus, "stringsActive": telemetry.FieldStringsActive}

func setField(s *telemetry.Sample, target string, v float64) {
	if i, ok := sampleField[target]; ok {
		s.SetField(i, v)
	}
}

// knownStatus reports whether v is one of Helio's status codes (telemetry.StatusXxx); a
// raw vendor code stored as a status would read as something it is not.
func knownStatus(v float64) bool {
	switch v {
	case telemetry.StatusStandby, telemetry.StatusRunning, telemetry.StatusFault, telemetry.StatusOverTemp,
		telemetry.StatusGridFault, telemetry.StatusCommsLost:
		return true
	}
	return false
}
