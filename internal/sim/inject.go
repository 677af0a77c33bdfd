package sim

import (
	"fmt"
	"time"
)

// Faults asked for on demand (a test that expects an alarm): started on a device, a
// sub-station or a collector, and ended.

// InjectFault starts a fault on demand, e.g. from a test that expects an alarm. The
// fault takes effect from the first Step at or after its Start. Injected faults may
// overlap scheduled ones; the stronger effect wins (lost collector > trip > grid fault >
// battery fault > over-temperature > string down).
func (s *Simulator) InjectFault(req FaultRequest) (Fault, error) {
	st, sub, dev := s.findTarget(req.Target)
	if st == nil {
		return Fault{}, fmt.Errorf("%w: %q", ErrUnknownTarget, req.Target)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	start := req.Start
	if start.IsZero() {
		start = st.last
	}
	dur := req.Duration
	if dur <= 0 {
		dur = 30 * time.Minute
		if req.Kind == FaultStringDown {
			dur = 2 * time.Hour
		}
	}
	s.mu.Lock()
	s.injectSeq++
	seq := s.injectSeq
	s.mu.Unlock()
	f := Fault{
		ID: fmt.Sprintf("inj-%d", seq), Kind: req.Kind, StationKey: st.key,
		SubStationKey: sub.key, Start: start.UTC(), End: start.Add(dur).UTC(), Injected: true,
	}
	switch req.Kind {
	case FaultStringDown, FaultInverterTrip, FaultOverTemp:
		if dev == nil || dev.kind != DeviceInverter {
			return Fault{}, ErrBadFault
		}
		f.DeviceKeys = []string{dev.key}
		if req.Kind == FaultStringDown {
			f.StringsDown = max(1, req.StringsDown)
			if f.StringsDown > dev.enabled {
				return Fault{}, ErrBadFault
			}
		}
	case FaultBattery:
		if dev == nil || (dev.kind != DeviceBattery && dev.kind != DeviceStorage) {
			return Fault{}, ErrBadFault
		}
		if dev.parent >= 0 { // a pack: fault its unit
			dev = sub.devs[dev.parent]
		}
		f.DeviceKeys = []string{dev.key}
		if dev.child >= 0 {
			f.DeviceKeys = append(f.DeviceKeys, sub.devs[dev.child].key)
		}
	case FaultGrid:
		f.Detail = req.Detail
		if f.Detail == "" {
			f.Detail = GridOverVoltage
		}
		switch f.Detail {
		case GridOverVoltage, GridUnderVoltage, GridOverFrequency, GridUnderFrequency:
		default:
			return Fault{}, ErrBadFault
		}
		f.DeviceKeys = sub.gridFaultKeys()
	case FaultCollectorLost:
		sn := req.Target
		if dev != nil {
			sn = dev.collector
		}
		f.CollectorSN = sn
		f.DeviceKeys = sub.collectorKeys(sn)
		if sn == "" || len(f.DeviceKeys) == 0 {
			return Fault{}, ErrBadFault
		}
	default:
		return Fault{}, ErrBadFault
	}
	st.injected = append(st.injected, f)
	return f, nil
}

// EndFault ends an injected fault at instant at (recovery from then on).
func (s *Simulator) EndFault(id string, at time.Time) (Fault, error) {
	for _, st := range s.stations {
		st.mu.Lock()
		for i := range st.injected {
			if st.injected[i].ID == id {
				if at.Before(st.injected[i].Start) {
					at = st.injected[i].Start
				}
				st.injected[i].End = at.UTC()
				f := st.injected[i]
				st.mu.Unlock()
				return f, nil
			}
		}
		st.mu.Unlock()
	}
	return Fault{}, ErrUnknownFault
}

// findTarget resolves a device key, sub-station key or collector SN.
func (s *Simulator) findTarget(target string) (*stationSim, *subSim, *devSim) {
	for _, st := range s.stations {
		for _, sub := range st.subs {
			if sub.key == target {
				return st, sub, nil
			}
			for _, c := range sub.collectors {
				if c == target {
					return st, sub, nil
				}
			}
			for _, d := range sub.devs {
				if d.key == target {
					return st, sub, d
				}
			}
		}
	}
	return nil, nil, nil
}
