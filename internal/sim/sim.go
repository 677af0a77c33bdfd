package sim

import (
	"math"
	"sync"
	"time"

	// The simulator resolves station time zones itself; embedding the zone database
	// keeps it independent of the host's.
	_ "time/tzdata"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

// EmitFunc receives one sample for one device. The sample's DeviceID is the id set with
// SetDeviceIDs, 0 otherwise. It is called synchronously from Step, in fleet order.
type EmitFunc func(deviceKey string, s telemetry.Sample)

// Model constants (docs/simulator.md explains each); the PV array's and the inverter's
// are pvmodel's.
const (
	socMin         = 5.0
	socMax         = 100.0
	batEta         = 0.95 // one-way AC ↔ stored efficiency (≈ 90 % round trip)
	packEta        = 0.97 // all-in-one unit: AC ↔ pack DC efficiency
	stepSec        = 300  // the reference reporting interval
	maxGapSec      = 400 * 86400
	overTempLimitF = 0.5 // over-temperature derating: share of rated AC power
)

// deg2rad converts the station latitudes, kept in radians for pvmodel.SunPos.
const deg2rad = math.Pi / 180

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
	clim pvmodel.Climate
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
	planes     []pvmodel.Plane
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
	clim := p.Climate.Resolve(p.Lat)
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
				ds.pdc0 = d.RatedACKW / pvmodel.InverterEtaNom
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
		if p.TiltDeg() == tilt && p.AzimuthDeg() == az {
			return i
		}
	}
	s.planes = append(s.planes, pvmodel.NewPlane(tilt, az))
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
