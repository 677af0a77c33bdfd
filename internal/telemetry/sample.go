// Package telemetry holds the device sample type, the validated write path that every
// source (simulator, MQTT, HTTP ingest) goes through, and the roll-ups kept from it.
package telemetry

import "time"

// Sample is one reading of one device at one instant. Every source produces this shape.
//
// Counters are cumulative as a real device reports them: they may reset at night, roll
// over, start again at 0 after a device swap or jump backwards. The write path turns them
// into energy deltas; a counter is never trusted as-is.
type Sample struct {
	DeviceID int64     `json:"deviceId"`
	Time     time.Time `json:"time"`

	// PowerKW is AC active power. Inverters: output (>= 0). Batteries and all-in-one
	// storage: positive while discharging, negative while charging. Meters: positive while
	// importing from the grid, negative while exporting.
	PowerKW float64 `json:"powerKw"`
	// EnergyKWh is the main cumulative counter: produced (inverter), discharged (battery),
	// imported from the grid (meter).
	EnergyKWh float64 `json:"energyKwh"`
	// Energy2KWh is the second cumulative counter where the device has one: charged
	// (battery), exported to the grid (meter). 0 for inverters.
	Energy2KWh float64 `json:"energy2Kwh"`

	DCVoltageV  float64 `json:"dcVoltageV"`
	DCCurrentA  float64 `json:"dcCurrentA"`
	ACVoltageV  float64 `json:"acVoltageV"`
	FrequencyHz float64 `json:"frequencyHz"`
	TempC       float64 `json:"tempC"`
	// SOC is the battery state of charge in percent (0 for devices without a battery).
	SOC float64 `json:"soc"`
	// IrradianceWm2 is plane-of-array irradiance seen by the device's array (inverters),
	// used for the performance ratio and the low-output check. 0 where not measured.
	IrradianceWm2 float64 `json:"irradianceWm2"`
	// Status is the device status code; see StatusXxx.
	Status int `json:"status"`
	// StringsActive is the number of PV strings producing current (inverters only).
	StringsActive int `json:"stringsActive"`
}

// Device status codes reported in Sample.Status.
const (
	StatusStandby   = 0 // no fault, not producing (night, idle)
	StatusRunning   = 1
	StatusFault     = 2 // inverter trip or battery fault
	StatusOverTemp  = 3 // derating or shut down for temperature
	StatusGridFault = 4 // grid voltage or frequency out of range
	StatusCommsLost = 9 // reported by a collector for a device it cannot reach
)
