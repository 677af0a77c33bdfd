package fleet

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// alarmRig is a fleet of stations and sub-stations whose alarms are written as the alarm
// engine and the deal call write them, each change reported after its commit.
type alarmRig struct {
	db       *store.DB
	clock    atomic.Int64
	org      int64
	stations []int64         // every station that exists, top ones and sub-stations
	parent   map[int64]int64 // sub-station → its station
	open     []alarmRow      // occurring alarms
	closed   []alarmRow      // recovered alarms
}

type alarmRow struct{ id, station, start int64 }

func (r *alarmRig) now() time.Time { return time.UnixMilli(r.clock.Load()).UTC() }

func newAlarmRig(t *testing.T, db *store.DB) *alarmRig {
	r := &alarmRig{db: db, parent: map[int64]int64{}}
	r.clock.Store(time.Now().UTC().Truncate(time.Minute).UnixMilli())
	r.org = insert(t, db, "INSERT INTO organizations (name, created_at) VALUES ('Alarms', 0)")
	for i := range 6 {
		top := r.addStation(t, 0, fmt.Sprintf("T%d", i))
		for j := range i % 3 {
			r.addStation(t, top, fmt.Sprintf("T%d-%d", i, j))
		}
	}
	return r
}

func (r *alarmRig) addStation(t *testing.T, parent int64, name string) int64 {
	var p any
	if parent != 0 {
		p = parent
	}
	id := insert(t, r.db, `INSERT INTO stations (org_id, parent_id, name, timezone, created_at, updated_at)
		VALUES (?, ?, ?, 'UTC', 0, 0)`, r.org, p, name)
	r.stations = append(r.stations, id)
	if parent != 0 {
		r.parent[id] = parent
	}
	return id
}

// step makes one random change: an alarm opened (sometimes started days ago, sometimes
// with the start of another), recovered or dealt, a station deleted or added, or time
// passing; the changes go to every state in sts (the states a process and its replicas
// would hear them in).
func (r *alarmRig) step(t *testing.T, rng *rand.Rand, report func([]AlarmChange), trim func()) {
	ctx := context.Background()
	nowMs := r.clock.Load()
	switch k := rng.IntN(20); {
	case k < 8: // opened
		st := r.stations[rng.IntN(len(r.stations))]
		start := nowMs - rng.Int64N(int64(4*24*time.Hour/time.Millisecond))
		if len(r.open) > 0 && rng.IntN(4) == 0 {
			start = r.open[rng.IntN(len(r.open))].start // a tie, broken by id
		}
		desc := fmt.Sprintf("alarm %d", rng.IntN(1000))
		id := insert(t, r.db, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, deal_status, description,
			start_at, occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, 1, 0, ?, ?, ?, ?, ?)`, r.org, st, desc, start, nowMs, nowMs, nowMs)
		r.open = append(r.open, alarmRow{id, st, start})
		report([]AlarmChange{{Kind: AlarmOpened, ID: id, Station: st, Start: start, Description: desc}})
	case k < 13 && len(r.open) > 0: // recovered
		i := rng.IntN(len(r.open))
		a := r.open[i]
		if _, err := r.db.Exec(ctx, "UPDATE alarms SET status = 2, recovered_at = ? WHERE id = ?", nowMs, a.id); err != nil {
			t.Fatal(err)
		}
		r.open = append(r.open[:i], r.open[i+1:]...)
		r.closed = append(r.closed, a)
		report([]AlarmChange{{Kind: AlarmRecovered, ID: a.id, Station: a.station, Start: a.start}})
	case k < 16 && len(r.open)+len(r.closed) > 0: // dealt (again, sometimes)
		all := append(append([]alarmRow{}, r.open...), r.closed...)
		a := all[rng.IntN(len(all))]
		if _, err := r.db.Exec(ctx, "UPDATE alarms SET deal_status = 1, dealt_at = ? WHERE id = ?", nowMs, a.id); err != nil {
			t.Fatal(err)
		}
		report([]AlarmChange{{Kind: AlarmDealt, ID: a.id, Station: a.station, Start: a.start}})
	case k == 16 && len(r.stations) > 4: // a station deleted (its alarms with it)
		st := r.stations[rng.IntN(len(r.stations))]
		for _, other := range r.stations {
			if r.parent[other] == st {
				return // a station with sub-stations stays
			}
		}
		if _, err := r.db.Exec(ctx, "DELETE FROM stations WHERE id = ?", st); err != nil {
			t.Fatal(err)
		}
		keep := func(xs []alarmRow) []alarmRow {
			out := xs[:0]
			for _, a := range xs {
				if a.station != st {
					out = append(out, a)
				}
			}
			return out
		}
		r.open, r.closed = keep(r.open), keep(r.closed)
		for i, id := range r.stations {
			if id == st {
				r.stations = append(r.stations[:i], r.stations[i+1:]...)
				break
			}
		}
		delete(r.parent, st)
	case k == 17: // a sub-station added
		r.addStation(t, r.stations[0], fmt.Sprintf("N%d", rng.IntN(1e6)))
	default: // time passes
		r.clock.Add(rng.Int64N(int64(6 * time.Hour / time.Millisecond)))
		trim()
	}
}

// sqlOccurring is the occurring alarms' answer read from the tables: per station the
// latest (by start, then id) of its own and its sub-stations' occurring alarms.
func sqlOccurring(t *testing.T, db *store.DB, ids []int64) map[int64]string {
	out := map[int64]string{}
	for _, id := range ids {
		var desc string
		err := db.QueryRow(context.Background(), `SELECT a.description FROM alarms a JOIN stations s ON s.id = a.station_id
			WHERE a.status = 1 AND (s.id = ? OR s.parent_id = ?) ORDER BY a.start_at DESC, a.id DESC LIMIT 1`, id, id).Scan(&desc)
		if err == nil {
			out[id] = desc
		} else if !strings.Contains(err.Error(), "no rows") {
			t.Fatal(err)
		}
	}
	return out
}

// sqlCounts counts per station its own and its sub-stations' alarms started since.
func sqlCounts(t *testing.T, db *store.DB, ids []int64, since int64) map[int64]AlarmCount {
	out := map[int64]AlarmCount{}
	for _, id := range ids {
		var c AlarmCount
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*), COALESCE(SUM(a.deal_status), 0), COALESCE(MIN(a.start_at), 0) FROM alarms a
			JOIN stations s ON s.id = a.station_id WHERE (s.id = ? OR s.parent_id = ?) AND a.start_at >= ?`, id, id, since).Scan(&c.Total, &c.Dealt, &c.First); err != nil {
			t.Fatal(err)
		}
		if c.Total > 0 {
			out[id] = c
		}
	}
	return out
}

// checkAlarms compares a state's alarm answers with the tables' for every station (and
// one that does not exist), for several instants since.
func checkAlarms(t *testing.T, r *alarmRig, s *State, when string) {
	t.Helper()
	ctx := context.Background()
	ids := append(append([]int64{}, r.stations...), 1<<40)
	got, err := s.Occurring(ctx, ids, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := sqlOccurring(t, r.db, ids); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: occurring alarms\nstate %v\nSQL   %v", when, got, want)
	}
	flags, err := s.Occurring(ctx, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(flags) != len(got) {
		t.Fatalf("%s: %d stations flagged, %d with texts", when, len(flags), len(got))
	}
	for id, text := range flags {
		if _, ok := got[id]; !ok || text != "" {
			t.Fatalf("%s: station %d flagged %q", when, id, text)
		}
	}
	for _, back := range []time.Duration{0, time.Hour, 24 * time.Hour, 47 * time.Hour} {
		since := r.now().Add(-back)
		counts, ok, err := s.AlarmCounts(ctx, ids, since)
		if err != nil || !ok {
			t.Fatalf("%s: counts since %v ago: %v %v", when, back, ok, err)
		}
		if want := sqlCounts(t, r.db, ids, since.UnixMilli()); fmt.Sprint(counts) != fmt.Sprint(want) {
			t.Fatalf("%s: alarms since %v ago\nstate %v\nSQL   %v", when, back, counts, want)
		}
	}
	if _, ok, _ := s.AlarmCounts(ctx, ids, r.now().Add(-keepAlarms-time.Minute)); ok {
		t.Fatalf("%s: counts beyond the kept window answered from memory", when)
	}
}

// Random alarm openings, recoveries, deals, station deletions and additions and time
// passing, on both databases: the state's occurring alarms and counts equal the tables',
// as kept by the changes, after a rebuild, and in a second state that hears every change
// late, out of order and some twice (as a replica may).
func TestAlarmsAnswerAsSQL(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newAlarmRig(t, db)
		ctx := context.Background()
		s := New(db, telemetry.NewWriter(db, telemetry.Options{Now: r.now}), r.now)
		late := New(db, telemetry.NewWriter(db, telemetry.Options{Now: r.now}), r.now)
		for _, x := range []*State{s, late} {
			if err := x.Build(ctx); err != nil {
				t.Fatal(err)
			}
		}
		rng := rand.New(rand.NewPCG(7, 11))
		var held []AlarmChange
		report := func(cs []AlarmChange) {
			s.ApplyAlarms(cs)
			held = append(held, cs...)
			if rng.IntN(3) == 0 { // the late state hears a shuffled batch, some changes twice
				rng.Shuffle(len(held), func(i, j int) { held[i], held[j] = held[j], held[i] })
				late.applyAlarms(append(held, held[:len(held)/3]...))
				held = held[:0]
			}
		}
		trim := func() {
			s.Trim()
			late.Trim()
		}
		for i := range 400 {
			n := len(r.stations)
			r.step(t, rng, report, trim)
			if len(r.stations) != n {
				s.Changed()
				late.Changed()
			}
			if i%20 == 19 {
				checkAlarms(t, r, s, fmt.Sprintf("step %d", i))
				late.applyAlarms(held)
				held = held[:0]
				checkAlarms(t, r, late, fmt.Sprintf("step %d, changes heard late", i))
			}
		}
		if err := s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		checkAlarms(t, r, s, "after a rebuild")
		if len(r.open) == 0 || len(r.closed) == 0 {
			t.Fatalf("the run left %d occurring and %d recovered alarms: not a test of both", len(r.open), len(r.closed))
		}
	})
}

// A recovery heard before the opening it follows (two replicas' changes crossing), and a
// build that read the alarm before its recovery, leave it recovered.
func TestAlarmRecoveryIsFinal(t *testing.T) {
	db := storetest.SQLite(t)
	r := newAlarmRig(t, db)
	s := New(db, telemetry.NewWriter(db, telemetry.Options{Now: r.now}), r.now)
	ctx := context.Background()
	if err := s.Build(ctx); err != nil {
		t.Fatal(err)
	}
	st := r.stations[0]
	open := AlarmChange{Kind: AlarmOpened, ID: 1 << 30, Station: st, Start: r.clock.Load(), Description: "crossed"}
	rec := open
	rec.Kind, rec.Description = AlarmRecovered, ""
	s.applyAlarms([]AlarmChange{rec, open})
	if got, _ := s.Occurring(ctx, []int64{st}, true); len(got) != 0 {
		t.Fatalf("an opening heard after its recovery shows: %v", got)
	}
	// the same for an alarm started days ago, with the ticker's trim between the two
	old := AlarmChange{Kind: AlarmRecovered, ID: 1<<30 + 1, Station: st, Start: r.clock.Load() - (72 * time.Hour).Milliseconds()}
	s.applyAlarms([]AlarmChange{old})
	s.Trim()
	old.Kind, old.Description = AlarmOpened, "crossed, old"
	s.applyAlarms([]AlarmChange{old})
	if got, _ := s.Occurring(ctx, []int64{st}, true); len(got) != 0 {
		t.Fatalf("an old alarm's opening heard after its recovery and a trim shows: %v", got)
	}
	// the row as a build read it before the recovery committed
	id := insert(t, db, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, description,
		start_at, occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, 1, 'read early', ?, 0, 0, 0)`, r.org, st, r.clock.Load())
	s.applyAlarms([]AlarmChange{{Kind: AlarmRecovered, ID: id, Station: st, Start: r.clock.Load()}})
	if err := s.loadAlarms(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Occurring(ctx, []int64{st}, true); len(got) != 0 {
		t.Fatalf("a build undid a recovery heard: %v", got)
	}
	ids := make([]int64, 0, len(s.alarms.byID))
	for id := range s.alarms.byID {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	// an hour later the marks are gone; the alarms started recently stay, counted
	r.clock.Add((keepFinal + time.Minute).Milliseconds())
	s.Trim()
	if c, ok, _ := s.AlarmCounts(ctx, []int64{st}, r.now().Add(-2*time.Hour)); !ok || c[st].Total != 2 {
		t.Fatalf("counts after the trim: %v %v (kept %v)", c, ok, ids)
	}
}
