package pvmodel

// The array and its inverter: cell temperature, DC power with its temperature and system
// losses, the inverter's efficiency curve with clipping, and ageing. docs/simulator.md
// explains each constant.

const (
	// TempCoeff is the power temperature coefficient per °C above 25 °C.
	TempCoeff = -0.004
	// SystemLoss keeps what soiling, wiring, mismatch and availability leave of DC power.
	SystemLoss = 0.93
	// InverterEtaNom is the inverter's nominal efficiency (PVWatts curve).
	InverterEtaNom = 0.97
	inverterEtaRef = 0.9637
	faimanU0       = 25.0 // W/m²K
	faimanU1       = 6.84 // W/m³sK
	// DegradationPerYear is the share of power an array loses per year since grid connection.
	DegradationPerYear = 0.005
)

// CellTempC is the module cell temperature (Faiman) at ambient temperature ambientC,
// plane-of-array irradiance poa (W/m²) and wind windMS (m/s).
func CellTempC(ambientC, poa, windMS float64) float64 {
	return ambientC + poa/(faimanU0+faimanU1*windMS)
}

// DCPowerKW is the DC power of kwp kWp of modules under plane-of-array irradiance poa
// (W/m²) at cell temperature cellC, after the temperature coefficient and system losses.
// The simulator multiplies it by the array's own factors (ageing, strings producing).
func DCPowerKW(kwp, poa, cellC float64) float64 {
	return kwp * poa / 1000 * (1 + TempCoeff*(cellC-25)) * SystemLoss
}

// InverterAC converts DC power pdc (kW) with the PVWatts v5 efficiency curve of an inverter
// whose DC rating is pdc0 and AC rating ratedKW. It returns the AC power and the DC power
// drawn: below about 0.6 % of pdc0 the inverter stands by (both 0); above ratedKW it
// clips, leaving the maximum power point, and draws only what the rated AC power needs.
func InverterAC(pdc, pdc0, ratedKW float64) (pac, dc float64) {
	if z := pdc / pdc0; z > 0.0062 {
		eta := InverterEtaNom / inverterEtaRef * (-0.0162*z - 0.0059/z + 0.9858)
		pac = eta * pdc
		if pac > ratedKW { // clipping: the inverter leaves the maximum power point
			pac = ratedKW
			pdc = pac / eta
		}
	}
	if pac <= 0 {
		return 0, 0
	}
	return pac, pdc
}

// Ageing is the share of its initial power an array keeps after years since grid connection.
func Ageing(years float64) float64 {
	return 1 - DegradationPerYear*years
}
