package fleet

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// The alarm index: per station its occurring alarms (status 1) and the alarms that started
// within keepAlarms, whatever their status. It is read from the database with the rest of
// the state and kept by the alarm changes the alarm engine and the deal call report after
// their commits (ApplyAlarms); replicas pass them on the bus (Replicate).

// AlarmChangeKind says what a committed alarm change did.
type AlarmChangeKind int8

// Alarm changes.
const (
	AlarmOpened    AlarmChangeKind = iota + 1 // inserted occurring (status 1)
	AlarmRecovered                            // status 2: final
	AlarmDealt                                // deal_status 1: final
)

// AlarmChange is one committed change of one alarm.
type AlarmChange struct {
	Kind        AlarmChangeKind
	ID          int64
	Station     int64  // the alarm's station_id
	Start       int64  // start_at, unix ms
	Description string // an opened alarm's (English) description
}

const (
	// keepAlarms: alarms that started this recently are kept whatever their status (the
	// project ranking counts those of the last 24 hours); reads of an older start go to SQL.
	keepAlarms = 48 * time.Hour
	// keepFinal: a recovery or a deal heard is remembered this long, even once its alarm
	// is otherwise too old to keep, so that an opening heard after it (changes of two
	// replicas crossing on the bus) or a build that read the row before it cannot undo it.
	keepFinal = time.Hour
)

// alarmEntry is an alarm as the index knows it. The flags only ever become true: a
// change merges into the entry whatever the order in which changes arrive.
type alarmEntry struct {
	id, station, start       int64
	desc                     string
	opened, recovered, dealt bool
	final                    int64 // when a recovery or a deal was last heard (unix ms), 0 none
}

func (a *alarmEntry) occurring() bool { return a.opened && !a.recovered }

// later says a is the later alarm: by start, then id (the order of the SQL answers).
func (a *alarmEntry) later(b *alarmEntry) bool {
	return b == nil || a.start > b.start || a.start == b.start && a.id > b.id
}

// stationAlarms is a station's kept alarms, with its occurring count and latest occurring
// alarm computed when they change.
type stationAlarms struct {
	entries map[int64]*alarmEntry
	open    int
	latest  *alarmEntry
	// starts are the entries' starts in order, and dealtFrom[i] how many of the entries
	// from the i-th on are dealt with (one more place than starts): counting those that
	// started since an instant is a search, not a visit of every entry
	starts    []int64
	dealtFrom []int
}

// recount works out what is read of the entries; call it after they change.
func (sa *stationAlarms) recount() {
	sa.open, sa.latest = 0, nil
	sa.starts = sa.starts[:0]
	byStart := make([]*alarmEntry, 0, len(sa.entries))
	for _, a := range sa.entries {
		if a.occurring() {
			sa.open++
			if a.later(sa.latest) {
				sa.latest = a
			}
		}
		byStart = append(byStart, a)
	}
	sort.Slice(byStart, func(i, j int) bool { return byStart[i].start < byStart[j].start })
	sa.dealtFrom = make([]int, len(byStart)+1)
	for i := len(byStart) - 1; i >= 0; i-- {
		sa.dealtFrom[i] = sa.dealtFrom[i+1]
		if byStart[i].dealt {
			sa.dealtFrom[i]++
		}
	}
	for _, a := range byStart {
		sa.starts = append(sa.starts, a.start)
	}
}

// since counts the entries started at or after sinceMs, and the dealt ones among them,
// and gives the first of their starts (when total > 0).
func (sa *stationAlarms) since(sinceMs int64) (total, dealt int, first int64) {
	i := sort.Search(len(sa.starts), func(i int) bool { return sa.starts[i] >= sinceMs })
	if i < len(sa.starts) {
		first = sa.starts[i]
	}
	return len(sa.starts) - i, sa.dealtFrom[i], first
}

// alarmIndex is the state's alarms. wmu orders the changes and the builds (a build holds
// it from its read to its swap, so a change committed after the read is applied after the
// swap); mu guards the maps for the readers.
type alarmIndex struct {
	wmu   sync.Mutex
	mu    sync.RWMutex
	built bool
	byID  map[int64]*alarmEntry
	st    map[int64]*stationAlarms
	gen   atomic.Uint64 // moves with every change of the index (AlarmsVersion)
	j     journal       // the stations whose alarms changed, in order (journal.go)
	loads uint64        // reads of the whole index
}

// AlarmsVersion is a number that changes whenever the occurring alarms or the alarm
// counts kept may have: a reader keeping something computed from them computes it again.
func (s *State) AlarmsVersion() uint64 { return s.alarms.gen.Load() }

func (x *alarmIndex) station(id int64) *stationAlarms {
	sa := x.st[id]
	if sa == nil {
		sa = &stationAlarms{entries: map[int64]*alarmEntry{}}
		x.st[id] = sa
	}
	return sa
}

// merge takes one change into the index (mu held for writing) and returns the station
// whose counts must be recomputed.
func (x *alarmIndex) merge(c *AlarmChange, nowMs int64) *stationAlarms {
	a := x.byID[c.ID]
	if a == nil {
		if c.Kind == AlarmDealt && c.Start < nowMs-keepAlarms.Milliseconds() {
			return nil // a deal of an old alarm the index does not keep: no answer reads it
		}
		a = &alarmEntry{id: c.ID, station: c.Station, start: c.Start}
		x.byID[c.ID] = a
		x.station(c.Station).entries[c.ID] = a
	}
	switch c.Kind {
	case AlarmOpened:
		a.opened = true
		if !a.recovered { // a recovered alarm's text is never read
			a.desc = c.Description
		}
	case AlarmRecovered:
		a.recovered, a.final, a.desc = true, nowMs, ""
	case AlarmDealt:
		a.dealt, a.final = true, nowMs
	}
	return x.st[a.station]
}

// ApplyAlarms takes alarm changes this process committed to the database (call it after
// the commit) and, with Replicate, publishes them to the other replicas. Before the first
// build they are left to the build.
func (s *State) ApplyAlarms(cs []AlarmChange) {
	if len(cs) == 0 {
		return
	}
	s.applyAlarms(cs)
	if pub := s.alarmPub.Load(); pub != nil {
		(*pub)(cs)
	}
}

// applyAlarms merges committed changes into the index.
func (s *State) applyAlarms(cs []AlarmChange) {
	if len(cs) == 0 {
		return // a message with no alarm change (another replica's beat): nothing kept on the version moves
	}
	x := &s.alarms
	x.wmu.Lock()
	defer x.wmu.Unlock()
	nowMs := s.now().UnixMilli()
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.built {
		return
	}
	for i := range cs {
		if sa := x.merge(&cs[i], nowMs); sa != nil {
			sa.recount()
		}
		if a := x.byID[cs[i].ID]; a != nil {
			x.j.add(a.station)
		}
	}
	x.gen.Add(1) // under the lock: a reader of the new number reads the new index
}

// ReloadAlarms reads the alarm index from the database again (after writes to alarms that
// report no changes, such as the demo's dealt history).
func (s *State) ReloadAlarms(ctx context.Context) error { return s.loadAlarms(ctx) }

// loadAlarms reads the occurring alarms and those started within keepAlarms of every
// station: an alarms_station_status and an alarms_station_start range per station.
func (s *State) loadAlarms(ctx context.Context) error {
	x := &s.alarms
	x.wmu.Lock()
	defer x.wmu.Unlock()
	now := s.now()
	nowMs := now.UnixMilli()
	stIDs, err := store.IDs(ctx, s.db, "SELECT id FROM stations")
	if err != nil {
		return err
	}
	byID := map[int64]*alarmEntry{}
	for _, chunk := range chunks(stIDs, 400) {
		ph, args := placeholders(len(chunk)), int64Args(chunk)
		rows, err := s.db.Query(ctx, alarmsQuery(ph), append(append(args, args...), now.Add(-keepAlarms).UnixMilli())...)
		if err != nil {
			return err
		}
		for rows.Next() {
			a := &alarmEntry{}
			var status, deal int
			if err := rows.Scan(&a.id, &a.station, &a.start, &a.desc, &status, &deal); err != nil {
				rows.Close()
				return err
			}
			a.opened, a.recovered, a.dealt = true, status != 1, deal == 1
			byID[a.id] = a
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	// what was heard to be final stays so (a row read before its recovery or deal)
	for id, old := range x.byID {
		if old.final < nowMs-keepFinal.Milliseconds() {
			continue
		}
		a := byID[id]
		if a == nil {
			a = &alarmEntry{id: id, station: old.station, start: old.start}
			byID[id] = a
		}
		if old.recovered {
			a.recovered, a.desc = true, ""
		}
		a.dealt = a.dealt || old.dealt
		a.final = old.final
	}
	x.byID, x.st, x.built = byID, map[int64]*stationAlarms{}, true
	for _, a := range byID {
		x.station(a.station).entries[a.id] = a
	}
	for _, sa := range x.st {
		sa.recount()
	}
	x.loads++
	reads.Inc("alarms")
	x.gen.Add(1)
	return nil
}

// alarmsQuery reads the occurring alarms of the stations named by ph (twice), then their
// other alarms started since the last argument.
func alarmsQuery(ph string) string {
	return "SELECT id, station_id, start_at, description, status, deal_status FROM alarms WHERE station_id IN (" + ph +
		") AND status = 1 UNION ALL SELECT id, station_id, start_at, '', status, deal_status FROM alarms WHERE station_id IN (" + ph +
		") AND start_at >= ? AND status <> 1"
}

// trimAlarms drops the alarms no read needs any more: not occurring, started before
// keepAlarms, with no recovery or deal heard within keepFinal; and those of stations
// that are gone (exists says which are not).
func (s *State) trimAlarms(now time.Time, exists func(station int64) bool) {
	x := &s.alarms
	x.wmu.Lock()
	defer x.wmu.Unlock()
	cut, finalCut := now.Add(-keepAlarms).UnixMilli(), now.Add(-keepFinal).UnixMilli()
	x.mu.Lock()
	defer x.mu.Unlock()
	for id, sa := range x.st {
		gone := exists != nil && !exists(id)
		dropped := false
		for aid, a := range sa.entries {
			if gone || !a.occurring() && a.start < cut && a.final < finalCut {
				delete(sa.entries, aid)
				delete(x.byID, aid)
				dropped = true
			}
		}
		if len(sa.entries) == 0 {
			delete(x.st, id)
		} else if dropped {
			sa.recount()
		}
		if dropped {
			x.j.add(id)
		}
	}
	x.gen.Add(1)
}
