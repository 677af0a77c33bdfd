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
	now := s.now()
	switch res {
	case telemetry.Hour:
		if from.Before(now.Add(-keepHours + time.Hour)) {
			return nil, false, nil
		}
	case telemetry.Day:
		if from.Before(now.Add(-keepDays + time.Hour)) {
			return nil, false, nil
		}
	case telemetry.Month:
		if from.Before(now.Add(-keepMonths + time.Hour)) {
			return nil, false, nil
		}
	case telemetry.Year:
	default:
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
		var kept map[int64]*period
		if f := s.st[id]; f != nil {
			switch res {
			case telemetry.Hour:
				kept = f.hours
			case telemetry.Day:
				kept = f.days
			case telemetry.Month:
				kept = f.months
			default:
				kept = f.years
			}
		}
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
