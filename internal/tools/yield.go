package tools

import (
	"errors"
	"math"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// YieldInput describes a planned array.
type YieldInput struct {
	Lat         float64 `json:"lat" doc:"-90 to 90"`
	Lng         float64 `json:"lng" doc:"-180 to 180"`
	AltitudeM   float64 `json:"altitudeM" doc:"-500 to 6000 m"`
	CapacityKWp float64 `json:"capacityKwp" doc:"0.1 to 1,000,000 kWp"`
	TiltDeg     float64 `json:"tiltDeg" doc:"0 (flat) to 90"`
	AzimuthDeg  float64 `json:"azimuthDeg" doc:"0 to 360, clockwise from north (180 = south)"`
	LossesPct   float64 `json:"lossesPct" doc:"losses beyond the model (soiling, wiring, availability), 0 to 50 %"`
	// StationID optionally names a station whose climate the estimate uses (its weather
	// and temperatures); without it the climate follows the latitude.
	StationID int64 `json:"stationId" doc:"optional: a visible station whose climate to use"`
}

// YieldResult is the expected production of the array over a year.
type YieldResult struct {
	Year             int         `json:"year" doc:"the simulated year"`
	Unit             string      `json:"unit"`
	MonthlyKWh       [12]float64 `json:"monthlyKwh" doc:"January first"`
	AnnualKWh        float64     `json:"annualKwh"`
	SpecificYield    float64     `json:"specificYieldKwhKwp" doc:"kWh per kWp"`
	PerformanceRatio float64     `json:"performanceRatio" doc:"%"`
	POAKWhM2         float64     `json:"poaKwhM2" doc:"plane-of-array insolation"`
	GHIKWhM2         float64     `json:"ghiKwhM2" doc:"horizontal insolation"`
	Climate          string      `json:"climate" doc:"station: the named station's climate; latitude: defaults by latitude"`
}

func (in *YieldInput) validate() error {
	var v httpapi.Validator
	v.Range("lat", in.Lat, -90, 90)
	v.Range("lng", in.Lng, -180, 180)
	v.Range("altitudeM", in.AltitudeM, -500, 6000)
	v.Range("capacityKwp", in.CapacityKWp, 0.1, 1e6)
	v.Range("tiltDeg", in.TiltDeg, 0, 90)
	v.Range("azimuthDeg", in.AzimuthDeg, 0, 360)
	v.Range("lossesPct", in.LossesPct, 0, 50)
	if in.StationID < 0 {
		v.Add("stationId", "out_of_range", 1, math.MaxInt32)
	}
	return v.Err()
}

func (s *Service) yield(r *http.Request) (any, error) {
	var in YieldInput
	if err := s.decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	req := pvmodel.YieldRequest{Lat: in.Lat, Lng: in.Lng, AltitudeM: in.AltitudeM, CapacityKWp: in.CapacityKWp,
		TiltDeg: in.TiltDeg, AzimuthDeg: in.AzimuthDeg, Year: s.now().Year() - 1, Seed: 1}
	out := YieldResult{Year: req.Year, Unit: "kWh", Climate: "latitude"}
	if in.StationID != 0 {
		st, err := station.Get(r.Context(), s.DB, httpapi.Caller(r), in.StationID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, httpapi.NotFound()
		}
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		if c, ok := s.climateOf(st); ok {
			req.Climate, out.Climate = c, "station"
		}
	}
	release, err := s.acquire(r.Context())
	if err != nil {
		return nil, err
	}
	var weather pvmodel.Weather
	if s.Weather != nil {
		weather = s.Weather(req)
	}
	est, err := pvmodel.EstimateYield(req, weather)
	release()
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	keep := 1 - in.LossesPct/100
	for m, kwh := range est.MonthlyKWh {
		out.MonthlyKWh[m] = round(kwh*keep, 1)
		out.AnnualKWh += kwh * keep
	}
	out.AnnualKWh = round(out.AnnualKWh, 1)
	out.SpecificYield = round(est.SpecificYield*keep, 1)
	out.PerformanceRatio = round(est.PerformanceRatio*keep*100, 1)
	out.POAKWhM2, out.GHIKWhM2 = round(est.POAKWhM2, 1), round(est.GHIKWhM2, 1)
	return out, nil
}

func (s *Service) climateOf(st *station.Station) (pvmodel.Climate, bool) {
	if s.Climate == nil || st.SimKey == "" {
		return pvmodel.Climate{}, false
	}
	return s.Climate(st.SimKey)
}

func round(f float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(f*p) / p
}
