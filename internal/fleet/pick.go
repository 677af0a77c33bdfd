package fleet

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// picker finds the stations a caller may see from the entries its authority names — its
// organisation's, its department's and their sub-stations, its department's grants and
// their sub-stations — so a user who sees 3 of 10,000 stations costs about 3 entries.
type picker struct {
	pos      map[int64]int   // place in the list (by name then id)
	nameRank []int           // per place: the place of the first station of that name
	byOrg    map[int64][]int // places of an organisation's stations, in list order
	byDept   map[int64][]int64
	children map[int64][]int64
	// an organisation's stations and, of those, the ones whose parent is not among them
	// (VisibleRoots' answer to a caller who sees the whole organisation), shared
	orgList, orgRoots map[int64][]*station.Station
}

func newPicker(list []*station.Station, grants map[int64]map[int64]bool) *picker {
	p := &picker{pos: make(map[int64]int, len(list)), nameRank: make([]int, len(list)), byOrg: map[int64][]int{},
		byDept: map[int64][]int64{}, children: map[int64][]int64{}}
	for i, st := range list {
		p.pos[st.ID] = i
		p.nameRank[i] = i
		if i > 0 && list[i-1].Name == st.Name {
			p.nameRank[i] = p.nameRank[i-1]
		}
		p.byOrg[st.OrgID] = append(p.byOrg[st.OrgID], i)
		if st.CreatedByDept != 0 {
			p.byDept[st.CreatedByDept] = append(p.byDept[st.CreatedByDept], st.ID)
		}
		if st.ParentID != 0 {
			p.children[st.ParentID] = append(p.children[st.ParentID], st.ID)
		}
	}
	p.orgList, p.orgRoots = map[int64][]*station.Station{}, map[int64][]*station.Station{}
	for org, places := range p.byOrg {
		l := make([]*station.Station, len(places))
		for i, at := range places {
			l[i] = list[at]
		}
		p.orgList[org], p.orgRoots[org] = l, Roots(l)
	}
	return p
}

// Roots are the stations of list whose parent is not in list: their roll-ups cover the
// stations of list exactly once.
func Roots(list []*station.Station) []*station.Station {
	in := make(map[int64]bool, len(list))
	for _, st := range list {
		in[st.ID] = true
	}
	var out []*station.Station
	for _, st := range list {
		if st.ParentID == 0 || !in[st.ParentID] {
			out = append(out, st)
		}
	}
	return out
}

// VisibleRoots is Visible and, of those, Roots. For a caller who sees the whole
// organisation both are lists kept with the membership and shared: the caller must not
// change them.
func (s *State) VisibleRoots(ctx context.Context, p *httpapi.Principal) (list, roots []*station.Station, err error) {
	if p.StationAuthority == "all" {
		if err := s.ensure(ctx); err != nil {
			return nil, nil, err
		}
		s.mu.RLock()
		defer s.mu.RUnlock()
		return s.pick.orgList[p.OrgID], s.pick.orgRoots[p.OrgID], nil
	}
	list, err = s.Visible(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return list, Roots(list), nil
}

// visible returns the places of the stations pr may see, in list order (station.Sees
// decides; the picker only narrows what it is asked about).
func (s *State) visiblePlaces(pr *httpapi.Principal) []int {
	pk := s.pick
	if pr.StationAuthority == "all" {
		return pk.byOrg[pr.OrgID]
	}
	seen := map[int64]bool{}
	var places []int
	add := func(id int64) {
		if seen[id] {
			return
		}
		seen[id] = true
		i, ok := pk.pos[id]
		if !ok {
			return
		}
		st := s.list[i]
		if station.Sees(pr, st, s.byID[st.ParentID], s.grants) {
			places = append(places, i)
		}
	}
	withChildren := func(id int64) {
		add(id)
		for _, c := range pk.children[id] {
			add(c)
		}
	}
	for _, id := range pk.byDept[pr.DeptID] {
		withChildren(id)
	}
	if pr.StationAuthority != "own" {
		for id := range s.grants[pr.DeptID] {
			withChildren(id)
		}
	}
	sort.Ints(places)
	return places
}

// Visible returns the stations p may see (every level), by name then id: station.List
// with no filter, from memory.
func (s *State) Visible(ctx context.Context, p *httpapi.Principal) ([]*station.Station, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	places := s.visiblePlaces(p)
	out := make([]*station.Station, len(places))
	for i, at := range places {
		out[i] = s.list[at]
	}
	return out, nil
}

// Children counts each station's sub-stations.
func (s *State) Children(ctx context.Context, ids []int64) (map[int64]int, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]int, len(ids))
	for _, id := range ids {
		if n := len(s.pick.children[id]); n > 0 {
			out[id] = n
		}
	}
	return out, nil
}

// rankDevices numbers the devices in the database's order of (type, name, id): with the
// stations' order by name, the order of device.List.
func rankDevices(ctx context.Context, db *store.DB, devices map[int64]*deviceInfo) error {
	rows, err := db.Query(ctx, "SELECT id FROM devices ORDER BY type, name, id")
	if err != nil {
		return fmt.Errorf("fleet: unable to order devices: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		if d := devices[id]; d != nil {
			d.rank = n
		}
		n++
	}
	return rows.Err()
}

// WithChildren returns the stations ids and their sub-stations, each with its parent (0
// for a top-level station): what withChildren reads from the stations table.
func (s *State) WithChildren(ctx context.Context, ids []int64) (map[int64]int64, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]int64, len(ids))
	for _, id := range ids {
		st := s.stations[id]
		if st == nil {
			continue
		}
		out[id] = st.parent
		for _, c := range s.pick.children[id] {
			out[c] = id
		}
	}
	return out, nil
}

// Stations returns the stations p may see (every level, by name then id, as Visible) and
// a function naming any station's sub-stations, visible or not (what a filter on the
// sub-stations' tags reads). Both read the membership of this instant.
func (s *State) Stations(ctx context.Context, p *httpapi.Principal) ([]*station.Station, func(id int64) []*station.Station, error) {
	list, err := s.Visible(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return list, s.subOf(), nil
}

// RootsOf returns, for a caller who sees the whole organisation, its root stations (by
// name then id; the list kept with the membership and shared: the caller must not change
// it) and a function naming any station's sub-stations; ok false for any other caller.
func (s *State) RootsOf(ctx context.Context, p *httpapi.Principal) (roots []*station.Station, sub func(id int64) []*station.Station, ok bool, err error) {
	if p.StationAuthority != "all" {
		return nil, nil, false, nil
	}
	if _, roots, err = s.VisibleRoots(ctx, p); err != nil {
		return nil, nil, false, err
	}
	return roots, s.subOf(), true, nil
}

// subOf returns a function naming any station's sub-stations in the membership of now.
func (s *State) subOf() func(id int64) []*station.Station {
	s.mu.RLock()
	pick, byID := s.pick, s.byID // replaced whole on a reload, never changed in place
	s.mu.RUnlock()
	return func(id int64) []*station.Station {
		ids := pick.children[id]
		out := make([]*station.Station, 0, len(ids))
		for _, c := range ids {
			out = append(out, byID[c])
		}
		return out
	}
}

// Station returns station id if p may see it (nil when it may not, or there is none), the
// sub-stations of it p may see (by name then id) and a function naming any station's
// sub-stations: station.Get and station.List of its children, from memory. The stations
// are the state's own: the caller must not change them.
func (s *State) Station(ctx context.Context, p *httpapi.Principal, id int64) (*station.Station, []*station.Station, func(id int64) []*station.Station, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, nil, nil, err
	}
	s.mu.RLock()
	st := s.byID[id]
	var children []*station.Station
	if st != nil && station.Sees(p, st, s.byID[st.ParentID], s.grants) {
		for _, c := range s.pick.children[id] {
			if cs := s.byID[c]; cs != nil && station.Sees(p, cs, st, s.grants) {
				children = append(children, cs)
			}
		}
	} else {
		st = nil
	}
	s.mu.RUnlock()
	return st, children, s.subOf(), nil
}

// Devices returns the devices of the stations, in device.List's order (station name,
// type, name, id), as read with the membership: shared, not to be changed. The caller
// has checked that the stations may be seen.
func (s *State) Devices(ctx context.Context, stationIDs []int64) ([]*device.Device, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var devs []*deviceInfo
	// a station named twice counts once (a map for the whole fleet's list: the sorted
	// device list passes every visible station)
	var seen map[int64]bool
	if len(stationIDs) > 16 {
		seen = make(map[int64]bool, len(stationIDs))
	}
	for i, id := range stationIDs {
		st := s.stations[id]
		if st == nil || (seen == nil && slices.Contains(stationIDs[:i], id)) || seen[id] {
			continue
		}
		if seen != nil {
			seen[id] = true
		}
		devs = append(devs, st.devs...)
	}
	s.mu.RUnlock()
	slices.SortFunc(devs, func(a, b *deviceInfo) int { return cmp.Compare(a.place, b.place) })
	out := make([]*device.Device, len(devs))
	for i, d := range devs {
		out[i] = d.row
	}
	return out, nil
}

// Device returns a device as read with the membership (shared, not to be changed) when
// p may see its station, nil otherwise: what device.Get reads.
func (s *State) Device(ctx context.Context, p *httpapi.Principal, id int64) (*device.Device, error) {
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.devices[id]
	if d == nil {
		return nil, nil
	}
	st := s.byID[d.station]
	if st == nil || !station.Sees(p, st, s.byID[st.ParentID], s.grants) {
		return nil, nil
	}
	return d.row, nil
}
