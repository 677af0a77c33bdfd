package sim

import (
	"math"

	// The simulator resolves station time zones itself; embedding the zone database
	// keeps it independent of the host's.
	_ "time/tzdata"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

// One sub-station's step: irradiance on each array, inverters, load, battery dispatch,
// meters and counters.

// advance computes one step of a sub-station: irradiance on each array, inverters,
// load, battery dispatch, meters and counters. Samples are left in devSim.smp.
func (sub *subSim) advance(st *stationSim, sec int64, dtH float64, sn *pvmodel.Sun, cond *conditions, clear, hour float64, weekday int, localDay int64) {
	newDay := localDay != sub.lastDay
	sub.lastDay = localDay

	// Irradiance: clear sky × weather, with fast cloud variability per sub-station.
	var ghi float64
	if clear > 0 {
		ghi = clear * cloudIndex(cond, sub.seed, sec)
	}
	irr := pvmodel.Decompose(sn, ghi)
	for i := range sub.planes {
		p := sub.planes[i].POA(sn, irr, sub.albedo)
		sub.poa[i] = p
		sub.tcell[i] = pvmodel.CellTempC(cond.ambient, p, cond.wind)
		if p > 1 {
			sub.vfac[i] = 1 + 0.04*math.Log(p/1000)
		} else {
			sub.vfac[i] = 0
		}
	}

	// Grid voltage and frequency at the connection point.
	gh := hash3(sub.seed, saltDevice, uint64(sec/stepSec))
	vGrid := sub.nomV * (1 + 0.012*signed(gh))
	fGrid := sub.nomF + 0.03*signed(mix64(gh))
	u := unit(mix64(gh ^ 0x77))
	switch sub.gridDetail {
	case GridOverVoltage:
		vGrid = sub.nomV * (1.13 + 0.04*u)
	case GridUnderVoltage:
		vGrid = sub.nomV * (0.78 + 0.05*u)
	case GridOverFrequency:
		fGrid = sub.nomF + 0.8 + 0.4*u
	case GridUnderFrequency:
		fGrid = sub.nomF - 0.8 - 0.4*u
	}
	gridFault := sub.gridDetail != ""

	// Inverters.
	pv := 0.0
	for _, i := range sub.invs {
		d := sub.devs[i]
		if newDay {
			years := math.Max(0, float64(sec-sub.gridSec)/(365.25*86400))
			d.perf = d.perf0 * pvmodel.Ageing(years)
			if d.daily {
				d.today = 0
			}
		}
		h := hash3(d.seed, saltDevice, uint64(sec))
		n1, n2 := signed(h), signed(mix64(h))
		poa := sub.poa[d.plane]
		tc := sub.tcell[d.plane]
		active := d.enabled - d.stringsDown
		if active < 0 {
			active = 0
		}
		var pdc, pac float64
		if poa > 0 && active > 0 {
			pdc = pvmodel.DCPowerKW(d.kwp, poa, tc) * d.perf * float64(active) / float64(d.enabled) * scatter(n1)
			pac, pdc = pvmodel.InverterAC(pdc, d.pdc0, d.rated)
		}
		status := telemetry.StatusStandby
		if pac > 0 {
			status = telemetry.StatusRunning
		}
		temp := cond.ambient + 1 + 0.5*n2
		if pac > 0 {
			temp = cond.ambient + 3 + 22*pac/d.rated + 0.8*n2
		}
		if d.overTemp {
			pac = math.Min(pac, overTempLimitF*d.rated)
			if pdc > 0 {
				pdc = pac / pvmodel.InverterEtaNom
			}
			status = telemetry.StatusOverTemp
			temp = 82 + 8*unit(h>>7)
		}
		if gridFault || d.trip {
			pac, pdc = 0, 0
			status = telemetry.StatusGridFault
			if d.trip {
				status = telemetry.StatusFault
			}
		}
		vfac := sub.vfac[d.plane]
		vmp := d.vocString * (1 - 0.0029*(tc-25)) * vfac
		s := &d.smp
		s.PowerKW = pac
		s.DCVoltageV, s.DCCurrentA = 0, 0
		if pac > 0 {
			s.DCVoltageV = 0.82 * vmp
			s.DCCurrentA = pdc * 1000 / s.DCVoltageV
		} else if vfac > 0 && active > 0 {
			s.DCVoltageV = vmp // open circuit while not converting
		}
		s.ACVoltageV = vGrid * (1 + 0.008*pac/d.rated + 0.002*n1)
		s.FrequencyHz = fGrid
		s.TempC = temp
		s.SOC = 0
		s.IrradianceWm2 = poa
		s.Status = status
		s.StringsActive = 0
		if pac > 0 {
			s.StringsActive = active
		}
		s.Energy2KWh = 0
		e := pac * dtH
		d.e1 += e
		d.today += e
		if d.daily {
			s.EnergyKWh = d.today
		} else {
			s.EnergyKWh = d.e1
		}
		pv += pac
	}

	// Load.
	pvFrac := 0.0
	if sub.kwp > 0 {
		pvFrac = pv / sub.kwp
	}
	load := loadKW(sub.load, hour, weekday, cond.ambient, signed(hash3(sub.seed, saltLoad, uint64(sec/stepSec))), pvFrac)

	// Batteries.
	batt := 0.0
	nOK := 0
	for _, i := range sub.bats {
		if d := sub.devs[i]; !d.batFault && !gridFault {
			nOK++
		}
	}
	dtDec := math.Max(dtH, float64(stepSec)/3600)
	for _, i := range sub.bats {
		d := sub.devs[i]
		var p float64 // AC, + discharging
		room := (socMax - d.soc) / 100 * d.capKWh / (dtDec * batEta)
		avail := (d.soc - socMin) / 100 * d.capKWh * batEta / dtDec
		if !d.batFault && !gridFault && nOK > 0 {
			switch sub.dispatch {
			case DispatchTimeShift:
				if hour >= 9 && hour < 15 && pv > 0 {
					p = -math.Min(math.Min(d.ratedKW, 0.4*pv/float64(nOK)), room)
				} else if hour >= 17 && hour < 22 {
					p = math.Min(d.ratedKW, avail)
				}
			default:
				net := (pv - load) / float64(nOK)
				if net > 0 {
					p = -math.Min(math.Min(net, d.ratedKW), room)
				} else {
					p = math.Min(math.Min(-net, d.ratedKW), avail)
				}
			}
			if math.Abs(p) < 0.005*d.ratedKW {
				p = 0
			}
		}
		if p < 0 {
			d.soc += -p * dtH * batEta / d.capKWh * 100
			d.e2 += -p * dtH
		} else {
			d.soc -= p * dtH / batEta / d.capKWh * 100
			d.e1 += p * dtH
		}
		d.soc = clamp(d.soc, socMin, socMax)
		batt += p
		st.batterySample(sub, d, p, vGrid, fGrid, cond.ambient, gridFault)
		if d.child >= 0 {
			c := sub.devs[d.child]
			pd := p / packEta
			if p < 0 {
				pd = p * packEta
				c.e2 += -pd * dtH
			} else {
				c.e1 += pd * dtH
			}
			c.soc = d.soc
			c.batFault = d.batFault
			st.batterySample(sub, c, pd, vGrid, fGrid, cond.ambient, gridFault)
			c.smp.ACVoltageV, c.smp.FrequencyHz = 0, 0
		}
	}

	// Meters: the grid meter closes the balance of PV, batteries and load.
	grid := load - pv - batt
	for _, d := range sub.devs {
		if d.kind != DeviceMeter {
			continue
		}
		h := hash3(d.seed, saltDevice, uint64(sec))
		s := &d.smp
		if d.meterPos == MeterLoad {
			s.PowerKW = load
			d.e1 += load * dtH
		} else {
			s.PowerKW = grid
			if grid > 0 {
				d.e1 += grid * dtH
			} else {
				d.e2 += -grid * dtH
			}
		}
		s.EnergyKWh, s.Energy2KWh = d.e1, d.e2
		s.ACVoltageV = vGrid * (1 + 0.001*signed(h))
		s.FrequencyHz = fGrid
		s.Status = telemetry.StatusRunning
	}
}

// scatter is the step-to-step spread of an inverter's DC power around the model (±0.3 %)
// for the device noise n (−1 … 1).
func scatter(n float64) float64 { return 1 + 0.003*n }

// batterySample fills the sample of a battery, all-in-one unit or battery pack.
func (st *stationSim) batterySample(sub *subSim, d *devSim, p, vGrid, fGrid, ambient float64, gridFault bool) {
	s := &d.smp
	s.PowerKW = p
	s.EnergyKWh, s.Energy2KWh = d.e1, d.e2
	s.SOC = d.soc
	s.DCVoltageV = d.nomDCV * (0.94 + 0.1*d.soc/100)
	s.DCCurrentA = p * 1000 / s.DCVoltageV
	s.ACVoltageV = vGrid
	s.FrequencyHz = fGrid
	s.TempC = 23 + 0.25*(ambient-23) + 6*math.Abs(p)/d.ratedKW
	switch {
	case d.batFault:
		s.Status = telemetry.StatusFault
	case gridFault:
		s.Status = telemetry.StatusGridFault
	case p != 0:
		s.Status = telemetry.StatusRunning
	default:
		s.Status = telemetry.StatusStandby
	}
}
