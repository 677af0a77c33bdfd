package pvmodel

import (
	"math"
	"time"
)

// Solar geometry and irradiance models. All angles in degrees at the API, radians inside.

const (
	deg2rad = math.Pi / 180
	rad2deg = 180 / math.Pi
	// SolarConstant is the mean extraterrestrial irradiance at 1 AU in W/m² (Kopp & Lean 2011).
	SolarConstant = 1361.0
)

// SunPosition is where the sun is seen from a place at an instant.
type SunPosition struct {
	// ElevationDeg is the apparent elevation above the horizon in degrees, corrected for
	// atmospheric refraction as the NOAA calculator does. Negative below the horizon.
	ElevationDeg float64 `json:"elevationDeg"`
	// AzimuthDeg is measured clockwise from true north: 90 east, 180 south, 270 west.
	AzimuthDeg float64 `json:"azimuthDeg"`
	// DeclinationDeg is the sun's apparent declination.
	DeclinationDeg float64 `json:"declinationDeg"`
	// EquationOfTimeMin is apparent minus mean solar time, in minutes.
	EquationOfTimeMin float64 `json:"equationOfTimeMin"`
	// ExtraterrestrialWm2 is the normal irradiance at the top of the atmosphere for the
	// current sun–earth distance.
	ExtraterrestrialWm2 float64 `json:"extraterrestrialWm2"`
}

// SunAt returns the sun's position at latitude lat and longitude lng (degrees, east and
// north positive) at instant t, with the NOAA solar calculator algorithm (Meeus,
// "Astronomical Algorithms", low-precision series). Accuracy is better than 0.02° for
// years 1900–2100, well inside what PV modelling needs.
func SunAt(lat, lng float64, t time.Time) SunPosition {
	sec := float64(t.Unix()) + float64(t.Nanosecond())*1e-9
	s := SunPos(lat*deg2rad, lng, sec)
	return s.Position()
}

// Sun is the form the irradiance models take: radians, plus the unit vector towards the
// sun in (east, north, up) coordinates for fast angle-of-incidence computations.
type Sun struct {
	elev, azim, decl float64 // apparent elevation, azimuth, declination (rad)
	cosZ             float64 // cosine of the apparent zenith angle (= sin elev)
	zenDeg           float64
	eot              float64 // minutes
	i0               float64 // extraterrestrial normal irradiance W/m²
	e, n, u          float64 // unit vector to the sun
}

// Position is the sun's position in degrees, as SunAt gives it.
func (s *Sun) Position() SunPosition {
	return SunPosition{
		ElevationDeg:        s.elev * rad2deg,
		AzimuthDeg:          s.azim * rad2deg,
		DeclinationDeg:      s.decl * rad2deg,
		EquationOfTimeMin:   s.eot,
		ExtraterrestrialWm2: s.i0,
	}
}

// SunPos implements the NOAA spreadsheet equations for a caller that steps many instants
// at one place. latR in radians, lng in degrees, sec is Unix time in seconds (UTC; the
// difference between UT1 and UTC is ignored).
func SunPos(latR, lng, sec float64) Sun {
	jd := sec/86400 + 2440587.5
	jc := (jd - 2451545) / 36525

	l0 := math.Mod(280.46646+jc*(36000.76983+jc*0.0003032), 360) // geometric mean longitude
	m := 357.52911 + jc*(35999.05029-0.0001537*jc)               // mean anomaly
	ecc := 0.016708634 - jc*(0.000042037+0.0000001267*jc)        // orbit eccentricity
	mR := m * deg2rad
	sinM, cosM := math.Sincos(mR)
	sin2M := 2 * sinM * cosM
	sin3M := sinM * (3 - 4*sinM*sinM)
	c := sinM*(1.914602-jc*(0.004817+0.000014*jc)) + sin2M*(0.019993-0.000101*jc) + sin3M*0.000289
	trueLong := l0 + c
	trueAnom := (m + c) * deg2rad
	radVec := 1.000001018 * (1 - ecc*ecc) / (1 + ecc*math.Cos(trueAnom)) // AU
	omega := (125.04 - 1934.136*jc) * deg2rad
	sinOmega, cosOmega := math.Sincos(omega)
	appLong := (trueLong - 0.00569 - 0.00478*sinOmega) * deg2rad
	meanObliq := 23 + (26+(21.448-jc*(46.815+jc*(0.00059-jc*0.001813)))/60)/60
	obliq := (meanObliq + 0.00256*cosOmega) * deg2rad
	decl := math.Asin(math.Sin(obliq) * math.Sin(appLong))

	y := math.Tan(obliq / 2)
	y *= y
	l0R := l0 * deg2rad
	sin2L0, cos2L0 := math.Sincos(2 * l0R)
	sin4L0 := 2 * sin2L0 * cos2L0
	eot := 4 * rad2deg * (y*sin2L0 - 2*ecc*sinM + 4*ecc*y*sinM*cos2L0 - 0.5*y*y*sin4L0 - 1.25*ecc*ecc*sin2M)

	// True solar time in minutes: UTC minutes of day + equation of time + 4 min per degree.
	utcMin := math.Mod(sec/60, 1440)
	if utcMin < 0 {
		utcMin += 1440
	}
	tst := math.Mod(utcMin+eot+4*lng, 1440)
	if tst < 0 {
		tst += 1440
	}
	ha := tst/4 - 180 // hour angle, degrees, negative in the morning
	haR := ha * deg2rad

	sinLat, cosLat := math.Sincos(latR)
	sinDec, cosDec := math.Sincos(decl)
	cosZen := sinLat*sinDec + cosLat*cosDec*math.Cos(haR)
	cosZen = clamp(cosZen, -1, 1)
	zen := math.Acos(cosZen)
	elevDeg := 90 - zen*rad2deg

	// Azimuth from north, clockwise.
	var az float64
	sinZen := math.Sin(zen)
	if den := cosLat * sinZen; math.Abs(den) > 1e-9 {
		a := math.Acos(clamp((sinLat*cosZen-sinDec)/den, -1, 1)) * rad2deg
		if ha > 0 {
			az = math.Mod(a+180, 360)
		} else {
			az = math.Mod(540-a, 360)
		}
	} else if latR > 0 {
		az = 180
	}

	elevDeg += refraction(elevDeg)
	elev := elevDeg * deg2rad
	sinE, cosE := math.Sincos(elev)
	azR := az * deg2rad
	sinA, cosA := math.Sincos(azR)
	return Sun{
		elev: elev, azim: azR, decl: decl,
		cosZ: sinE, zenDeg: 90 - elevDeg,
		eot: eot,
		i0:  SolarConstant / (radVec * radVec),
		e:   cosE * sinA, n: cosE * cosA, u: sinE,
	}
}

// refraction is the NOAA approximation of atmospheric refraction in degrees for a
// geometric elevation in degrees (standard pressure and temperature).
func refraction(e float64) float64 {
	if e > 85 {
		return 0
	}
	te := math.Tan(e * deg2rad)
	var r float64
	switch {
	case e > 5:
		r = 58.1/te - 0.07/(te*te*te) + 0.000086/(te*te*te*te*te)
	case e > -0.575:
		r = 1735 + e*(-518.2+e*(103.4+e*(-12.79+e*0.711)))
	default:
		r = -20.772 / te
	}
	return r / 3600
}

// Irradiance is the split of sunlight on a horizontal surface, W/m².
type Irradiance struct {
	GHI float64 `json:"ghi"` // global horizontal
	DNI float64 `json:"dni"` // direct normal
	DHI float64 `json:"dhi"` // diffuse horizontal
}

// ClearSkyGHI is the Ineichen–Perez (2002) clear-sky global horizontal irradiance for
// a site at altitude altM (m) with Linke turbidity tl. Zero with the sun below the horizon.
func ClearSkyGHI(s *Sun, altM, tl float64) float64 {
	if s.cosZ <= 0 {
		return 0
	}
	// Kasten & Young (1989) relative air mass, then pressure-corrected.
	am := 1 / (s.cosZ + 0.50572*math.Pow(96.07995-s.zenDeg, -1.6364))
	ama := am * math.Exp(-altM/8434.5)
	fh1 := math.Exp(-altM / 8000)
	fh2 := math.Exp(-altM / 1250)
	cg1 := 5.09e-5*altM + 0.868
	cg2 := 3.92e-5*altM + 0.0387
	return math.Max(0, cg1*s.i0*s.cosZ*math.Exp(-cg2*ama*(fh1+fh2*(tl-1))))
}

// Decompose splits a global horizontal irradiance into direct and diffuse parts with the
// Erbs et al. (1982) diffuse-fraction correlation on the clearness index kt = GHI/(I0·cosZ).
func Decompose(s *Sun, ghi float64) Irradiance {
	if ghi <= 0 || s.cosZ <= 0 {
		return Irradiance{}
	}
	kt := ghi / (s.i0 * math.Max(s.cosZ, 0.065))
	var df float64
	switch {
	case kt <= 0.22:
		df = 1 - 0.09*kt
	case kt <= 0.8:
		df = 0.9511 + kt*(-0.1604+kt*(4.388+kt*(-16.638+kt*12.336)))
	default:
		df = 0.165
	}
	dhi := df * ghi
	dni := (ghi - dhi) / math.Max(s.cosZ, 0.065)
	if dni > s.i0 {
		dni = s.i0
	}
	return Irradiance{GHI: ghi, DNI: dni, DHI: dhi}
}

// Plane is a fixed array orientation with its trigonometry precomputed.
type Plane struct {
	tiltDeg, azimDeg float64
	e, n, u          float64 // surface normal in (east, north, up)
	skyView          float64 // (1 + cos tilt) / 2
	groundView       float64 // (1 - cos tilt) / 2
}

// NewPlane is the plane tilted tiltDeg from horizontal, facing azimDeg clockwise from north.
func NewPlane(tiltDeg, azimDeg float64) Plane {
	sb, cb := math.Sincos(tiltDeg * deg2rad)
	sg, cg := math.Sincos(azimDeg * deg2rad)
	return Plane{
		tiltDeg: tiltDeg, azimDeg: azimDeg,
		e: sb * sg, n: sb * cg, u: cb,
		skyView: (1 + cb) / 2, groundView: (1 - cb) / 2,
	}
}

// TiltDeg is the plane's tilt from horizontal in degrees.
func (p *Plane) TiltDeg() float64 { return p.tiltDeg }

// AzimuthDeg is the direction the plane faces, clockwise from north in degrees.
func (p *Plane) AzimuthDeg() float64 { return p.azimDeg }

// POA returns the plane-of-array irradiance (W/m²) with the Hay–Davies (1980)
// anisotropic sky model, ground reflection with the given albedo, and the ASHRAE
// incidence-angle modifier (b0 = 0.05) on the beam component.
func (p *Plane) POA(s *Sun, irr Irradiance, albedo float64) float64 {
	if irr.GHI <= 0 {
		return 0
	}
	cosAOI := s.e*p.e + s.n*p.n + s.u*p.u
	beam := 0.0
	if cosAOI > 0.0477 {
		iam := 1 - 0.05*(1/cosAOI-1)
		beam = irr.DNI * cosAOI * iam
	}
	aniso := irr.DNI / s.i0 // Hay–Davies anisotropy index
	rb := math.Max(cosAOI, 0) / math.Max(s.cosZ, 0.01745)
	sky := irr.DHI * (aniso*rb + (1-aniso)*p.skyView)
	ground := irr.GHI * albedo * p.groundView
	return beam + sky + ground
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
