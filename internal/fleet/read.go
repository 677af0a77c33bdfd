package fleet

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The reads: each takes the ids the caller may see (already filtered by station
// authority) and reads only their entries.

// Totals returns each station's flows today, this month, this year and in all, by its
// own calendar (sub-stations included); stations that do not exist are absent.
func (s *State) Totals(ctx context.Context, ids []int64) (map[int64]telemetry.Totals, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]telemetry.Totals, len(ids))
	for _, id := range ids {
		info := s.stations[id]
		if info == nil {
			continue
		}
		var t telemetry.Totals
		if f := s.st[id]; f != nil {
			ds, _ := info.cal.Day(now)
			ms, _ := info.cal.Month(now)
			ys, _ := info.cal.Year(now)
			if p := f.days[ds]; p != nil {
				t.Today = p.Flows
			}
			if p := f.months[ms]; p != nil {
				t.Month = p.Flows
			}
			if p := f.years[ys]; p != nil {
				t.Year = p.Flows
			}
			t.Total = f.total
		}
		t.Total.Sum(info.opening) // lifetime: opening counters and what was recorded since
		out[id] = t
	}
	return out, nil
}

// Openings returns each existing station's opening counters: those of the devices it
// counts (its own and its sub-stations'), the energy before the recorded history.
func (s *State) Openings(ctx context.Context, ids []int64) (map[int64]telemetry.Flows, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]telemetry.Flows, len(ids))
	for _, id := range ids {
		if info := s.stations[id]; info != nil && info.opening != (telemetry.Flows{}) {
			out[id] = info.opening
		}
	}
	return out, nil
}

// Previous is a station's PV energy of the last whole day, month and year, and the
// reference energy of that day.
type Previous struct {
	DayPV, MonthPV, YearPV float64
	DayRefKWh              float64
}

// Previous returns each existing station's previous periods at now.
func (s *State) Previous(ctx context.Context, ids []int64) (map[int64]Previous, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]Previous, len(ids))
	for _, id := range ids {
		info := s.stations[id]
		if info == nil {
			continue
		}
		var p Previous
		if f := s.st[id]; f != nil {
			ds, _ := info.cal.Day(now)
			ms, _ := info.cal.Month(now)
			ys, _ := info.cal.Year(now)
			pd, _ := info.cal.Day(ds - 1)
			pm, _ := info.cal.Month(ms - 1)
			py, _ := info.cal.Year(ys - 1)
			if x := f.days[pd]; x != nil {
				p.DayPV, p.DayRefKWh = x.PVKWh, x.RefKWh
			}
			if x := f.months[pm]; x != nil {
				p.MonthPV = x.PVKWh
			}
			if x := f.years[py]; x != nil {
				p.YearPV = x.PVKWh
			}
		}
		out[id] = p
	}
	return out, nil
}

// Latest returns the last sample of each device that has reported.
func (s *State) Latest(ctx context.Context, ids []int64) (map[int64]telemetry.Sample, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]telemetry.Sample, len(ids))
	for _, id := range ids {
		if d := s.dev[id]; d != nil && d.hasLatest {
			out[id] = d.latest
		}
	}
	return out, nil
}

// Energy is a device's energy today (its station's local day) and in all, unrounded.
type Energy struct{ TodayKWh, TotalKWh float64 }

// DeviceEnergy returns the energy of each device that has roll-ups.
func (s *State) DeviceEnergy(ctx context.Context, ids []int64) (map[int64]Energy, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]Energy, len(ids))
	for _, id := range ids {
		d, info := s.dev[id], s.devices[id]
		var opening float64
		if info != nil {
			opening = info.opening
		}
		if opening == 0 && (d == nil || (len(d.days) == 0 && d.total == 0)) {
			continue
		}
		if d == nil {
			d = newDeviceFig()
		}
		cal := telemetry.CalendarFor("UTC")
		if info != nil {
			if st := s.stations[info.station]; st != nil {
				cal = st.cal
			}
		}
		today, _ := cal.Day(now) // the start of the day roll-up being written
		out[id] = Energy{TotalKWh: d.total + opening, TodayKWh: d.dayKWh(today)}
	}
	return out, nil
}

// Member is a device counted towards a listed station.
type Member struct {
	ID, StationID, TopID int64
	Type, MeterPosition  string
}

// DevicesUnder lists the devices of the stations and of their sub-stations; TopID is the
// listed station a device counts towards (a device appears once per listed station it
// counts towards).
func (s *State) DevicesUnder(ctx context.Context, ids []int64) ([]Member, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Member
	add := func(top int64, st *stationInfo) {
		for _, d := range st.devs {
			out = append(out, Member{ID: d.id, StationID: d.station, TopID: top, Type: d.typ, MeterPosition: d.meterPos})
		}
	}
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		add(id, st)
		for _, c := range st.kids {
			add(id, c)
		}
	}
	return out, nil
}

// EachOf calls fn for every device whose own station is one of ids (the stations' order,
// then each station's devices') with its latest sample (nil when it has none), reading
// the entries in place: fn runs under the state's read lock and must not call the state,
// nor keep the sample. The tallies (tally.go) count the same devices once and keep it.
func (s *State) EachOf(ctx context.Context, ids []int64, fn func(m *Member, latest *telemetry.Sample)) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var m Member
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		for _, d := range st.devs {
			m = Member{ID: d.id, StationID: d.station, TopID: id, Type: d.typ, MeterPosition: d.meterPos}
			if f := d.fig; f != nil && f.hasLatest {
				fn(&m, &f.latest)
			} else {
				fn(&m, nil)
			}
		}
	}
	return nil
}

// FirstDays returns the start of each station's first day roll-up (stations without
// history are absent).
func (s *State) FirstDays(ctx context.Context, ids []int64) (map[int64]int64, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]int64, len(ids))
	for _, id := range ids {
		if f := s.st[id]; f != nil && f.hasFirst && s.stations[id] != nil {
			out[id] = f.firstDay
		}
	}
	return out, nil
}

// CurveCutoff is telemetry.Reader's cutoff of a station's day curve of kind ("inverter",
// "meter:grid", …) from the latest samples kept: the end of the part of the day [start,
// end) every reporting top-level device of that kind, of the station and its
// sub-stations, has covered (telemetry.Cutoff).
func (s *State) CurveCutoff(ctx context.Context, stationID int64, kind string, start, end int64) (int64, bool, error) {
	if err := s.ensure(ctx); err != nil {
		return 0, false, err
	}
	typ, pos, _ := strings.Cut(kind, ":")
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stations[stationID]
	if st == nil {
		return 0, false, nil
	}
	var ts []int64
	newest := int64(math.MinInt64)
	each := func(x *stationInfo) {
		for _, d := range x.devs {
			if !d.top || d.typ != typ || (pos != "" && d.meterPos != pos) {
				continue
			}
			if f := s.dev[d.id]; f != nil && f.hasLatest {
				if t := f.latest.Time.UnixMilli(); t >= start {
					ts = append(ts, t)
					newest = max(newest, t)
				}
			}
		}
	}
	each(st)
	for _, c := range st.kids {
		each(c)
	}
	return telemetry.CutoffOf(ts, newest, end), true, nil
}

// DeviceFigures is what the device list shows of a device, read in place: its row (with
// its station's name), its latest sample (nil: it never reported) and its energy today
// (its station's local day) and in all, unrounded, as Latest and DeviceEnergy give them.
type DeviceFigures struct {
	Row                *device.Device
	Latest             *telemetry.Sample
	TodayKWh, TotalKWh float64
}

// EachDevice calls fn for every device whose own station is one of ids (a station named
// twice counts once) with its figures, read in place: fn runs under the state's read lock
// and must not call the state, nor keep x or its sample. The sorted device list ranks a
// fleet on it without a map or a copy per device.
func (s *State) EachDevice(ctx context.Context, ids []int64, fn func(x *DeviceFigures)) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	now := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	var seen map[int64]bool
	if len(ids) > 16 {
		seen = make(map[int64]bool, len(ids))
	}
	var x DeviceFigures
	for i, id := range ids {
		st := s.stations[id]
		if st == nil || (seen == nil && slices.Contains(ids[:i], id)) || seen[id] {
			continue
		}
		if seen != nil {
			seen[id] = true
		}
		today, _ := st.cal.Day(now) // the start of the day roll-up being written
		for _, d := range st.devs {
			x = DeviceFigures{Row: d.row, TotalKWh: d.opening}
			if f := d.fig; f != nil {
				if f.hasLatest {
					x.Latest = &f.latest
				}
				x.TodayKWh, x.TotalKWh = f.dayKWh(today), f.total+d.opening
			}
			fn(&x)
		}
	}
	return nil
}
