package pvmodel

import (
	"errors"
	"math"
	"time"
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
	// Year to simulate (default 2025); the weather is drawn from Seed by the weather source
	// (the simulator's: sim.YieldWeather).
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

// Weather is the weather a yield estimate runs under. EstimateYield asks for the sky
// every 5 minutes of the year, in order.
type Weather interface {
	Sky(unixSec int64) Sky
}

// Sky is the weather over the planned array at an instant.
type Sky struct {
	// ClearSkyIndex is the global horizontal irradiance over the clear-sky one at the
	// instant: the site's horizontal insolation (YieldEstimate.GHIKWhM2).
	ClearSkyIndex float64
	// ArrayIndex is the clear-sky index the array sees: ClearSkyIndex with the passing
	// clouds of the minute.
	ArrayIndex float64
	AmbientC   float64
	WindMS     float64
	// Scatter multiplies the array's DC power: its step-to-step spread around the model
	// (the simulator's device noise, within ±0.3 %); 1 for none.
	Scatter float64
}

// WeatherSource draws the weather of a request's site (its place, climate and Seed).
type WeatherSource func(r YieldRequest) Weather

// estimateStep is the interval of the estimate's steps (the simulator's reporting interval).
const estimateStep = 300

// EstimateYield runs the sun, clear-sky, decomposition, transposition, temperature and
// inverter models over a year for one planned array (no faults, first-year ageing) under
// weather w, and returns the expected production. It takes about a tenth of a second.
func EstimateYield(r YieldRequest, w Weather) (YieldEstimate, error) {
	if r.CapacityKWp <= 0 || r.Lat < -90 || r.Lat > 90 || r.Lng < -180 || r.Lng > 180 {
		return YieldEstimate{}, errors.New("pvmodel: bad yield request")
	}
	if w == nil {
		return YieldEstimate{}, errors.New("pvmodel: no weather for the yield estimate")
	}
	if r.DCACRatio <= 0 {
		r.DCACRatio = 1.2
	}
	if r.Year == 0 {
		r.Year = 2025
	}
	rated := r.CapacityKWp / r.DCACRatio
	if rated <= 0 {
		return YieldEstimate{}, errors.New("pvmodel: bad yield request")
	}
	pdc0 := rated / InverterEtaNom
	clim := r.Climate.Resolve(r.Lat)
	latR := r.Lat * deg2rad
	pl := NewPlane(r.TiltDeg, r.AzimuthDeg)

	var e YieldEstimate
	start := time.Date(r.Year, 1, 1, 0, 0, 0, 0, time.UTC) // also the array's grid connection
	end := start.AddDate(1, 0, 0)
	gridSec := start.Unix()
	day, perf := floorDiv(gridSec, 86400), Ageing(0)
	h := float64(estimateStep) / 3600
	for t := start; t.Before(end); t = t.Add(estimateStep * time.Second) {
		m := int(t.Month()) - 1
		sec := t.Unix()
		if d := floorDiv(sec, 86400); d != day { // the array ages day by day
			day = d
			perf = Ageing(math.Max(0, float64(sec-gridSec)/(365.25*86400)))
		}
		sn := SunPos(latR, r.Lng, float64(sec))
		clear := ClearSkyGHI(&sn, r.AltitudeM, clim.LinkeTurbidity)
		sky := w.Sky(sec)
		var ghi float64
		if clear > 0 {
			ghi = clear * sky.ArrayIndex
		}
		poa := pl.POA(&sn, Decompose(&sn, ghi), clim.Albedo)
		var pac float64
		if poa > 0 {
			pdc := DCPowerKW(r.CapacityKWp, poa, CellTempC(sky.AmbientC, poa, sky.WindMS)) * perf * sky.Scatter
			pac, _ = InverterAC(pdc, pdc0, rated)
		}
		e.MonthlyKWh[m] += pac * h
		e.POAKWhM2 += poa * h / 1000
		e.GHIKWhM2 += clear * sky.ClearSkyIndex * h / 1000
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

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
