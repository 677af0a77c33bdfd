package fleet

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// FlowPoint is one bucket of a station's flows.
type FlowPoint struct {
	Start, End time.Time
	telemetry.Flows
}

// Flows returns, per existing station, every bucket of res (Hour, Day, Month or Year) of its
// calendar that starts in [from, to), zero where nothing was measured, oldest first: the
// flows of telemetry.Reader.StationEnergy. ok is false when the range reaches further
// back than the state keeps (hours: keepHours, days: keepDays, months: keepMonths); the caller then reads
// the roll-ups.
func (s *State) Flows(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]FlowPoint, bool, error) {
	if !s.keeps(res, from) {
		return nil, false, nil
	}
	if err := s.ensure(ctx); err != nil {
		return nil, false, err
	}
	lo, hi := from.UnixMilli(), to.UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64][]FlowPoint, len(ids))
	for _, id := range ids {
		info := s.stations[id]
		if info == nil {
			continue
		}
		kept := s.st[id].at(res)
		var pts []FlowPoint
		for t := lo; t < hi; {
			bs, be := info.cal.Bucket(res, t)
			if bs >= lo {
				p := FlowPoint{Start: time.UnixMilli(bs).UTC(), End: time.UnixMilli(be).UTC()}
				if x := kept[bs]; x != nil {
					p.Flows = x.Flows
				}
				pts = append(pts, p)
			}
			t = be
		}
		out[id] = pts
	}
	return out, true, nil
}

// at is the station's kept buckets of res (Year for any other; none for a nil f).
func (f *stationFig) at(res telemetry.Resolution) map[int64]*period {
	if f == nil {
		return nil
	}
	switch res {
	case telemetry.Hour:
		return f.hours
	case telemetry.Day:
		return f.days
	case telemetry.Month:
		return f.months
	}
	return f.years
}

// keeps says the state keeps the station buckets of res from from on.
func (s *State) keeps(res telemetry.Resolution, from time.Time) bool {
	now := s.now()
	switch res {
	case telemetry.Hour:
		return !from.Before(now.Add(-keepHours + time.Hour))
	case telemetry.Day:
		return !from.Before(now.Add(-keepDays + time.Hour))
	case telemetry.Month:
		return !from.Before(now.Add(-keepMonths + time.Hour))
	case telemetry.Year:
		return true
	}
	return false
}

// EachBucket calls fn for every station of ids (i: its index in ids) and every bucket b
// of starts (bucket starts of res, ascending, on the stations' common calendar) that
// holds a roll-up, with that bucket's flows (sub-stations included). It reads the
// entries in place under the state's read lock: fn must not call the state nor keep the
// flows. A call costs a lookup per station and bucket, and nothing per bucket start
// conversion: the caller works the calendar out once for all the stations of a zone.
// ok is false when the state does not keep starts[0] (the caller reads the roll-ups).
func (s *State) EachBucket(ctx context.Context, ids []int64, res telemetry.Resolution, starts []int64, fn func(i, b int, fl *telemetry.Flows)) (bool, error) {
	if len(starts) == 0 {
		return true, nil
	}
	if !s.keeps(res, time.UnixMilli(starts[0])) {
		return false, nil
	}
	if err := s.ensure(ctx); err != nil {
		return false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i, id := range ids {
		f := s.st[id]
		if f == nil || s.stations[id] == nil {
			continue
		}
		kept := f.at(res)
		if len(kept) == 0 {
			continue
		}
		if res == telemetry.Hour {
			for b, start := range starts {
				if p := f.hour(start); p != nil {
					fn(i, b, &p.Flows)
				}
			}
			continue
		}
		for b, start := range starts {
			if p := kept[start]; p != nil {
				fn(i, b, &p.Flows)
			}
		}
	}
	return true, nil
}

// Figures is what a station's roll-ups of one bucket add up to, for analysis: its flows,
// the inverters' reference energy, samples, temperature sum, online and fault minutes, and
// whether grid or load meters reported.
type Figures struct {
	Start, End time.Time
	telemetry.Flows
	RefKWh               float64
	Samples              int64
	TempSum              float64
	OnlineMin, FaultMin  float64
	GridMeter, LoadMeter bool
}

// Figures returns, per station of ids, its buckets of res (Day or Month) that start in
// [from, to) and hold a roll-up, oldest first: the station roll-ups' figures (sub-stations
// included) without reading them. ok is false when the state does not keep them (another
// resolution, or further back than keepDays or keepMonths); the caller reads the roll-ups.
func (s *State) Figures(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]Figures, bool, error) {
	now := s.now()
	switch res {
	case telemetry.Day:
		if from.Before(now.Add(-keepDays + time.Hour)) {
			return nil, false, nil
		}
	case telemetry.Month:
		if from.Before(now.Add(-keepMonths + time.Hour)) {
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	if err := s.ensure(ctx); err != nil {
		return nil, false, err
	}
	lo, hi := from.UnixMilli(), to.UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64][]Figures, len(ids))
	for _, id := range ids {
		info, f := s.stations[id], s.st[id]
		if info == nil || f == nil {
			continue
		}
		kept := f.days
		if res == telemetry.Month {
			kept = f.months
		}
		var pts []Figures
		for t := lo; t < hi; {
			bs, be := info.cal.Bucket(res, t)
			if x := kept[bs]; x != nil && bs >= lo {
				pts = append(pts, Figures{Start: time.UnixMilli(bs).UTC(), End: time.UnixMilli(be).UTC(), Flows: x.Flows,
					RefKWh: x.RefKWh, Samples: x.Samples, TempSum: x.TempSum, OnlineMin: x.OnlineMin, FaultMin: x.FaultMin,
					GridMeter: x.GridMeter, LoadMeter: x.LoadMeter})
			}
			t = be
		}
		if pts != nil {
			out[id] = pts
		}
	}
	return out, true, nil
}

func dayStart(cal *telemetry.Calendar, t int64) int64 {
	ds, _ := cal.Day(t)
	return ds
}

// Versions fills vers (as long as ids) with a number per station that changes whenever
// a sample or a roll-up of the station or of one of its sub-stations does (0: unknown
// station), and returns the membership's generation, which changes whenever the
// stations and devices are read again: together they tell a reader keeping something
// computed from a station's figures when to compute it again (time aside).
func (s *State) Versions(ctx context.Context, ids []int64, vers []uint64) (gen uint64, err error) {
	if err := s.ensure(ctx); err != nil {
		return 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i, id := range ids {
		vers[i] = 0
		if st := s.stations[id]; st != nil {
			vers[i] = st.ver
		}
	}
	return s.structGen, nil
}

// PastVersions returns, per station of ids, a number that changes whenever one of its
// roll-ups before its current local day changes (0: it has none): what the compared
// stretches of the fleet summary read, which today's samples never change.
func (s *State) PastVersions(ctx context.Context, ids []int64) ([]uint64, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]uint64, len(ids))
	for i, id := range ids {
		if f := s.st[id]; f != nil {
			out[i] = f.past
		}
	}
	return out, nil
}
