package fleet

import (
	"context"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Taking a change of the write path into the figures, and the ticker that trims days and
// months too old to be read and re-reads a changed membership.

// apply takes one committed change of this process.
func (s *State) apply(c telemetry.Change) { s.take(c, false) }

// take takes one committed change, of this process or (remote) of another replica.
func (s *State) take(c telemetry.Change, remote bool) {
	if c.Reload {
		if err := s.Build(context.Background()); err != nil {
			slog.Error("fleet state rebuild failed", "err", err)
			s.mu.Lock()
			s.built = false // rebuilt on next use
			s.mu.Unlock()
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != nil {
		s.pending.keep(c, remote) // for the state being built
	}
	if !s.built {
		return // the build reads it, or keeps it
	}
	s.applyLocked(c)
}

// applyLocked applies a change to the built state; s.mu is held.
func (s *State) applyLocked(c telemetry.Change) {
	for _, l := range c.Latest {
		d := s.figOf(l.DeviceID)
		if !d.hasLatest || !l.Time.Before(d.latest.Time) {
			d.latest, d.hasLatest = l, true
			if info := s.devices[l.DeviceID]; info != nil {
				if st := s.stations[info.station]; st != nil {
					st.tally.Store(nil) // its tally is counted again
					s.touch(st)
				}
			}
		}
	}
	for i := range c.Days {
		ch := &c.Days[i]
		if ch.Kind == "" {
			d := s.figOf(ch.ID)
			d.addDay(ch.Start, ch.Delta.EnergyKWh)
			d.total += ch.Delta.EnergyKWh
			if info := s.devices[ch.ID]; info != nil {
				s.touch(s.stations[info.station])
			}
			continue
		}
		s.touch(s.stations[ch.ID])
		f := s.st[ch.ID]
		if f == nil {
			f = newStationFig()
			f.past = s.pastSeq.Add(1)
			s.st[ch.ID] = f
		}
		if info := s.stations[ch.ID]; info == nil || ch.Start < dayStart(info.cal, s.now().UnixMilli()) {
			f.past = s.pastSeq.Add(1) // a day before today changed: compared stretches read it
		}
		if !f.hasFirst || ch.Start < f.firstDay {
			f.firstDay, f.hasFirst = ch.Start, true
		}
		for _, p := range []*period{at(f.days, ch.Start), at(f.months, ch.Month), at(f.years, ch.Year)} {
			p.add(ch.Kind, &ch.Delta)
		}
		f.total.Add(ch.Kind, &ch.Delta)
		for _, h := range ch.Hours {
			st := telemetry.Stats{EnergyKWh: h.EnergyKWh, Energy2KWh: h.Energy2KWh}
			f.hourAt(h.Start).Flows.Add(ch.Kind, &st)
		}
	}
}

func at(m map[int64]*period, k int64) *period {
	p := m[k]
	if p == nil {
		p = &period{}
		m[k] = p
	}
	return p
}

func (p *period) add(kind string, st *telemetry.Stats) {
	p.Flows.Add(kind, st)
	switch kind {
	case "inverter":
		p.RefKWh += st.RefEnergyKWh
		p.Samples += st.Samples
		p.TempSum += st.TempSum
		p.OnlineMin += st.OnlineMin
		p.FaultMin += st.FaultMin
	case "meter", "meter:grid":
		p.GridMeter = true
	case "meter:load":
		p.LoadMeter = true
	}
}

// Trim drops the days and months too old to be read (the ticker calls it).
func (s *State) Trim() {
	now := s.now()
	dayCut, monthCut := now.Add(-keepDays).UnixMilli(), now.Add(-keepMonths).UnixMilli()
	defer s.trimAlarms(now, nil) // after the figures' lock is released
	s.mu.Lock()
	defer s.mu.Unlock()
	hourCut := now.Add(-keepHours).UnixMilli()
	for _, f := range s.st {
		for k := range f.hours {
			if k < hourCut {
				f.dropHour(k)
			}
		}
		for k := range f.days {
			if k < dayCut {
				delete(f.days, k)
			}
		}
		for k := range f.months {
			if k < monthCut {
				delete(f.months, k)
			}
		}
	}
	devCut := now.Add(-keepDeviceDays).UnixMilli()
	for _, d := range s.dev {
		for k := range d.days {
			if k < devCut {
				delete(d.days, k)
			}
		}
	}
}

// Run trims every interval and re-reads a changed membership until ctx ends.
func (s *State) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.Trim()
		s.mu.RLock()
		stale := s.rebuildEvery > 0 && time.Since(s.builtAt) >= s.rebuildEvery
		s.mu.RUnlock()
		if asked := s.rebuild.Swap(false); asked || stale {
			if err := s.Build(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("fleet state rebuild failed", "err", err)
				if asked {
					s.rebuild.Store(true)
				}
			}
			continue
		}
		if err := s.ensure(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("fleet state refresh failed", "err", err)
		}
	}
}
