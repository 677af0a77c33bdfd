package fleet

import "context"

// The changes journal tells a reader keeping a part per station which stations changed
// since it last looked, so that it computes those again and no other: its cost follows
// what changed, not what the fleet holds. Two journals feed it: the figures' (every
// station touch gives a new version, state.go) and the alarm index's (every alarm change
// and drop). Each holds the latest journalSize entries; a reader further behind, or one
// that began before the membership or the alarm index was read again, is told to compute
// everything again.

// journalSize is the entries a journal holds: at 10,000 stations × 20 devices reporting
// every 5 minutes about 2,000 touches a second, so half a minute of changes.
const journalSize = 1 << 16

// journal is a ring of station ids, in the order they changed.
type journal struct {
	ids  []int64
	seq  uint64 // entries ever added
	last int64  // the newest entry (a repeat of it is not added)
}

func (j *journal) add(id int64) {
	if j.seq > 0 && j.last == id {
		return
	}
	if j.ids == nil {
		j.ids = make([]int64, journalSize)
	}
	j.ids[j.seq%journalSize] = id
	j.seq++
	j.last = id
}

// since calls fn with the entries added after the first from; false when some of them
// are no longer held.
func (j *journal) since(from uint64, fn func(id int64)) bool {
	if from > j.seq || j.seq-from > journalSize {
		return false
	}
	for q := from; q < j.seq; q++ {
		fn(j.ids[q%journalSize])
	}
	return true
}

// Mark is a position in the state's changes (ChangedSince). The zero Mark is before any.
type Mark struct {
	gen, figs, alarms, alarmLoads uint64
}

// ChangedSince calls fn with every station whose figures may have changed since m: its
// samples or roll-ups, or its occurring and recent alarms, or those of a sub-station (a
// station is named once per change, so possibly more than once). It returns the
// position now; ok is false when the changes since m cannot be told (m is the zero Mark,
// or the membership or the alarm index was read again, or more changed than the journal
// holds): then every station may have changed. Take the Mark before reading what it
// guards, so that a change in between is named next time.
func (s *State) ChangedSince(ctx context.Context, m Mark, fn func(id int64)) (now Mark, ok bool, err error) {
	if err := s.ensure(ctx); err != nil {
		return Mark{}, false, err
	}
	if err := s.ensureAlarms(ctx); err != nil {
		return Mark{}, false, err
	}
	var alarmed []int64
	x := &s.alarms
	x.mu.RLock()
	now.alarms, now.alarmLoads = x.j.seq, x.loads
	ok = m.alarmLoads == x.loads && x.j.since(m.alarms, func(id int64) { alarmed = append(alarmed, id) })
	x.mu.RUnlock()
	s.mu.RLock()
	defer s.mu.RUnlock()
	now.gen, now.figs = s.structGen, s.j.seq
	if !ok || m.gen != s.structGen || m == (Mark{}) {
		return now, false, nil
	}
	up := func(id int64) {
		fn(id)
		if st := s.stations[id]; st != nil {
			for p, depth := st.up, 0; p != nil && depth < 8; p, depth = p.up, depth+1 {
				fn(p.id)
			}
		}
	}
	for _, id := range alarmed {
		up(id)
	}
	if !s.j.since(m.figs, up) {
		return now, false, nil
	}
	return now, true, nil
}

// FiguresMark is a cheap position in the figures' changes: it moves with every station
// touch (a sample or a roll-up) and every membership read. Equal marks: no figure of any
// device changed in between (time alone may still change what a figure means).
func (s *State) FiguresMark(ctx context.Context) (gen, figs uint64, err error) {
	if err := s.ensure(ctx); err != nil {
		return 0, 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.structGen, s.j.seq, nil
}
