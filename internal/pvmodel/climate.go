package pvmodel

import (
	"math"
)

// Climate parameterises a site: its clear sky (Linke turbidity), ground (albedo) and the
// weather and temperatures the simulator's weather process draws for it. The zero value
// of any field means "derive a default from the latitude" (see Resolve).
type Climate struct {
	// AnnualMeanC is the mean air temperature over the year (°C), altitude included.
	AnnualMeanC float64 `json:"annualMeanC"`
	// SeasonalAmpC is half the difference between the warmest and the coldest month (°C).
	SeasonalAmpC float64 `json:"seasonalAmpC"`
	// DailyRangeC is the difference between the maximum and minimum of a clear day (°C).
	DailyRangeC float64 `json:"dailyRangeC"`
	// Cloudiness is the monthly cloudiness 0–1, January first: the stationary mean of the
	// weather process (0.1 desert summer, 0.7 central-European winter).
	Cloudiness [12]float64 `json:"cloudiness"`
	// LinkeTurbidity of the clear sky (2 very clean and dry … 5 hazy and humid).
	LinkeTurbidity float64 `json:"linkeTurbidity"`
	// Albedo of the ground in front of the arrays.
	Albedo float64 `json:"albedo"`
	// HazeDays, DustDays, FogDays and TyphoonDays are the chances that a day at the peak of
	// its season (winter for haze and fog, spring for dust, late summer for tropical
	// cyclones) is a haze, dust, fog or cyclone day.
	HazeDays    float64 `json:"hazeDays"`
	DustDays    float64 `json:"dustDays"`
	FogDays     float64 `json:"fogDays"`
	TyphoonDays float64 `json:"typhoonDays"`
	// SpecificYieldKWhKWp is the typical annual yield per kWp, used only by the simulator
	// to estimate the energy counters of a device before the first simulated instant (its
	// opening, see sim.OpeningCounters); the demo sites' figures follow this package's
	// models (sim's TestClimateYield).
	SpecificYieldKWhKWp float64 `json:"specificYieldKWhKWp"`
}

// Resolve fills the zero fields with the defaults of latitude lat.
func (c Climate) Resolve(lat float64) Climate {
	alat := math.Abs(lat)
	if c.AnnualMeanC == 0 && c.SeasonalAmpC == 0 {
		c.AnnualMeanC = 27 - 0.45*math.Max(0, alat-15)
		c.SeasonalAmpC = 1.5 + 0.2*alat
	}
	if c.DailyRangeC == 0 {
		c.DailyRangeC = 9
	}
	zero := true
	for _, v := range c.Cloudiness {
		if v != 0 {
			zero = false
		}
	}
	if zero {
		for i := range c.Cloudiness {
			c.Cloudiness[i] = 0.4
		}
	}
	if c.LinkeTurbidity == 0 {
		c.LinkeTurbidity = 3
	}
	if c.Albedo == 0 {
		c.Albedo = 0.2
	}
	if c.SpecificYieldKWhKWp == 0 {
		c.SpecificYieldKWhKWp = 1300
	}
	return c
}
