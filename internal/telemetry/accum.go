package telemetry

import "math"

// The bucket code: how one sample and one segment (the interval between two consecutive
// samples of a device) add to the hours and 5-minute slots of local days. The write path,
// late-data corrections and the back-fill all go through these functions.

type dayKey struct {
	id    int64
	kind  string // "" for devices
	start int64
}

// target is one owner of roll-ups a device's samples feed: the device itself, and those
// of its stations (own, ancestors) whose calendar differs from the device's. Stations on
// the device's calendar get the device's day changes summed in afterwards (addDerived),
// which is cheaper than accumulating every sample three times.
type target struct {
	station bool
	slots   bool   // keep 5-minute slots (stations, and devices with derived stations)
	key     dayKey // id and kind (station kinds are never ""); start unused
	cal     *Calendar
	last    *dayAcc
}

// accum collects roll-up changes by day.
type accum struct {
	maxGap int64
	days   map[dayKey]*dayAcc // device days (kind "") and station days
	order  []dayKey           // first-touch order, for deterministic writes
	rolled bool               // a write's changes: written in its transaction (else they wait: deferred.go)
}

func newAccum(maxGap int64) *accum {
	return &accum{maxGap: maxGap, days: map[dayKey]*dayAcc{}}
}

func (a *accum) targets(d *deviceInfo) []target {
	d.split()
	tg := make([]target, 0, 1+len(d.stations))
	tg = append(tg, target{key: dayKey{id: d.ID}, cal: d.cal, slots: len(d.derived) > 0})
	for _, s := range d.direct {
		tg = append(tg, target{station: true, slots: true, key: dayKey{id: s.id, kind: d.Kind}, cal: s.cal})
	}
	return tg
}

func (a *accum) day(tg *target, t int64) *dayAcc {
	if l := tg.last; l != nil && t >= l.start && t < l.end {
		return l
	}
	s, e := tg.cal.Day(t)
	k := tg.key
	k.start = s
	d := a.days[k]
	if d == nil {
		d = newDayAcc(s, e, tg.slots)
		d.cal = tg.cal
		a.days[k] = d
		a.order = append(a.order, k)
	}
	tg.last = d
	return d
}

// absorb takes the changes one device run collected in run: its days are moved or merged
// into a, and added to the stations that share the device's calendar.
func (a *accum) absorb(d *deviceInfo, run *accum) {
	for _, k := range run.order {
		day := run.days[k]
		if k.kind == "" {
			a.addDerived(d, day)
		}
		if have := a.days[k]; have != nil {
			have.merge(day)
			continue
		}
		a.days[k] = day
		a.order = append(a.order, k)
	}
}

// addDerived adds a device day's changes to the same day of each station that shares
// the device's calendar (hours without the power extremes, which a station takes from
// its slots, and 5-minute slots).
func (a *accum) addDerived(d *deviceInfo, day *dayAcc) {
	for _, s := range d.derived {
		k := dayKey{id: s.id, kind: d.Kind, start: day.start}
		sd := a.days[k]
		if sd == nil {
			sd = newDayAcc(day.start, day.end, true)
			sd.cal = s.cal
			a.days[k] = sd
			a.order = append(a.order, k)
		}
		for i := range day.hours {
			if i < len(sd.hours) {
				sd.hours[i].addSums(&day.hours[i])
			}
		}
		for i, v := range day.slots {
			if !math.IsNaN(v) {
				sd.addSlot(i, v)
			}
		}
	}
}

// isFault reports whether a status counts towards fault minutes.
func isFault(status int) bool {
	return status == StatusFault || status == StatusOverTemp || status == StatusGridFault
}

// addSample adds what belongs to a sample's own instant: the count, irradiance and (for
// the device) the power extremes.
func (a *accum) addSample(tgs []target, s *rawRow) {
	for i := range tgs {
		tg := &tgs[i]
		d := a.day(tg, s.T)
		h := &d.hours[d.hourOf(s.T)]
		h.Samples++
		h.IrradianceSum += s.IrradianceWm2
		h.DCVoltageSum += s.DCVoltageV
		h.DCCurrentSum += s.DCCurrentA
		h.ACVoltageSum += s.ACVoltageV
		h.FrequencySum += s.FrequencyHz
		h.TempSum += s.TempC
		h.SOCSum += s.SOC
		if !tg.station {
			h.extremes(s.PowerKW, s.PowerKW)
		}
	}
}

// addSegment adds (sign +1) or takes back (sign −1) what the segment from sample p to
// sample c contributes: the counters' energy, spread evenly over [step.From, c.T), and,
// when the samples are at most maxGap apart, the power and irradiance integrals
// (trapezoids), the fault and online minutes (the status of p holds until c).
func (a *accum) addSegment(tgs []target, kwp float64, p, c *rawRow, s1, s2 CounterStep, sign float64) {
	if s1.EnergyKWh != 0 {
		a.spreadEnergy(tgs, s1.From, c.T, sign*s1.EnergyKWh, false)
	}
	if s2.EnergyKWh != 0 {
		a.spreadEnergy(tgs, s2.From, c.T, sign*s2.EnergyKWh, true)
	}
	if c.T-p.T > a.maxGap || c.T <= p.T {
		return
	}
	fault := isFault(p.Status)
	span := float64(c.T - p.T)
	for i := range tgs {
		tg := &tgs[i]
		for u := p.T; u < c.T; {
			d := a.day(tg, u)
			hi := d.hourOf(u)
			v := min(c.T, d.start+int64(hi+1)*hourMs, d.end)
			h := &d.hours[hi]
			pu := p.PowerKW + (c.PowerKW-p.PowerKW)*float64(u-p.T)/span
			pv := p.PowerKW + (c.PowerKW-p.PowerKW)*float64(v-p.T)/span
			gu := p.IrradianceWm2 + (c.IrradianceWm2-p.IrradianceWm2)*float64(u-p.T)/span
			gv := p.IrradianceWm2 + (c.IrradianceWm2-p.IrradianceWm2)*float64(v-p.T)/span
			hours := float64(v-u) / 3.6e6
			h.PowerKWh += sign * (pu + pv) / 2 * hours
			irr := (gu + gv) / 2 * hours / 1000
			h.IrradiationKWhM2 += sign * irr
			h.RefEnergyKWh += sign * irr * kwp
			mins := float64(v-u) / 60000
			h.OnlineMin += sign * mins
			if fault {
				h.FaultMin += sign * mins
			}
			if tg.slots {
				for w := u; w < v; {
					si := int((w - d.start) / slotMs)
					x := min(v, d.start+int64(si+1)*slotMs)
					pw := p.PowerKW + (c.PowerKW-p.PowerKW)*float64(w-p.T)/span
					px := p.PowerKW + (c.PowerKW-p.PowerKW)*float64(x-p.T)/span
					d.addSlot(si, sign*(pw+px)/2*float64(x-w)/3.6e6)
					w = x
				}
			}
			u = v
		}
	}
}

// spreadEnergy spreads e evenly over [t0, t1) (all of it into the instant before t1 when
// the interval is empty).
func (a *accum) spreadEnergy(tgs []target, t0, t1 int64, e float64, second bool) {
	add := func(h *Stats, v float64) {
		if second {
			h.Energy2KWh += v
		} else {
			h.EnergyKWh += v
		}
	}
	for i := range tgs {
		tg := &tgs[i]
		if t1 <= t0 {
			d := a.day(tg, t1-1)
			add(&d.hours[d.hourOf(t1-1)], e)
			continue
		}
		span := float64(t1 - t0)
		for u := t0; u < t1; {
			d := a.day(tg, u)
			hi := d.hourOf(u)
			v := min(t1, d.start+int64(hi+1)*hourMs, d.end)
			add(&d.hours[hi], e*float64(v-u)/span)
			u = v
		}
	}
}

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
