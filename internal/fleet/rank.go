package fleet

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Inverter is an inverter in a ranking, with what the ranking shows of it.
type Inverter struct {
	ID, StationID         int64
	Name, SN, StationName string
	KWp                   float64
	TodayKWh              float64 // unrounded, its station's local day
	Latest                telemetry.Sample
	HasLatest             bool
}

// Score is an inverter's place in a ranking from its energy today and its array's kWp:
// higher first on Primary, then on Secondary.
type Score func(todayKWh, kwp float64) (primary, secondary float64)

type ranked struct {
	d                  *deviceInfo
	today              float64
	primary, secondary float64
	nameRank           int
}

// before is the ranking's order: score first, then the order of device.List (station
// name, type, name, id), which a stable sort of that list keeps for ties.
func (a *ranked) before(b *ranked) bool {
	if a.primary != b.primary {
		return a.primary > b.primary
	}
	if a.secondary != b.secondary {
		return a.secondary > b.secondary
	}
	if a.nameRank != b.nameRank {
		return a.nameRank < b.nameRank
	}
	return a.d.rank < b.d.rank
}

// keptRanks is a station's inverters in the ranking's order, for the score named key,
// as they stood at version ver of the station and on its day starting today.
type keptRanks struct {
	ver   uint64
	today int64
	key   string
	list  []ranked
}

// TopInverters returns the n best inverters, by score, of the stations ids (the devices
// whose own station is listed). Each station's inverters are kept in the ranking's order
// (per key, which names score) until one of its samples or roll-ups or its day changes,
// so a call costs a look at each listed station's best inverters, not a visit per
// inverter.
func (s *State) TopInverters(ctx context.Context, ids []int64, n int, key string, score Score) ([]Inverter, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	if n <= 0 {
		return []Inverter{}, nil
	}
	nowMs := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	top := make([]Ranked, 0, n+1)
	for _, id := range ids {
		if st := s.stations[id]; st != nil {
			top = mergeTop(top, s.ranksOf(st, nowMs, key, score).list, n)
		}
	}
	return s.inverters(top), nil
}

// Ranked is an inverter's place in a ranking (TopRanked, RankedInverters).
type Ranked = ranked

// TopRanked calls fn for every listed station (top: its id) with the n best inverters,
// by score, of it and its sub-stations, how many stations that is, and the first instant
// (unix ns) that changes with time alone: one of their days ending. fn runs under the
// state's read lock and must not call the state, nor keep best (it may copy it).
func (s *State) TopRanked(ctx context.Context, ids []int64, n int, key string, score Score, fn func(top int64, best []Ranked, stations int, until int64)) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	nowMs := s.now().UnixMilli()
	s.mu.RLock()
	defer s.mu.RUnlock()
	best := make([]Ranked, 0, n+1)
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		best = best[:0]
		until := int64(math.MaxInt64)
		for _, x := range append([]*stationInfo{st}, st.kids...) {
			best = mergeTop(best, s.ranksOf(x, nowMs, key, score).list, n)
			_, end := x.cal.Day(nowMs)
			until = min(until, time.UnixMilli(end).UnixNano())
		}
		fn(id, best, 1+len(st.kids), until)
	}
	return nil
}

// RankedInverters merges lists, each in the ranking's order, into their n best, as
// inverters.
func (s *State) RankedInverters(lists [][]Ranked, n int) []Inverter {
	top := make([]Ranked, 0, n+1)
	for _, l := range lists {
		top = mergeTop(top, l, n)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.inverters(top)
}

// ranksOf returns a station's inverters in the ranking's order on its day of nowMs, kept
// until the station's version or day changes. s.mu is held.
func (s *State) ranksOf(st *stationInfo, nowMs int64, key string, score Score) *keptRanks {
	today, _ := st.cal.Day(nowMs) // the start of the day roll-up being written
	k := st.ranks.Load()
	if k != nil && k.ver == st.ver && k.today == today && k.key == key {
		return k
	}
	k = &keptRanks{ver: st.ver, today: today, key: key}
	nameRank := s.pick.nameRank[s.pick.pos[st.id]]
	for _, d := range st.devs {
		if d.typ != "inverter" {
			continue
		}
		r := ranked{d: d, nameRank: nameRank}
		if f := d.fig; f != nil {
			r.today = f.dayKWh(today)
		}
		r.primary, r.secondary = score(r.today, d.kwp)
		k.list = append(k.list, r)
	}
	sort.Slice(k.list, func(i, j int) bool { return k.list[i].before(&k.list[j]) })
	st.ranks.Store(k) // readers may compute it at once; each keeps an equal list
	return k
}

// mergeTop adds list (in the ranking's order) into top (the same, at most n long).
func mergeTop(top, list []ranked, n int) []ranked {
	if n <= 0 {
		return top
	}
	for i := range list {
		r := &list[i]
		if len(top) == n && !r.before(&top[n-1]) {
			break // the rest of the list come after it too
		}
		at := len(top)
		for at > 0 && r.before(&top[at-1]) {
			at--
		}
		top = append(top, ranked{})
		copy(top[at+1:], top[at:])
		top[at] = *r
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}

// inverters is top as Inverters. s.mu is held.
func (s *State) inverters(top []ranked) []Inverter {
	out := make([]Inverter, len(top))
	for i, r := range top {
		d := r.d
		inv := Inverter{ID: d.id, StationID: d.station, Name: d.name, SN: d.sn, KWp: d.kwp, TodayKWh: r.today}
		if st := s.byID[d.station]; st != nil {
			inv.StationName = st.Name
		}
		if f := s.dev[d.id]; f != nil && f.hasLatest {
			inv.Latest, inv.HasLatest = f.latest, true
		}
		out[i] = inv
	}
	return out
}
