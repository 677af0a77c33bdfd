package sim

import (
	"math"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
)

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
	clim     pvmodel.Climate
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

// cloudIndex is the clear-sky index a sub-station (seed) sees at sec: the conditions' index
// with the fast variability of broken cloud, drawn per minute, and cloud enhancement.
func cloudIndex(cond *conditions, seed uint64, sec int64) float64 {
	u := signed(hash3(seed, saltIrr, uint64(sec/60)))
	return clamp(cond.csi*(1+cond.variab*u), 0.03, 1.12)
}

// Conditions is the public view of a station's weather at an instant.
type Conditions struct {
	Time        time.Time           `json:"time"`
	Weather     WeatherCode         `json:"weather"`
	AmbientC    float64             `json:"ambientC"`
	Sun         pvmodel.SunPosition `json:"sun"`
	Irradiance  pvmodel.Irradiance  `json:"irradiance"`  // horizontal, station average
	ClearSkyGHI float64             `json:"clearSkyGhi"` // W/m², without weather
}
