package sim

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	// The simulator resolves station time zones itself; embedding the zone database
	// keeps it independent of the host's.
	_ "time/tzdata"

	"github.com/helio-energy/helio/internal/telemetry"
)

// EmitFunc receives one sample for one device. The sample's DeviceID is the id set with
// SetDeviceIDs, 0 otherwise. It is called synchronously from Step, in fleet order.
type EmitFunc func(deviceKey string, s telemetry.Sample)

// Model constants (docs/simulator.md explains each).
const (
	tempCoeff      = -0.004 // power temperature coefficient per °C above 25 °C
	systemLoss     = 0.93   // soiling, wiring, mismatch, availability
	invEtaNom      = 0.97   // inverter nominal efficiency (PVWatts curve)
	invEtaRef      = 0.9637
	faimanU0       = 25.0 // W/m²K
	faimanU1       = 6.84 // W/m³sK
	socMin         = 5.0
	socMax         = 100.0
	batEta         = 0.95 // one-way AC ↔ stored efficiency (≈ 90 % round trip)
	packEta        = 0.97 // all-in-one unit: AC ↔ pack DC efficiency
	stepSec        = 300  // the reference reporting interval
	maxGapSec      = 400 * 86400
	degradPerYear  = 0.005
	overTempLimitF = 0.5 // over-temperature derating: share of rated AC power
)

// Simulator produces telemetry for a fleet. Each top-level station is simulated by its
// own StationStepper with its own state, so stations can be stepped on different
// goroutines; the samples do not depend on how they are spread. Methods are safe for
// concurrent use, but each stepper must be stepped by one goroutine at a time with
// non-decreasing instants (a stepper serialises itself with a mutex).
type Simulator struct {
	fleet    Fleet
	seed     int64
	stations []*stationSim
	byKey    map[string]*stationSim

	mu        sync.Mutex // guards injectSeq
	injectSeq int
}

// StationStepper steps one top-level station (all its sub-stations and devices).
type StationStepper struct{ st *stationSim }

type stationSim struct {
	mu   sync.Mutex
	key  string
	seed uint64
	loc  *time.Location
	latR float64
	lng  float64
	alt  float64
	clim Climate
	wx   weatherModel
	wxc  wxCache
	subs []*subSim
	devs map[string]*devSim

	injected []Fault
	noFaults bool // EstimateYield: no scheduled faults
	// Scheduled faults of the current UTC month.
	monthFrom, monthTo int64
	month              []Fault

	started bool
	last    time.Time
	lastSec int64
	// Cached UTC offset of the station's zone, valid for [zoneFrom, zoneTo).
	zoneOff, zoneFrom, zoneTo int64
}

type subSim struct {
	key        string
	seed       uint64
	gridDate   time.Time
	gridSec    int64
	started    bool
	lastDay    int64
	planes     []plane
	devs       []*devSim
	invs       []int // indexes into devs
	bats       []int // in-balance batteries and all-in-one units
	collectors []string
	load       LoadProfile
	dispatch   DispatchMode
	kwp        float64
	nomV, nomF float64
	albedo     float64
	yield      float64
	gridDetail string
	// per-step scratch
	poa, tcell, vfac []float64
}

type devSim struct {
	key       string
	kind      DeviceType
	seed      uint64
	id        int64
	collector string
	parent    int // index of the parent device in the sub-station, -1
	child     int // index of the pack of an all-in-one unit, -1
	plane     int
	// inverter
	kwp, pdc0, rated, vocString, perf0, perf float64
	enabled                                  int
	daily                                    bool
	// battery / storage
	capKWh, ratedKW, nomDCV float64
	meterPos                MeterPosition
	// state
	e1, e2, today, soc float64
	// faults active at the current step
	silent, trip, batFault, overTemp bool
	stringsDown                      int
	// the sample being built
	smp telemetry.Sample
}

// New builds a simulator for a fleet. The same fleet, seed and sequence of Step
// instants always give the same samples.
func New(f Fleet, seed int64) (*Simulator, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	s := &Simulator{fleet: f, seed: seed, byKey: map[string]*stationSim{}}
	for i := range f.Stations {
		st, err := newStationSim(&f.Stations[i], uint64(seed))
		if err != nil {
			return nil, err
		}
		s.stations = append(s.stations, st)
		s.byKey[st.key] = st
	}
	return s, nil
}

func newStationSim(p *Station, seed uint64) (*stationSim, error) {
	loc, err := time.LoadLocation(p.Timezone)
	if err != nil {
		return nil, err
	}
	sseed := hash2(seed, strHash(p.Key))
	clim := p.Climate.resolve(p.Lat)
	st := &stationSim{
		key: p.Key, seed: sseed, loc: loc, latR: p.Lat * deg2rad, lng: p.Lng, alt: p.AltitudeM,
		clim: clim, devs: map[string]*devSim{}, zoneFrom: 1, zoneTo: 0,
	}
	st.wx = weatherModel{seed: sseed, clim: clim, lat: p.Lat, lng: p.Lng, south: p.Lat < 0}
	for ci := range p.Children {
		c := &p.Children[ci]
		sub := &subSim{
			key: c.Key, seed: hash2(sseed, strHash(c.Key)), gridDate: c.GridDate, gridSec: c.GridDate.Unix(),
			load: c.Load, dispatch: c.Dispatch, nomV: c.NominalVoltageV, nomF: c.NominalFrequencyHz,
			albedo: clim.Albedo, yield: clim.SpecificYieldKWhKWp,
		}
		if sub.dispatch == "" {
			sub.dispatch = DispatchSelfConsumption
		}
		if sub.nomV == 0 {
			sub.nomV = 230
		}
		if sub.nomF == 0 {
			sub.nomF = 50
		}
		for _, col := range c.Collectors {
			sub.collectors = append(sub.collectors, col.SN)
		}
		idx := map[string]int{}
		for di := range c.Devices {
			d := &c.Devices[di]
			ds := &devSim{
				key: d.Key, kind: d.Type, seed: hash2(sseed, strHash(d.Key)), collector: d.CollectorSN,
				parent: -1, child: -1, meterPos: d.MeterPosition,
			}
			idx[d.Key] = di
			switch d.Type {
			case DeviceInverter:
				ds.plane = sub.planeFor(d.TiltDeg, d.AzimuthDeg)
				ds.kwp = d.ComponentCapacityKWp()
				ds.rated = d.RatedACKW
				ds.pdc0 = d.RatedACKW / invEtaNom
				ds.enabled = d.EnabledStrings
				ds.daily = d.Counter == CounterDaily
				perString := float64(d.ComponentCount) / float64(d.EnabledStrings)
				vocMod := 37 + 0.023*d.ComponentRatedW // typical module open-circuit voltage
				ds.vocString = perString * vocMod
				// Individual spread of ±2 % (module binning, cabling, soiling).
				ds.perf0 = 0.98 + 0.04*unit(hash2(ds.seed, 1))
				sub.kwp += ds.kwp
				sub.invs = append(sub.invs, di)
			case DeviceBattery, DeviceStorage:
				ds.capKWh, ds.ratedKW = d.CapacityKWh, d.RatedKW
				switch {
				case d.CapacityKWh < 30:
					ds.nomDCV = 51.2
				case d.CapacityKWh < 500:
					ds.nomDCV = 768
				default:
					ds.nomDCV = 1228.8
				}
			}
			sub.devs = append(sub.devs, ds)
			st.devs[d.Key] = ds
		}
		for di := range c.Devices {
			d := &c.Devices[di]
			ds := sub.devs[di]
			if d.ParentKey != "" {
				pi := idx[d.ParentKey]
				if (d.Type == DeviceBattery) && c.Devices[pi].Type == DeviceStorage {
					ds.parent = pi
					sub.devs[pi].child = di
				}
			}
		}
		for di, ds := range sub.devs {
			if (ds.kind == DeviceBattery || ds.kind == DeviceStorage) && ds.parent < 0 {
				sub.bats = append(sub.bats, di)
			}
		}
		sub.poa = make([]float64, len(sub.planes))
		sub.tcell = make([]float64, len(sub.planes))
		sub.vfac = make([]float64, len(sub.planes))
		st.subs = append(st.subs, sub)
	}
	return st, nil
}

func (s *subSim) planeFor(tilt, az float64) int {
	for i, p := range s.planes {
		if p.tiltDeg == tilt && p.azimDeg == az {
			return i
		}
	}
	s.planes = append(s.planes, newPlane(tilt, az))
	return len(s.planes) - 1
}

// Fleet returns the fleet the simulator runs.
func (s *Simulator) Fleet() Fleet { return s.fleet }

// Seed returns the simulator's seed.
func (s *Simulator) Seed() int64 { return s.seed }

// Steppers returns one stepper per top-level station, in fleet order.
func (s *Simulator) Steppers() []*StationStepper {
	out := make([]*StationStepper, len(s.stations))
	for i, st := range s.stations {
		out[i] = &StationStepper{st}
	}
	return out
}

// StationStepper returns the stepper of a top-level station (nil if unknown).
func (s *Simulator) StationStepper(stationKey string) *StationStepper {
	st := s.byKey[stationKey]
	if st == nil {
		return nil
	}
	return &StationStepper{st}
}

// StationKey is the top-level station this stepper simulates.
func (p *StationStepper) StationKey() string { return p.st.key }

// Step advances the station to instant t and emits one sample per reporting device.
// See (*Simulator).Step.
func (p *StationStepper) Step(t time.Time, emit EmitFunc) { p.st.step(t, emit) }

// Step advances every station to instant t and emits one sample per reporting device,
// station by station in fleet order. Instants should not decrease; 5 minutes apart is
// the reference interval, any spacing works: energy is integrated over the time since
// the previous step, and a gap of more than 10 minutes (up to 400 days) is first
// filled with silent 5-minute steps so counters, state of charge and faults carry on as
// if the plant had kept running. An instant not after the previous one emits samples
// without advancing state. Devices of a sub-station not yet grid-connected, and devices
// behind a lost collector, emit nothing.
func (s *Simulator) Step(t time.Time, emit EmitFunc) {
	for _, st := range s.stations {
		st.step(t, emit)
	}
}

// SetDeviceIDs sets the DeviceID written into each device's samples (keys not in the
// map keep 0). Call it before stepping.
func (s *Simulator) SetDeviceIDs(ids map[string]int64) {
	for _, st := range s.stations {
		st.mu.Lock()
		for k, d := range st.devs {
			d.id = ids[k]
			d.smp.DeviceID = d.id
		}
		st.mu.Unlock()
	}
}

// ErrUnknownDevice is returned by Restore for a device key not in the fleet.
var ErrUnknownDevice = errors.New("sim: unknown device")

// Restore resumes a device from its last stored sample after a restart: counters
// (lifetime, or today's for daily-counter inverters) and state of charge are taken
// from it, and the station continues from the latest restored instant (the gap up to
// the next Step is filled as Step describes). Call it before stepping the station.
func (s *Simulator) Restore(deviceKey string, last telemetry.Sample) error {
	for _, st := range s.stations {
		d := st.devs[deviceKey]
		if d == nil {
			continue
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		var sub *subSim
		for _, x := range st.subs {
			for _, y := range x.devs {
				if y == d {
					sub = x
				}
			}
		}
		sec := last.Time.Unix()
		if !sub.started {
			st.initSub(sub, sec)
		}
		switch d.kind {
		case DeviceInverter:
			if d.daily {
				d.today = last.EnergyKWh
			} else {
				d.e1 = last.EnergyKWh
			}
		default:
			d.e1, d.e2 = last.EnergyKWh, last.Energy2KWh
			if d.kind != DeviceMeter && last.SOC > 0 {
				d.soc = clamp(last.SOC, socMin, socMax)
			}
		}
		sub.lastDay = st.localDay(sec)
		if !st.started || sec > st.lastSec {
			st.started, st.lastSec, st.last = true, sec, last.Time
		}
		return nil
	}
	return fmt.Errorf("%w: %q", ErrUnknownDevice, deviceKey)
}

// Conditions returns a station's weather, ambient temperature, sun position and
// station-average irradiance at instant t. It is a pure function of the seed, the
// station and t (the same values the samples are computed from), so the API can show
// the weather and temperature of any instant. ok is false for an unknown station.
// A sub-station key gives its station's conditions.
func (s *Simulator) Conditions(stationKey string, t time.Time) (c Conditions, ok bool) {
	st := s.byKey[stationKey]
	if st == nil {
		for _, x := range s.stations {
			for _, sub := range x.subs {
				if sub.key == stationKey {
					st = x
				}
			}
		}
	}
	if st == nil {
		return Conditions{}, false
	}
	sec := float64(t.Unix())
	sn := sunPos(st.latR, st.lng, sec)
	cond := st.wx.at(sec, nil)
	clear := clearSkyGHI(&sn, st.alt, st.clim.LinkeTurbidity)
	irr := decompose(&sn, clear*cond.csi)
	return Conditions{
		Time:        t.UTC(),
		Weather:     weatherTable[cond.code],
		AmbientC:    cond.ambient,
		Sun:         SunPosition{sn.elev * rad2deg, sn.azim * rad2deg, sn.decl * rad2deg, sn.eot, sn.i0},
		Irradiance:  irr,
		ClearSkyGHI: clear,
	}, true
}

// localDay returns the station-local day number (days since 1970-01-01 local) of sec
// and refreshes the cached zone offset.
func (st *stationSim) localDay(sec int64) int64 {
	return floorDiv(sec+st.offset(sec), 86400)
}

func (st *stationSim) offset(sec int64) int64 {
	if sec < st.zoneFrom || sec >= st.zoneTo {
		t := time.Unix(sec, 0).In(st.loc)
		_, off := t.Zone()
		from, to := t.ZoneBounds()
		st.zoneOff = int64(off)
		st.zoneFrom, st.zoneTo = math.MinInt64, math.MaxInt64
		if !from.IsZero() {
			st.zoneFrom = from.Unix()
		}
		if !to.IsZero() {
			st.zoneTo = to.Unix()
		}
	}
	return st.zoneOff
}

func (st *stationSim) step(t time.Time, emit EmitFunc) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sec := t.Unix()
	if st.started {
		if gap := sec - st.lastSec; gap > 2*stepSec && gap <= maxGapSec {
			for s := st.lastSec + stepSec; s < sec; s += stepSec {
				st.advance(s, nil, time.Time{})
			}
		}
	}
	st.advance(sec, emit, t.UTC())
}

// advance moves the station to sec; emit may be nil (gap filling).
func (st *stationSim) advance(sec int64, emit EmitFunc, t time.Time) {
	dtH := 0.0
	if st.started {
		switch d := sec - st.lastSec; {
		case d > maxGapSec:
			// Too long to integrate: resume without accounting the gap.
		case d > 0:
			dtH = float64(d) / 3600
		}
	}
	off := st.offset(sec)
	localSec := sec + off
	localDay := floorDiv(localSec, 86400)
	hour := float64(localSec-localDay*86400) / 3600
	weekday := int((localDay%7 + 7 + 4) % 7) // 1970-01-01 was a Thursday

	fsec := float64(sec)
	sn := sunPos(st.latR, st.lng, fsec)
	cond := st.wx.at(fsec, &st.wxc)
	clear := clearSkyGHI(&sn, st.alt, st.clim.LinkeTurbidity)

	st.markFaults(sec)

	for _, sub := range st.subs {
		if sec < sub.gridSec {
			continue
		}
		subDt := dtH
		if !sub.started {
			st.initSub(sub, sec)
			subDt = 0
		}
		sub.advance(st, sec, subDt, &sn, &cond, clear, hour, weekday, localDay)
		if emit != nil {
			for _, d := range sub.devs {
				if d.silent {
					continue
				}
				d.smp.Time = t
				emit(d.key, d.smp)
			}
		}
	}
	if sec > st.lastSec || !st.started {
		st.lastSec = sec
		st.last = time.Unix(sec, 0).UTC()
	}
	st.started = true
}

// markFaults flags, on every device, the faults active at sec, and applies the device
// replacements of faults that ended since the previous step.
func (st *stationSim) markFaults(sec int64) {
	if sec < st.monthFrom || sec >= st.monthTo {
		ms := monthStartUTC(time.Unix(sec, 0))
		st.month = nil
		if !st.noFaults {
			st.month = st.monthFaults(ms)
		}
		st.monthFrom, st.monthTo = ms.Unix(), ms.AddDate(0, 1, 0).Unix()
	}
	for _, sub := range st.subs {
		sub.gridDetail = ""
		for _, d := range sub.devs {
			d.silent, d.trip, d.batFault, d.overTemp, d.stringsDown = false, false, false, false, 0
		}
	}
	apply := func(f *Fault) {
		from, to := f.Start.Unix(), f.End.Unix()
		if f.Replaced && st.started && to > st.lastSec && to <= sec {
			for _, k := range f.DeviceKeys {
				if d := st.devs[k]; d != nil {
					d.e1, d.today = 0, 0
				}
			}
		}
		if sec < from || sec >= to {
			return
		}
		for _, k := range f.DeviceKeys {
			d := st.devs[k]
			if d == nil {
				continue
			}
			switch f.Kind {
			case FaultCollectorLost:
				d.silent = true
			case FaultInverterTrip:
				d.trip = true
			case FaultBattery:
				d.batFault = true
			case FaultOverTemp:
				d.overTemp = true
			case FaultStringDown:
				d.stringsDown += f.StringsDown
			}
		}
		if f.Kind == FaultGrid {
			for _, sub := range st.subs {
				if sub.key == f.SubStationKey {
					sub.gridDetail = f.Detail
				}
			}
		}
	}
	for i := range st.month {
		apply(&st.month[i])
	}
	for i := range st.injected {
		apply(&st.injected[i])
	}
}

// initSub gives the devices of a sub-station their counters and state of charge at its
// first simulated instant: a small commissioning value at grid connection plus an
// estimate of what the plant produced, stored and traded since.
func (st *stationSim) initSub(sub *subSim, sec int64) {
	years := math.Max(0, float64(sec-sub.gridSec)/(365.25*86400))
	loadDay := dailyLoadKWh(sub.load)
	pvYear := sub.yield * sub.kwp
	imp, exp := 0.5, 0.3
	switch sub.load.Kind {
	case LoadAuxiliary:
		imp, exp = 0.45, 0.98
	case LoadResidential:
		imp, exp = 0.3, 0.35
	case LoadCommercial:
		imp, exp = 0.65, 0.1
	case LoadIndustrial:
		imp, exp = 0.75, 0.04
	}
	for _, d := range sub.devs {
		r := newRNG(hash2(d.seed, saltCounter))
		base := 2 + 30*r.float()
		switch d.kind {
		case DeviceInverter:
			d.e1 = inverterOpening(d, sub, sec)
			d.perf = d.perf0 * (1 - degradPerYear*years)
		case DeviceBattery, DeviceStorage:
			dis := years * 365 * d.capKWh * 0.8 * (0.85 + 0.2*r.float())
			d.e1, d.e2 = base+dis, base+dis/(batEta*batEta)
			if d.parent >= 0 {
				d.e1, d.e2 = d.e1/packEta, d.e2*packEta
			}
			d.soc = 40 + 30*r.float()
		case DeviceMeter:
			if d.meterPos == MeterLoad {
				d.e1 = base + years*365*loadDay
			} else {
				d.e1 = base + years*365*loadDay*imp
				d.e2 = base + years*pvYear*exp
			}
		}
	}
	for _, d := range sub.devs {
		if d.parent >= 0 {
			d.soc = sub.devs[d.parent].soc
		}
	}
	sub.lastDay = st.localDay(sec)
	sub.started = true
}

// inverterOpening is an inverter's lifetime counter at the sub-station's first simulated
// instant sec: a commissioning value of 2-32 kWh plus the years since grid connection ×
// the climate's specific yield (kWh/kWp, calibrated to the solar model: TestClimateYield)
// × the array's kWp × a plant factor of 0.92-1.02 (soiling, outages) × the mean of the
// yearly degradation over those years. Deterministic per device.
func inverterOpening(d *devSim, sub *subSim, sec int64) float64 {
	years := math.Max(0, float64(sec-sub.gridSec)/(365.25*86400))
	r := newRNG(hash2(d.seed, saltCounter))
	base := 2 + 30*r.float()
	return base + years*sub.yield*d.kwp*(0.92+0.1*r.float())*(1-degradPerYear*years/2)
}

// OpeningCounters returns, per inverter key, its lifetime energy counter (kWh) at the
// first instant the simulator gives it from `from` on: at `from`, or at its grid
// connection when that is later. It is the counter of the first sample a back-fill from
// `from` emits, so the energy before the history is this opening.
func (s *Simulator) OpeningCounters(from time.Time) map[string]float64 {
	out := map[string]float64{}
	sec := from.Unix()
	for _, st := range s.stations {
		for _, sub := range st.subs {
			at := max(sec, sub.gridSec)
			for _, d := range sub.devs {
				if d.kind == DeviceInverter {
					out[d.key] = inverterOpening(d, sub, at)
				}
			}
		}
	}
	return out
}

// advance computes one step of a sub-station: irradiance on each array, inverters,
// load, battery dispatch, meters and counters. Samples are left in devSim.smp.
func (sub *subSim) advance(st *stationSim, sec int64, dtH float64, sn *sun, cond *conditions, clear, hour float64, weekday int, localDay int64) {
	newDay := localDay != sub.lastDay
	sub.lastDay = localDay

	// Irradiance: clear sky × weather, with fast cloud variability per sub-station.
	var ghi float64
	if clear > 0 {
		u := signed(hash3(sub.seed, saltIrr, uint64(sec/60)))
		csi := clamp(cond.csi*(1+cond.variab*u), 0.03, 1.12)
		ghi = clear * csi
	}
	irr := decompose(sn, ghi)
	for i := range sub.planes {
		p := sub.planes[i].poa(sn, irr, sub.albedo)
		sub.poa[i] = p
		sub.tcell[i] = cond.ambient + p/(faimanU0+faimanU1*cond.wind)
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
			d.perf = d.perf0 * (1 - degradPerYear*years)
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
			pdc = d.kwp * poa / 1000 * (1 + tempCoeff*(tc-25)) * systemLoss * d.perf *
				float64(active) / float64(d.enabled) * (1 + 0.003*n1)
			if z := pdc / d.pdc0; z > 0.0062 {
				eta := invEtaNom / invEtaRef * (-0.0162*z - 0.0059/z + 0.9858)
				pac = eta * pdc
				if pac > d.rated { // clipping: the inverter leaves the maximum power point
					pac = d.rated
					pdc = pac / eta
				}
			}
			if pac <= 0 {
				pac, pdc = 0, 0
			}
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
				pdc = pac / invEtaNom
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
