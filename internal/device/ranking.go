package device

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/telemetry"
)

// A kept ranking is every device of a set of stations in the order of one figure, as the
// list shows it. It is kept while nothing it was made of changes: the fleet state's
// figures and membership (KeptFigures.RankingMark, taken before the figures are read),
// the poller's states, and time (a sample growing old turns its device offline; a
// quarter hour turns some zone's day, so its devices' today). A sorted page then walks
// the ranking and keeps the matches of the filters up to the page's end: the cost of a
// page follows the rows walked, and the ranking is made again after a change, once for
// every caller waiting on it.

// rankRow is a device with the figure it ranks by and what the filters read.
type rankRow struct {
	d     *Device // the fleet state's row: never changed once read (KeptFigures)
	v     float64
	ok    bool   // it has the figure
	state string // as the list shows it when the ranking was made
}

// ranking is one kept ranking.
type ranking struct {
	key      string
	stations []int64

	mu    sync.Mutex // held while it is made
	built bool
	mark  [3]uint64
	until int64     // unix ms: the first instant time alone changes a row
	rows  []rankRow // with the figure by (figure, id) ascending, then the others by id
	nok   int       // how many rows have the figure
}

// rankings are a service's kept rankings, the most recently used last.
type rankings struct {
	mu  sync.Mutex
	all []*ranking
}

// maxRankings bounds the kept rankings (a ranking of 20,000 devices holds about 0.8 MB).
const maxRankings = 8

// entry returns the ranking of key over stations, kept or new (not made yet).
func (rs *rankings) entry(key string, stations []int64) *ranking {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for i, r := range rs.all {
		if r.key == key && slices.Equal(r.stations, stations) {
			rs.all = append(append(rs.all[:i:i], rs.all[i+1:]...), r)
			return r
		}
	}
	r := &ranking{key: key, stations: slices.Clone(stations)}
	if len(rs.all) >= maxRankings {
		rs.all = slices.Delete(rs.all, 0, 1)
	}
	rs.all = append(rs.all, r)
	return r
}

// rankingOf returns the ranking of key over stations: its rows and how many have the
// figure, made again when what it was made of changed. ok false: the fleet is not kept.
func (s *Service) rankingOf(ctx context.Context, kf KeptFigures, key string, stations []int64) (rows []rankRow, nok int, ok bool, err error) {
	r := s.rank.entry(key, stations)
	r.mu.Lock()
	defer r.mu.Unlock()
	mark, ok, err := kf.RankingMark(ctx)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	now := s.now()
	if r.built && r.mark == mark && now.UnixMilli() < r.until {
		return r.rows, r.nok, true, nil
	}
	comms := s.comms()
	until := now.Truncate(15 * time.Minute).Add(15 * time.Minute).UnixMilli()
	var out []rankRow
	if r.built {
		out = make([]rankRow, 0, len(r.rows))
	}
	ok, err = kf.EachDeviceFigures(ctx, stations, func(d *Device, l *telemetry.Sample, e Energy) {
		st, kw := stateAndPower(l, comms[d.ID], now)
		v, has := rankValue(key, d, kw, e)
		out = append(out, rankRow{d: d, v: v, ok: has, state: st})
		if l != nil {
			if t := l.Time.Add(OfflineAfter).UnixMilli() + 1; t > now.UnixMilli() && t < until {
				until = t
			}
		}
	})
	if err != nil || !ok {
		return nil, 0, false, err
	}
	listing.SortBy(out, listing.Sort{Key: key}, func(r *rankRow) (float64, bool) { return r.v, r.ok }, func(r *rankRow) int64 { return r.d.ID })
	nok = 0
	for nok < len(out) && out[nok].ok {
		nok++
	}
	r.built, r.mark, r.until, r.rows, r.nok = true, mark, until, out, nok
	return out, nok, true, nil
}

// rankedPage walks rows (nok of them with the figure) in sort's direction and returns the
// devices of the page (size 0: every match) among the rows f and state keep, and how
// many rows they keep.
func rankedPage(rows []rankRow, nok int, f Filter, state string, sort listing.Sort, page, size int) ([]*Device, int) {
	name := strings.ToLower(f.Name)
	first, last := 0, 0 // the page's matches: [first, last)
	if size > 0 {
		first = (max(page, 1) - 1) * size
		last = first + size
	}
	var out []*Device
	if f.Type == "" && name == "" && state == "" {
		// every row matches: the page is read off the ranking where it stands
		last := len(rows)
		if size > 0 {
			last = min(last, first+size)
		}
		for p := first; p < last; p++ {
			i := p
			if sort.Desc { // the rows with the figure backwards, then the others backwards
				if p < nok {
					i = nok - 1 - p
				} else {
					i = len(rows) - 1 - (p - nok)
				}
			}
			out = append(out, rows[i].d)
		}
		return out, len(rows)
	}
	total := 0
	visit := func(i int) {
		r := &rows[i]
		if state != "" && r.state != state || !keeps(r.d, f.Type, name) {
			return
		}
		if size == 0 || total >= first && total < last {
			out = append(out, r.d)
		}
		total++
	}
	if sort.Desc {
		for i := nok - 1; i >= 0; i-- {
			visit(i)
		}
		for i := len(rows) - 1; i >= nok; i-- {
			visit(i)
		}
	} else {
		for i := range rows {
			visit(i)
		}
	}
	return out, total
}
