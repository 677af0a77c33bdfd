package sim

import (
	"errors"
	"fmt"
	"math"
	"time"

	// The simulator resolves station time zones itself; embedding the zone database
	// keeps it independent of the host's.
	_ "time/tzdata"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Resuming from stored samples, the conditions of an instant, and the lifetime counters at the start of a back-fill.

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
	sn := pvmodel.SunPos(st.latR, st.lng, sec)
	cond := st.wx.at(sec, nil)
	clear := pvmodel.ClearSkyGHI(&sn, st.alt, st.clim.LinkeTurbidity)
	irr := pvmodel.Decompose(&sn, clear*cond.csi)
	return Conditions{
		Time:        t.UTC(),
		Weather:     weatherTable[cond.code],
		AmbientC:    cond.ambient,
		Sun:         sn.Position(),
		Irradiance:  irr,
		ClearSkyGHI: clear,
	}, true
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
	return base + years*sub.yield*d.kwp*(0.92+0.1*r.float())*(1-pvmodel.DegradationPerYear*years/2)
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
