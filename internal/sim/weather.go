package sim

import (
	"fmt"
	"math"
	"time"
)

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

// Climate parameterises the weather and temperature processes of a station. The zero
// value of any field means "derive a default from the latitude" (see resolve).
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
	// SpecificYieldKWhKWp is the typical annual yield per kWp, used only to estimate the
	// energy counters of a device before the first simulated instant (its opening, see
	// OpeningCounters); the demo sites' figures follow the solar model (TestClimateYield).
	SpecificYieldKWhKWp float64 `json:"specificYieldKWhKWp"`
}

func (c Climate) resolve(lat float64) Climate {
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

// Weather process.
//
// A latent cloud level 0–4 (clear, partly cloudy, cloudy, overcast, precipitation)
// follows an hourly Metropolis birth–death Markov chain whose stationary distribution is a
// binomial over the levels with the month's cloudiness as its parameter, flattened
// (raised to the power 0.75) because real cloudiness is bimodal, and the precipitation
// level weighted up (× 2), so each station's weather matches its climate month by month while
// persisting for hours. Each level is then dressed as a concrete code from the context
// (temperature → rain or snow, warm afternoons → showers and thunderstorms, haze, dust,
// fog and cyclone days, 3-hour episodes choose the intensity). The chain restarts every
// 168 hours (a "block") from a draw of the stationary distribution, so the code of any
// hour is a pure function of (seed, station, hour): it does not depend on where stepping
// started.

const (
	wxLevels     = 5
	wxBlockHours = 168
	wxMoveRate   = 0.3
	// wxSpread < 1 flattens the binomial so that both clear and overcast spells are
	// common, as in real climates (cloudiness is bimodal).
	wxSpread = 0.75
	// wxRainBoost raises the share of precipitation hours (overcast skies rain often).
	wxRainBoost = 2.0
)

type weatherModel struct {
	seed     uint64
	clim     Climate
	lat, lng float64
	south    bool
}

type codeWeight struct {
	code uint8
	w    float64
}

func pick(e float64, opts []codeWeight) uint8 {
	total := 0.0
	for _, o := range opts {
		total += o.w
	}
	x := e * total
	for _, o := range opts {
		if x < o.w {
			return o.code
		}
		x -= o.w
	}
	return opts[len(opts)-1].code
}

var (
	wxClear      = []codeWeight{{1, 0.72}, {2, 0.25}, {59, 0.03}}
	wxPartly     = []codeWeight{{3, 0.40}, {8, 0.20}, {7, 0.15}, {10, 0.15}, {2, 0.05}, {59, 0.05}}
	wxCloudy     = []codeWeight{{4, 0.35}, {9, 0.30}, {5, 0.25}, {60, 0.05}, {59, 0.05}}
	wxOvercast   = []codeWeight{{6, 0.55}, {5, 0.30}, {45, 0.08}, {11, 0.07}}
	wxOvercastCd = []codeWeight{{6, 0.60}, {5, 0.30}, {31, 0.10}}
	wxSnow       = []codeWeight{{31, 0.15}, {32, 0.35}, {36, 0.10}, {33, 0.15}, {39, 0.10}, {37, 0.05}, {34, 0.05}, {40, 0.03}, {38, 0.01}, {35, 0.01}}
	wxMixed      = []codeWeight{{29, 0.35}, {41, 0.30}, {28, 0.10}, {42, 0.10}, {30, 0.15}}
	wxConvective = []codeWeight{{22, 0.20}, {21, 0.25}, {23, 0.10}, {24, 0.20}, {25, 0.15}, {26, 0.03}, {27, 0.02}, {65, 0.05}}
	wxStratiform = []codeWeight{{11, 0.15}, {12, 0.30}, {18, 0.12}, {13, 0.15}, {19, 0.08}, {14, 0.08}, {20, 0.04}, {15, 0.04}, {16, 0.03}, {17, 0.01}}
	wxCyclone    = []codeWeight{{62, 0.5}, {63, 0.35}, {64, 0.15}}
	wxDust       = []codeWeight{{54, 0.45}, {55, 0.30}, {56, 0.20}, {57, 0.05}}
	wxHaze       = []codeWeight{{49, 0.40}, {50, 0.30}, {51, 0.20}, {52, 0.10}}
	wxFog        = []codeWeight{{45, 0.45}, {46, 0.40}, {47, 0.15}}
)

// Salts keep the different random draws of one station independent.
const (
	saltBlock uint64 = iota + 0x5ea1
	saltChain
	saltEpisode
	saltHaze
	saltDust
	saltFog
	saltTyphoon
	saltDayTemp
	saltIrr
	saltDevice
	saltFaults
	saltCounter
	saltLoad
)

// dayOfYear returns the fractional day of the year (0 = 1 January 00:00 UTC) of Unix
// second sec, on the mean Gregorian year (within a day of the calendar for 1900–2100).
func dayOfYear(sec float64) float64 {
	d := math.Mod(sec/86400, 365.2425)
	if d < 0 {
		d += 365.2425
	}
	return d
}

// cloudiness interpolates the monthly cloudiness linearly between mid-month points.
func (w *weatherModel) cloudiness(doy float64) float64 {
	m := doy/30.436875 - 0.5
	i := int(math.Floor(m))
	f := m - float64(i)
	a := w.clim.Cloudiness[(i+12)%12]
	b := w.clim.Cloudiness[(i+13)%12]
	return a + (b-a)*f
}

// stationary returns the level distribution for cloudiness c.
func stationary(c float64) [wxLevels]float64 {
	c = clamp(c, 0.02, 0.95)
	binom := [wxLevels]float64{1, 4, 6, 4, 1}
	var p [wxLevels]float64
	sum := 0.0
	for i := range p {
		p[i] = math.Pow(binom[i]*math.Pow(c, float64(i))*math.Pow(1-c, float64(4-i)), wxSpread)
		if i == wxLevels-1 {
			p[i] *= wxRainBoost
		}
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// season returns a 0–1 weight peaking on day peak of the northern year, shifted half a
// year south of the equator when hemi is true.
func (w *weatherModel) season(doy, peak float64, hemi bool) float64 {
	if hemi && w.south {
		peak += 182.6
	}
	return math.Max(0, math.Cos(2*math.Pi*(doy-peak)/365.2425))
}

// baseTemp is the ambient temperature without the weather's effect: seasonal cycle, a
// day-to-day random offset (interpolated between solar days) and the clear-day daily cycle.
func (w *weatherModel) baseTemp(sec float64) (mean, diurnal float64) {
	doy := dayOfYear(sec)
	peak := 200.0 // warmest around 19 July in the north
	if w.south {
		peak = 17
	}
	seasonal := w.clim.AnnualMeanC + w.clim.SeasonalAmpC*math.Cos(2*math.Pi*(doy-peak)/365.2425)
	solarDay := (sec + w.lng*240) / 86400
	d0 := math.Floor(solarDay - 0.5)
	f := solarDay - 0.5 - d0
	o0 := w.dayOffset(int64(d0))
	o1 := w.dayOffset(int64(d0) + 1)
	solarHour := (solarDay - math.Floor(solarDay)) * 24
	diurnal = w.clim.DailyRangeC / 2 * math.Cos(2*math.Pi*(solarHour-14.5)/24)
	return seasonal + o0 + (o1-o0)*f, diurnal
}

func (w *weatherModel) dayOffset(day int64) float64 {
	h := hash3(w.seed, saltDayTemp, uint64(day))
	// Sum of two uniforms: triangular, ±3.5 °C.
	return 1.75 * (signed(h) + signed(mix64(h)))
}

// block fills the latent levels of block b (hours b*168 … b*168+167).
func (w *weatherModel) levels(b int64, out *[wxBlockHours]uint8) {
	r := newRNG(hash3(w.seed, saltChain, uint64(b)))
	h0 := b * wxBlockHours
	pi := stationary(w.cloudiness(dayOfYear(float64(h0) * 3600)))
	// Initial level: a draw of the stationary distribution.
	x := r.float()
	lvl := 0
	for lvl < wxLevels-1 && x >= pi[lvl] {
		x -= pi[lvl]
		lvl++
	}
	out[0] = uint8(lvl)
	for i := 1; i < wxBlockHours; i++ {
		if i%24 == 0 {
			pi = stationary(w.cloudiness(dayOfYear(float64(h0+int64(i)) * 3600)))
		}
		if r.float() < wxMoveRate {
			next := lvl + 1
			if r.float() < 0.5 {
				next = lvl - 1
			}
			if next >= 0 && next < wxLevels && r.float() < pi[next]/pi[lvl] {
				lvl = next
			}
		} else {
			r.next()
			r.next()
		}
		out[i] = uint8(lvl)
	}
}

// dress turns the latent level of hour h into a weather code.
func (w *weatherModel) dress(h int64, lvl uint8) uint8 {
	sec := float64(h)*3600 + 1800
	doy := dayOfYear(sec)
	mean, diurnal := w.baseTemp(sec)
	temp := mean + diurnal
	solarDay := (sec + w.lng*240) / 86400
	day := uint64(int64(math.Floor(solarDay)))
	solarHour := (solarDay - math.Floor(solarDay)) * 24
	e := unit(hash3(w.seed, saltEpisode, uint64(h/3)))
	dayRoll := func(salt uint64, prob, weight float64) bool {
		return prob > 0 && unit(hash3(w.seed, salt, day)) < prob*weight
	}
	c := &w.clim
	cyclone := dayRoll(saltTyphoon, c.TyphoonDays, w.season(doy, 237, true))
	dust := dayRoll(saltDust, c.DustDays, w.season(doy, 105, true))
	haze := dayRoll(saltHaze, c.HazeDays, w.season(doy, 15, true))
	fog := dayRoll(saltFog, c.FogDays, w.season(doy, 15, true)) && solarHour >= 4 && solarHour < 10

	if cyclone && lvl >= 2 {
		return pick(e, wxCyclone)
	}
	switch lvl {
	case 0:
		switch {
		case dust && solarHour >= 8 && solarHour < 20:
			return pick(e, wxDust)
		case haze:
			return pick(e, wxHaze)
		case fog && temp < 0:
			return 48
		case fog:
			return pick(e, wxFog)
		case temp > 35 && solarHour >= 11 && solarHour < 18:
			return 67
		case temp < -12:
			return 68
		case temp < 0 && solarHour >= 4 && solarHour < 9:
			return 69
		}
		return pick(e, wxClear)
	case 1:
		if dust && e < 0.5 {
			return 54
		}
		if haze {
			return pick(e*0.7, wxHaze)
		}
		return pick(e, wxPartly)
	case 2:
		if fog {
			return pick(e, wxFog)
		}
		return pick(e, wxCloudy)
	case 3:
		if fog {
			return 46
		}
		if temp < 0 {
			return pick(e, wxOvercastCd)
		}
		return pick(e, wxOvercast)
	}
	switch {
	case temp < -1:
		return pick(e, wxSnow)
	case temp < 2:
		return pick(e, wxMixed)
	case temp > 20 && solarHour >= 12 && solarHour < 21:
		return pick(e, wxConvective)
	}
	return pick(e, wxStratiform)
}

// fillBlock computes the weather codes of every hour of block b.
func (w *weatherModel) fillBlock(b int64, out *[wxBlockHours]uint8) {
	w.levels(b, out)
	for i := range out {
		out[i] = w.dress(b*wxBlockHours+int64(i), out[i])
	}
}

// codeAt returns the weather code of hour h (hours since the Unix epoch) without a cache.
func (w *weatherModel) codeAt(h int64) uint8 {
	b := floorDiv(h, wxBlockHours)
	var blk [wxBlockHours]uint8
	w.fillBlock(b, &blk)
	return blk[h-b*wxBlockHours]
}

// wxCache keeps the current and the next block of one station.
type wxCache struct {
	b     [2]int64
	codes [2][wxBlockHours]uint8
	ok    [2]bool
}

func (c *wxCache) code(w *weatherModel, h int64) uint8 {
	b := floorDiv(h, wxBlockHours)
	i := int(b & 1)
	if !c.ok[i] || c.b[i] != b {
		w.fillBlock(b, &c.codes[i])
		c.b[i], c.ok[i] = b, true
	}
	return c.codes[i][h-b*wxBlockHours]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// conditions is the weather at one instant, shared by all sub-stations of a station.
type conditions struct {
	code      uint8   // weather code of the current hour
	csi       float64 // clear-sky index, interpolated between hours
	variab    float64 // irradiance variability
	ambient   float64 // °C
	wind      float64 // m/s
	precip    bool
	solarHour float64
}

// at computes the conditions at Unix second sec; cache may be nil.
func (w *weatherModel) at(sec float64, cache *wxCache) conditions {
	hf := sec / 3600
	h := int64(math.Floor(hf))
	f := hf - float64(h)
	var c0, c1 uint8
	if cache != nil {
		c0, c1 = cache.code(w, h), cache.code(w, h+1)
	} else {
		c0, c1 = w.codeAt(h), w.codeAt(h+1)
	}
	a, b := &weatherTable[c0], &weatherTable[c1]
	// Conditions change over the second half of the hour towards the next hour's.
	g := 0.0
	if f > 0.5 {
		g = (f - 0.5) * 2
	}
	csi := a.ClearSkyIndex + (b.ClearSkyIndex-a.ClearSkyIndex)*g
	mean, diurnal := w.baseTemp(sec)
	amb := mean + diurnal*(0.35+0.65*csi)
	if a.Precipitation {
		amb -= 1.5
	}
	solarDay := (sec + w.lng*240) / 86400
	return conditions{
		code:      c0,
		csi:       csi,
		variab:    a.Variability + (b.Variability-a.Variability)*g,
		ambient:   amb,
		wind:      a.WindMS + (b.WindMS-a.WindMS)*g,
		precip:    a.Precipitation,
		solarHour: (solarDay - math.Floor(solarDay)) * 24,
	}
}

// Conditions is the public view of a station's weather at an instant.
type Conditions struct {
	Time        time.Time   `json:"time"`
	Weather     WeatherCode `json:"weather"`
	AmbientC    float64     `json:"ambientC"`
	Sun         SunPosition `json:"sun"`
	Irradiance  Irradiance  `json:"irradiance"`  // horizontal, station average
	ClearSkyGHI float64     `json:"clearSkyGhi"` // W/m², without weather
}
