package sim

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// FaultKind names a fault the simulator can produce.
type FaultKind string

// Fault kinds. What each looks like in the samples is documented in docs/simulator.md
// and summarised here.
const (
	// FaultStringDown: StringsActive drops below EnabledStrings by StringsDown while the
	// inverter is running; power drops by the same share. Starts 10:00–13:00 local,
	// lasts 2–30 h.
	FaultStringDown FaultKind = "string_down"
	// FaultInverterTrip: Status = StatusFault, power 0, DC current 0 (DC voltage at open
	// circuit while the sun is up). Starts 09:00–14:00 local, lasts 20 min–5 h. A long trip
	// may end with the inverter replaced (Fault.Replaced): its lifetime counter starts
	// again from 0 at End.
	FaultInverterTrip FaultKind = "inverter_trip"
	// FaultCollectorLost: the collector loses its uplink; the devices behind it emit no
	// samples at all. Any hour, 45 min–20 h.
	FaultCollectorLost FaultKind = "collector_lost"
	// FaultOverTemp: TempC 82–90 °C, Status = StatusOverTemp, power limited to 50 % of
	// rated AC. Starts 11:00–13:00 local, lasts 1–2.5 h.
	FaultOverTemp FaultKind = "over_temperature"
	// FaultGrid: grid over/under voltage or frequency at the sub-station (Detail says
	// which): every inverter and battery of the sub-station reports Status =
	// StatusGridFault with power 0, and they and the meters (which keep Status running:
	// a meter has no protection relay) read ACVoltageV ≥ 1.13 × nominal or ≤ 0.83 ×
	// nominal, or FrequencyHz ≥ nominal + 0.8 or ≤ nominal − 0.8.
	// Starts 10:00–14:00 local, lasts 10–45 min.
	FaultGrid FaultKind = "grid_fault"
	// FaultBattery: a battery or all-in-one unit (and its pack) reports Status =
	// StatusFault, power 0, state of charge frozen. Any hour, 30 min–10 h.
	FaultBattery FaultKind = "battery_fault"
)

// Grid fault details.
const (
	GridOverVoltage    = "over_voltage"
	GridUnderVoltage   = "under_voltage"
	GridOverFrequency  = "over_frequency"
	GridUnderFrequency = "under_frequency"
)

// Fault is one fault episode, scheduled from the seed or injected.
type Fault struct {
	// ID is stable: "<station>-<yyyymm>-<n>" for scheduled faults, "inj-<n>" for injected.
	ID   string    `json:"id"`
	Kind FaultKind `json:"kind"`
	// Detail refines the kind: the grid condition for FaultGrid.
	Detail string `json:"detail,omitempty"`
	// StationKey is the top-level station, SubStationKey the sub-station.
	StationKey    string `json:"stationKey"`
	SubStationKey string `json:"subStationKey"`
	// DeviceKeys are the devices whose samples show the fault: the inverter or battery
	// concerned (with the pack of an all-in-one unit), every inverter, battery and meter
	// of the sub-station for a grid fault, every device behind the collector for a lost
	// collector (they go silent).
	DeviceKeys []string `json:"deviceKeys"`
	// CollectorSN is set for FaultCollectorLost.
	CollectorSN string `json:"collectorSn,omitempty"`
	// Start and End bound the fault: active for Start <= t < End, recovered from End on.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// StringsDown is the number of strings lost (FaultStringDown).
	StringsDown int `json:"stringsDown,omitempty"`
	// Replaced is true when the device was swapped at End (lifetime counter restarts at 0).
	Replaced bool `json:"replaced,omitempty"`
	// Injected is true for faults added with InjectFault.
	Injected bool `json:"injected,omitempty"`
}

// Active reports whether the fault is active at t.
func (f Fault) Active(t time.Time) bool { return !t.Before(f.Start) && t.Before(f.End) }

// FaultRequest asks for a fault to start now (on the caller's clock).
type FaultRequest struct {
	Kind FaultKind `json:"kind"`
	// Target is a device key (string down, inverter trip, over-temperature, battery
	// fault; for a grid fault any device of the sub-station), a sub-station key (grid
	// fault) or a collector serial number (lost collector; a device key selects the
	// collector that device reports through).
	Target string `json:"target"`
	// Start is when the fault begins; the zero value means the last instant stepped for
	// the station (the simulator never reads the wall clock).
	Start time.Time `json:"start"`
	// Duration defaults per kind: 2 h string down, 30 min otherwise. Use EndFault to end
	// an injected fault earlier.
	Duration time.Duration `json:"duration"`
	// Detail selects the grid condition (default over_voltage).
	Detail string `json:"detail,omitempty"`
	// StringsDown defaults to 1.
	StringsDown int `json:"stringsDown,omitempty"`
}

// Errors returned by InjectFault and EndFault.
var (
	ErrUnknownTarget = errors.New("sim: unknown fault target")
	ErrBadFault      = errors.New("sim: fault kind does not fit the target")
	ErrUnknownFault  = errors.New("sim: unknown injected fault")
)

// fault schedule ------------------------------------------------------------------

type faultWindow struct {
	fromHour, toHour int           // local start hour window [from, to)
	minDur, maxDur   time.Duration // duration range
	weight           float64
}

var faultWindows = map[FaultKind]faultWindow{
	FaultStringDown:    {10, 13, 2 * time.Hour, 30 * time.Hour, 0.28},
	FaultInverterTrip:  {9, 14, 20 * time.Minute, 5 * time.Hour, 0.20},
	FaultCollectorLost: {0, 24, 45 * time.Minute, 20 * time.Hour, 0.14},
	FaultOverTemp:      {11, 13, time.Hour, 150 * time.Minute, 0.12},
	FaultGrid:          {10, 14, 10 * time.Minute, 45 * time.Minute, 0.13},
	FaultBattery:       {0, 24, 30 * time.Minute, 10 * time.Hour, 0.13},
}

var faultOrder = []FaultKind{FaultStringDown, FaultInverterTrip, FaultCollectorLost, FaultOverTemp, FaultGrid, FaultBattery}

// monthFaults returns the scheduled faults of a station for the UTC calendar month
// starting at monthStart. The schedule is a pure function of the seed, the station and
// the month; each fault lies wholly inside its month and never overlaps another fault
// of the same sub-station (with an hour's margin), so each one is visible on its own.
func (st *stationSim) monthFaults(monthStart time.Time) []Fault {
	y, m, _ := monthStart.Date()
	monthEnd := monthStart.AddDate(0, 1, 0)
	days := int(monthEnd.Sub(monthStart).Hours()/24 + 0.5)
	r := newRNG(hash3(st.seed, saltFaults, uint64(y*12+int(m))))
	n := 2 + r.intn(4)

	var subs []*subSim
	for _, s := range st.subs {
		if !s.gridDate.After(monthStart) {
			subs = append(subs, s)
		}
	}
	if len(subs) == 0 {
		return nil
	}
	var out []Fault
	for attempt := 0; len(out) < n && attempt < 12*n; attempt++ {
		// Draw everything first so each attempt consumes the same numbers.
		kindRoll, subRoll, devRoll := r.float(), r.intn(len(subs)), r.next()
		dayRoll, hourRoll, minRoll, durRoll := r.intn(days-4), r.float(), r.intn(60), r.float()
		extra, extra2 := r.float(), r.float()

		sub := subs[subRoll]
		total := 0.0
		for _, k := range faultOrder {
			if sub.hasKind(k) {
				total += faultWindows[k].weight
			}
		}
		x := kindRoll * total
		var kind FaultKind
		for _, k := range faultOrder {
			if !sub.hasKind(k) {
				continue
			}
			if x < faultWindows[k].weight {
				kind = k
				break
			}
			x -= faultWindows[k].weight
			kind = k
		}
		w := faultWindows[kind]
		hour := w.fromHour + int(hourRoll*float64(w.toHour-w.fromHour))
		start := time.Date(y, m, 2+dayRoll, hour, minRoll, 0, 0, st.loc).UTC()
		dur := w.minDur + time.Duration(durRoll*float64(w.maxDur-w.minDur))
		dur = dur.Round(time.Minute)
		f := Fault{
			ID: fmt.Sprintf("%s-%04d%02d-%d", st.key, y, int(m), len(out)+1), Kind: kind,
			StationKey: st.key, SubStationKey: sub.key, Start: start, End: start.Add(dur),
		}
		if f.Start.Before(monthStart.Add(time.Hour)) || f.End.After(monthEnd.Add(-time.Hour)) || f.Start.Before(sub.gridDate) {
			continue
		}
		if !sub.fillFault(&f, devRoll, extra, extra2) {
			continue
		}
		clash := false
		for _, o := range out {
			if o.SubStationKey == f.SubStationKey && o.Start.Before(f.End.Add(time.Hour)) && f.Start.Before(o.End.Add(time.Hour)) {
				clash = true
				break
			}
		}
		if clash {
			continue
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// hasKind reports whether a sub-station has a device the fault kind applies to.
func (s *subSim) hasKind(k FaultKind) bool {
	switch k {
	case FaultBattery:
		return len(s.bats) > 0
	case FaultCollectorLost:
		return len(s.collectors) > 0
	}
	return len(s.invs) > 0
}

// fillFault chooses the target devices of a fault on this sub-station.
func (s *subSim) fillFault(f *Fault, devRoll uint64, extra, extra2 float64) bool {
	switch f.Kind {
	case FaultStringDown, FaultInverterTrip, FaultOverTemp:
		d := s.devs[s.invs[devRoll%uint64(len(s.invs))]]
		f.DeviceKeys = []string{d.key}
		if f.Kind == FaultStringDown {
			f.StringsDown = 1
			if d.enabled >= 6 && extra < 0.35 {
				f.StringsDown = 2
			}
		}
		if f.Kind == FaultInverterTrip && f.End.Sub(f.Start) > 3*time.Hour && extra2 < 0.3 {
			f.Replaced = true
		}
	case FaultBattery:
		d := s.devs[s.bats[devRoll%uint64(len(s.bats))]]
		f.DeviceKeys = []string{d.key}
		if d.child >= 0 {
			f.DeviceKeys = append(f.DeviceKeys, s.devs[d.child].key)
		}
	case FaultGrid:
		f.Detail = []string{GridOverVoltage, GridUnderVoltage, GridOverFrequency, GridUnderFrequency}[int(extra*4)%4]
		f.DeviceKeys = s.gridFaultKeys()
	case FaultCollectorLost:
		c := s.collectors[devRoll%uint64(len(s.collectors))]
		f.CollectorSN = c
		f.DeviceKeys = s.collectorKeys(c)
		if len(f.DeviceKeys) == 0 {
			return false
		}
	default:
		return false
	}
	return true
}

func (s *subSim) gridFaultKeys() []string {
	var keys []string
	for _, d := range s.devs {
		if d.kind == DeviceInverter || d.kind == DeviceBattery || d.kind == DeviceStorage || d.kind == DeviceMeter {
			keys = append(keys, d.key)
		}
	}
	return keys
}

func (s *subSim) collectorKeys(sn string) []string {
	var keys []string
	for _, d := range s.devs {
		if d.collector == sn {
			keys = append(keys, d.key)
		}
	}
	return keys
}

// monthStartUTC returns the first instant of t's UTC month.
func monthStartUTC(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
}

// scheduledFaults lists the scheduled faults of a station that overlap [from, to).
func (st *stationSim) scheduledFaults(from, to time.Time) []Fault {
	var out []Fault
	for m := monthStartUTC(from); m.Before(to); m = m.AddDate(0, 1, 0) {
		for _, f := range st.monthFaults(m) {
			if f.Start.Before(to) && f.End.After(from) {
				out = append(out, f)
			}
		}
	}
	return out
}

// Faults lists every fault, scheduled and injected, that overlaps [from, to), ordered by
// start time (then ID). The alarm engine's tests use it to check each was caught.
func (s *Simulator) Faults(from, to time.Time) []Fault {
	var out []Fault
	for _, st := range s.stations {
		out = append(out, st.scheduledFaults(from, to)...)
		st.mu.Lock()
		for _, f := range st.injected {
			if f.Start.Before(to) && f.End.After(from) {
				out = append(out, f)
			}
		}
		st.mu.Unlock()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].ID < out[j].ID
	})
	return out
}
