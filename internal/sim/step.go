package sim

import (
	"math"
	"time"

	// The simulator resolves station time zones itself; embedding the zone database
	// keeps it independent of the host's.
	_ "time/tzdata"

	"github.com/helio-energy/helio/internal/pvmodel"
)

// A station's step in time: its local calendar, the faults of the day and each sub-station's first state.

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
	sn := pvmodel.SunPos(st.latR, st.lng, fsec)
	cond := st.wx.at(fsec, &st.wxc)
	clear := pvmodel.ClearSkyGHI(&sn, st.alt, st.clim.LinkeTurbidity)

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
			d.perf = d.perf0 * pvmodel.Ageing(years)
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
