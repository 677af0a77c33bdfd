package fleet

import (
	"context"
	"time"
)

// The alarm reads: each takes the ids the caller may see and reads their entries and
// their sub-stations' (a sub-station's alarms count towards its parent), as the SQL
// answers do (monitor.SQLAlarmStats, alarm.Engine.ActiveByStation).

// Occurring returns, for each station with an occurring alarm of its own or of a
// sub-station, the description of the latest one (by start, then id); with texts false
// the descriptions are left empty.
func (s *State) Occurring(ctx context.Context, ids []int64, texts bool) (map[int64]string, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	if err := s.ensureAlarms(ctx); err != nil {
		return nil, err
	}
	out := map[int64]string{}
	s.mu.RLock()
	defer s.mu.RUnlock()
	x := &s.alarms
	x.mu.RLock()
	defer x.mu.RUnlock()
	for _, id := range ids {
		if s.stations[id] == nil {
			continue
		}
		var best *alarmEntry
		if sa := x.st[id]; sa != nil && sa.open > 0 {
			best = sa.latest
		}
		for _, c := range s.pick.children[id] {
			if sa := x.st[c]; sa != nil && sa.open > 0 && sa.latest.later(best) {
				best = sa.latest
			}
		}
		if best == nil {
			continue
		}
		if texts {
			out[id] = best.desc
		} else {
			out[id] = ""
		}
	}
	return out, nil
}

// AlarmCount is a station's alarms started since an instant, and how many of them were
// dealt.
type AlarmCount struct {
	Total, Dealt int
	// First is the start (unix ms) of the first alarm counted: the count holds, with time
	// alone, while since stays at or before it
	First int64
}

// AlarmCounts counts each station's alarms (its own and its sub-stations') that started
// at or after since. ok is false when since is older than the kept window (keepAlarms):
// the answer is then SQL's to give.
func (s *State) AlarmCounts(ctx context.Context, ids []int64, since time.Time) (out map[int64]AlarmCount, ok bool, err error) {
	if since.Before(s.now().Add(-keepAlarms)) {
		return nil, false, nil
	}
	if err := s.ensure(ctx); err != nil {
		return nil, false, err
	}
	if err := s.ensureAlarms(ctx); err != nil {
		return nil, false, err
	}
	sinceMs := since.UnixMilli()
	out = map[int64]AlarmCount{}
	s.mu.RLock()
	defer s.mu.RUnlock()
	x := &s.alarms
	x.mu.RLock()
	defer x.mu.RUnlock()
	count := func(c *AlarmCount, st int64) {
		sa := x.st[st]
		if sa == nil {
			return
		}
		n, dealt, first := sa.since(sinceMs)
		if n > 0 && (c.Total == 0 || first < c.First) {
			c.First = first
		}
		c.Total += n
		c.Dealt += dealt
	}
	for _, id := range ids {
		if s.stations[id] == nil {
			continue
		}
		var c AlarmCount
		count(&c, id)
		for _, ch := range s.pick.children[id] {
			count(&c, ch)
		}
		if c.Total > 0 {
			out[id] = c
		}
	}
	return out, true, nil
}

// ensureAlarms reads the alarm index unless it is built (a build that failed to read it
// left it unbuilt).
func (s *State) ensureAlarms(ctx context.Context) error {
	s.alarms.mu.RLock()
	built := s.alarms.built
	s.alarms.mu.RUnlock()
	if built {
		return nil
	}
	return s.loadAlarms(ctx)
}
