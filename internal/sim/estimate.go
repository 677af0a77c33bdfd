package sim

import (
	"errors"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// YieldRequest describes a planned array for EstimateYield.
type YieldRequest struct {
	Lat         float64 `json:"lat"`
	Lng         float64 `json:"lng"`
	AltitudeM   float64 `json:"altitudeM"`
	CapacityKWp float64 `json:"capacityKwp"`
	TiltDeg     float64 `json:"tiltDeg"`
	// AzimuthDeg clockwise from north (180 = south).
	AzimuthDeg float64 `json:"azimuthDeg"`
	// DCACRatio is the array's kWp over the inverter's rated AC kW (default 1.2).
	DCACRatio float64 `json:"dcAcRatio"`
	// Year to simulate (default 2025); the weather is the simulator's, drawn from Seed.
	Year int   `json:"year"`
	Seed int64 `json:"seed"`
	// Climate of the site; zero fields take latitude defaults (see Climate). Copying the
	// climate of a nearby demo station gives a better estimate.
	Climate Climate `json:"climate"`
}

// YieldEstimate is the simulated production of a planned array over one year.
type YieldEstimate struct {
	AnnualKWh        float64     `json:"annualKwh"`
	SpecificYield    float64     `json:"specificYieldKwhKwp"` // kWh per kWp
	MonthlyKWh       [12]float64 `json:"monthlyKwh"`          // by UTC month
	GHIKWhM2         float64     `json:"ghiKwhM2"`            // horizontal insolation
	POAKWhM2         float64     `json:"poaKwhM2"`            // plane-of-array insolation
	PerformanceRatio float64     `json:"performanceRatio"`    // AC yield ÷ (kWp × POA / 1 kW/m²)
}

// EstimateYield runs the simulator's sun, weather, transposition, temperature and
// inverter models over a year for one planned array (no faults, first-year ageing) and
// returns the expected production. It takes about a tenth of a second.
func EstimateYield(r YieldRequest) (YieldEstimate, error) {
	if r.CapacityKWp <= 0 || r.Lat < -90 || r.Lat > 90 || r.Lng < -180 || r.Lng > 180 {
		return YieldEstimate{}, errors.New("sim: bad yield request")
	}
	if r.DCACRatio <= 0 {
		r.DCACRatio = 1.2
	}
	if r.Year == 0 {
		r.Year = 2025
	}
	// One module of 1 kW per kWp keeps any capacity exact.
	const modW = 1000.0
	inv := Device{
		Key: "plan-1-inv", StationKey: "plan-1", SN: "PLAN", Name: "planned", Type: DeviceInverter,
		RatedACKW: r.CapacityKWp / r.DCACRatio, ComponentRatedW: modW, ComponentCount: 1,
		Strings: 1, EnabledStrings: 1, AzimuthDeg: r.AzimuthDeg, TiltDeg: r.TiltDeg,
	}
	grid := time.Date(r.Year, 1, 1, 0, 0, 0, 0, time.UTC)
	sub := Station{Key: "plan-1", ParentKey: "plan", Timezone: "UTC", GridDate: grid, Devices: []Device{inv}}
	st := Station{
		Key: "plan", Lat: r.Lat, Lng: r.Lng, AltitudeM: r.AltitudeM, Timezone: "UTC", Climate: r.Climate,
		Children: []Station{sub},
	}
	s, err := New(Fleet{Stations: []Station{st}}, r.Seed)
	if err != nil {
		return YieldEstimate{}, err
	}
	// Scale the single 1 kW module to the requested capacity.
	d := s.stations[0].subs[0].devs[0]
	d.kwp = r.CapacityKWp
	d.perf0 = 1
	stationSim := s.stations[0]
	stationSim.noFaults = true

	var e YieldEstimate
	start := time.Date(r.Year, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(1, 0, 0)
	h := float64(stepSec) / 3600
	for t := start; t.Before(end); t = t.Add(stepSec * time.Second) {
		m := int(t.Month()) - 1
		stationSim.step(t, func(_ string, smp telemetry.Sample) {
			e.MonthlyKWh[m] += smp.PowerKW * h
			e.POAKWhM2 += smp.IrradianceWm2 * h / 1000
		})
		sn := sunPos(stationSim.latR, stationSim.lng, float64(t.Unix()))
		cond := stationSim.wx.at(float64(t.Unix()), &stationSim.wxc)
		e.GHIKWhM2 += clearSkyGHI(&sn, stationSim.alt, stationSim.clim.LinkeTurbidity) * cond.csi * h / 1000
	}
	for _, v := range e.MonthlyKWh {
		e.AnnualKWh += v
	}
	e.SpecificYield = e.AnnualKWh / r.CapacityKWp
	if e.POAKWhM2 > 0 {
		e.PerformanceRatio = e.SpecificYield / e.POAKWhM2
	}
	return e, nil
}
