package sim

import (
	"fmt"
)

// The catalogue of weather codes and air-quality levels the console names.

// WeatherCode is one entry of the weather-code table (SPEC.md: codes 001 to 070, 043 and
// 044 absent). The specification names the codes but not their meaning; this table is
// Helio's definition. Keys are stable identifiers the web app translates
// ("weather.<key>"); never reuse or renumber a code.
type WeatherCode struct {
	// Code is the number, 1–70. ID() gives the three-digit form ("001").
	Code int `json:"code"`
	// Key is the condition, e.g. "clear", "light_rain", "sandstorm".
	Key string `json:"key"`
	// Group gathers conditions: clear, cloud, rain, storm, snow, mixed, fog, haze, dust,
	// wind, cyclone, unknown.
	Group string `json:"group"`
	// ClearSkyIndex is the typical fraction of clear-sky global irradiance that reaches
	// the ground under this condition (1 = no attenuation). The cloud attenuation factor
	// is 1 − ClearSkyIndex.
	ClearSkyIndex float64 `json:"clearSkyIndex"`
	// Variability is the relative spread of irradiance between 5-minute samples (broken
	// cloud passing in front of the sun), 0–0.4.
	Variability float64 `json:"variability"`
	// AirQuality is the typical air-quality level 1–6 under this condition (see
	// AirQualityLevels).
	AirQuality int `json:"airQuality"`
	// WindMS is a typical wind speed in m/s, used by the module-temperature model.
	WindMS float64 `json:"windMs"`
	// Precipitation is true when rain, snow or hail falls.
	Precipitation bool `json:"precipitation"`
}

// ID is the three-digit code as SPEC.md writes it, e.g. "007".
func (w WeatherCode) ID() string { return fmt.Sprintf("%03d", w.Code) }

// AirQuality is one of the six air-quality levels of SPEC.md section 9.
type AirQuality struct {
	Level int    `json:"level"`
	Key   string `json:"key"`
}

var airQualityLevels = []AirQuality{
	{1, "excellent"}, {2, "good"}, {3, "light"}, {4, "moderate"}, {5, "heavy"}, {6, "severe"},
}

// AirQualityLevels returns the six air-quality levels in order (1 excellent … 6 severe).
func AirQualityLevels() []AirQuality { return append([]AirQuality(nil), airQualityLevels...) }

// AirQualityKey returns the key of an air-quality level ("" when out of range).
func AirQualityKey(level int) string {
	if level < 1 || level > len(airQualityLevels) {
		return ""
	}
	return airQualityLevels[level-1].Key
}

// weatherTable is indexed by code; entries 0, 43 and 44 are empty.
var weatherTable = func() [71]WeatherCode {
	var t [71]WeatherCode
	add := func(code int, key, group string, csi, variability float64, aq int, wind float64, precip bool) {
		t[code] = WeatherCode{code, key, group, csi, variability, aq, wind, precip}
	}
	add(1, "clear", "clear", 1.00, 0.01, 1, 2, false)
	add(2, "mostly_clear", "clear", 0.93, 0.06, 1, 2, false)
	add(3, "partly_cloudy", "cloud", 0.76, 0.25, 2, 3, false)
	add(4, "mostly_cloudy", "cloud", 0.55, 0.25, 2, 3, false)
	add(5, "cloudy", "cloud", 0.42, 0.15, 2, 3, false)
	add(6, "overcast", "cloud", 0.28, 0.06, 2, 3, false)
	add(7, "high_thin_clouds", "cloud", 0.86, 0.08, 2, 2, false)
	add(8, "scattered_clouds", "cloud", 0.80, 0.30, 1, 3, false)
	add(9, "broken_clouds", "cloud", 0.60, 0.30, 2, 3, false)
	add(10, "sunny_intervals", "cloud", 0.70, 0.35, 1, 3, false)
	add(11, "drizzle", "rain", 0.24, 0.08, 1, 3, true)
	add(12, "light_rain", "rain", 0.21, 0.08, 1, 3, true)
	add(13, "moderate_rain", "rain", 0.16, 0.06, 1, 4, true)
	add(14, "heavy_rain", "rain", 0.11, 0.05, 1, 5, true)
	add(15, "rainstorm", "rain", 0.08, 0.05, 1, 7, true)
	add(16, "heavy_rainstorm", "rain", 0.06, 0.05, 1, 8, true)
	add(17, "extreme_rainstorm", "rain", 0.05, 0.05, 1, 10, true)
	add(18, "light_to_moderate_rain", "rain", 0.18, 0.07, 1, 3, true)
	add(19, "moderate_to_heavy_rain", "rain", 0.13, 0.06, 1, 5, true)
	add(20, "heavy_rain_to_rainstorm", "rain", 0.09, 0.05, 1, 7, true)
	add(21, "shower", "rain", 0.36, 0.35, 1, 5, true)
	add(22, "light_shower", "rain", 0.46, 0.35, 1, 4, true)
	add(23, "heavy_shower", "rain", 0.22, 0.30, 1, 7, true)
	add(24, "thundershower", "storm", 0.26, 0.35, 1, 8, true)
	add(25, "thunderstorm", "storm", 0.15, 0.30, 1, 10, true)
	add(26, "thunderstorm_with_hail", "storm", 0.12, 0.30, 1, 12, true)
	add(27, "hail", "storm", 0.15, 0.25, 1, 10, true)
	add(28, "freezing_rain", "mixed", 0.12, 0.05, 1, 4, true)
	add(29, "sleet", "mixed", 0.15, 0.06, 1, 5, true)
	add(30, "freezing_drizzle", "mixed", 0.18, 0.05, 1, 3, true)
	add(31, "snow_flurries", "snow", 0.40, 0.20, 1, 3, true)
	add(32, "light_snow", "snow", 0.22, 0.08, 1, 3, true)
	add(33, "moderate_snow", "snow", 0.15, 0.06, 1, 4, true)
	add(34, "heavy_snow", "snow", 0.10, 0.05, 1, 6, true)
	add(35, "snowstorm", "snow", 0.06, 0.05, 1, 12, true)
	add(36, "light_to_moderate_snow", "snow", 0.18, 0.07, 1, 3, true)
	add(37, "moderate_to_heavy_snow", "snow", 0.12, 0.06, 1, 5, true)
	add(38, "heavy_snow_to_snowstorm", "snow", 0.08, 0.05, 1, 9, true)
	add(39, "snow_shower", "snow", 0.30, 0.30, 1, 5, true)
	add(40, "blowing_snow", "snow", 0.25, 0.20, 1, 12, true)
	add(41, "rain_and_snow", "mixed", 0.15, 0.06, 1, 4, true)
	add(42, "ice_pellets", "mixed", 0.15, 0.06, 1, 5, true)
	// 043 and 044 are absent from the specification's list.
	add(45, "mist", "fog", 0.55, 0.05, 2, 1, false)
	add(46, "fog", "fog", 0.30, 0.05, 3, 1, false)
	add(47, "dense_fog", "fog", 0.15, 0.04, 3, 1, false)
	add(48, "freezing_fog", "fog", 0.25, 0.04, 3, 1, false)
	add(49, "light_haze", "haze", 0.90, 0.03, 3, 1.5, false)
	add(50, "moderate_haze", "haze", 0.80, 0.03, 4, 1.5, false)
	add(51, "heavy_haze", "haze", 0.68, 0.03, 5, 1, false)
	add(52, "severe_haze", "haze", 0.55, 0.03, 6, 1, false)
	add(53, "smoke", "haze", 0.60, 0.05, 5, 2, false)
	add(54, "floating_dust", "dust", 0.78, 0.05, 4, 3, false)
	add(55, "blowing_sand", "dust", 0.60, 0.15, 5, 9, false)
	add(56, "sandstorm", "dust", 0.35, 0.20, 6, 15, false)
	add(57, "severe_sandstorm", "dust", 0.20, 0.20, 6, 22, false)
	add(58, "dust_whirls", "dust", 0.90, 0.10, 3, 6, false)
	add(59, "windy", "wind", 0.85, 0.20, 1, 9, false)
	add(60, "strong_wind", "wind", 0.80, 0.25, 1, 13, false)
	add(61, "gale", "wind", 0.60, 0.30, 1, 18, false)
	add(62, "tropical_depression", "cyclone", 0.20, 0.30, 1, 15, true)
	add(63, "tropical_storm", "cyclone", 0.12, 0.25, 1, 22, true)
	add(64, "typhoon", "cyclone", 0.07, 0.20, 1, 35, true)
	add(65, "squall", "storm", 0.25, 0.35, 1, 20, true)
	add(66, "tornado", "storm", 0.15, 0.35, 1, 40, true)
	add(67, "hot", "clear", 0.97, 0.02, 2, 2, false)
	add(68, "cold", "clear", 0.97, 0.02, 1, 4, false)
	add(69, "frost", "clear", 0.98, 0.02, 1, 1, false)
	add(70, "unknown", "unknown", 0.60, 0.10, 2, 3, false)
	return t
}()

// WeatherCodes returns the whole table in code order (68 entries: 001–070 without 043
// and 044).
func WeatherCodes() []WeatherCode {
	out := make([]WeatherCode, 0, 68)
	for _, w := range weatherTable {
		if w.Code != 0 {
			out = append(out, w)
		}
	}
	return out
}

// LookupWeather returns the table entry for a code.
func LookupWeather(code int) (WeatherCode, bool) {
	if code < 1 || code >= len(weatherTable) || weatherTable[code].Code == 0 {
		return WeatherCode{}, false
	}
	return weatherTable[code], true
}
