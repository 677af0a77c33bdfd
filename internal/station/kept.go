package station

import (
	"context"
	"net/http"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Kept is what a Telemetry that keeps the stations in memory can also answer: the
// stations the caller sees, so the lists filter and page them without a query.
type Kept interface {
	// KeptStations returns every station p may see (every level) in List's order, by
	// name then id, and a function naming any station's sub-stations; ok false when the
	// stations are not kept (list them in SQL).
	KeptStations(ctx context.Context, p *httpapi.Principal) (list []*Station, sub func(id int64) []*Station, ok bool, err error)
	// KeptRoots is KeptStations' root stations, for a caller who sees the whole
	// organisation, as a list kept and shared (not to be changed); ok false for others.
	KeptRoots(ctx context.Context, p *httpapi.Principal) (roots []*Station, sub func(id int64) []*Station, ok bool, err error)
	// LiveFlags is Live without the latest alarm's text (LatestAlarm empty), for the
	// summary, which counts the stations with alarms and shows no text.
	LiveFlags(ctx context.Context, stations []*Station) (map[int64]Live, error)
	// EachFlags calls fn with LiveFlags' answer for each station of list, in order, when
	// it keeps them for that list as p sees it (the whole organisation's root stations);
	// ok false when it does not: call LiveFlags.
	EachFlags(ctx context.Context, p *httpapi.Principal, list []*Station, fn func(i int, l *Live)) (ok bool, err error)
	// KeptStation is Get and List of the station's children: the station id as p may see
	// it (nil when p may not, or there is none; kept, not to be changed), the sub-stations
	// of it p may see, and a function naming any station's sub-stations; ok false when the
	// stations are not kept (read them in SQL).
	KeptStation(ctx context.Context, p *httpapi.Principal, id int64) (st *Station, children []*Station, sub func(id int64) []*Station, ok bool, err error)
}

// view is the station of the path parameter as the caller may see it, for the calls that
// only read it: from memory when the telemetry keeps the stations, with its visible
// sub-stations and a function naming any station's sub-stations; else from the database,
// with children and sub nil. A station the caller may not see is a 404.
func (s *Service) view(r *http.Request, param string) (st *Station, children []*Station, sub func(int64) []*Station, err error) {
	k, isKept := s.Telemetry.(Kept)
	if !isKept {
		st, err = s.get(r, param)
		return st, nil, nil, err
	}
	id, err := httpapi.PathID(r, param)
	if err != nil {
		return nil, nil, nil, err
	}
	st, children, sub, ok, err := k.KeptStation(r.Context(), httpapi.Caller(r), id)
	switch {
	case err != nil:
		return nil, nil, nil, httpapi.Internal(err)
	case !ok:
		st, err = s.get(r, param)
		return st, nil, nil, err
	case st == nil:
		return nil, nil, nil, httpapi.NotFound()
	}
	return st, children, sub, nil
}

// eachFlags calls fn with the live flags of each station of list, in order: kept ones
// when the telemetry keeps them for list, else LiveFlags' (or Live's).
func (s *Service) eachFlags(ctx context.Context, p *httpapi.Principal, list []*Station, fn func(i int, l *Live)) error {
	flagsOf := s.Telemetry.Live
	if k, ok := s.Telemetry.(Kept); ok {
		done, err := k.EachFlags(ctx, p, list, fn)
		if err != nil || done {
			return err
		}
		flagsOf = k.LiveFlags // the flags need no alarm text
	}
	live, err := flagsOf(ctx, list)
	if err != nil {
		return err
	}
	for i, st := range list {
		l := live[st.ID]
		fn(i, &l)
	}
	return nil
}

// keptList is List from a Kept telemetry: ok false when there is none, or when the filter
// is one only SQL answers exactly (a name with letters beyond ASCII, whose case folding
// differs between the databases).
func (s *Service) keptList(ctx context.Context, p *httpapi.Principal, f Filter) (list []*Station, total int64, sub func(int64) []*Station, ok bool, err error) {
	k, isKept := s.Telemetry.(Kept)
	if !isKept || f.IDs != nil || !isASCII(f.Name) {
		return nil, 0, nil, false, nil
	}
	if f.ParentID == 0 && f.Name == "" && f.StationType == "" && f.SystemType == "" && len(f.TagIDs) == 0 {
		// the root stations, unfiltered: the shared list, paged without a copy
		roots, sub, ok, err := k.KeptRoots(ctx, p)
		if err != nil {
			return nil, 0, nil, false, err
		}
		if ok {
			total = int64(len(roots))
			roots = roots[:len(roots):len(roots)] // an append copies
			if f.PerPage > 0 {
				from := min((f.Page-1)*f.PerPage, len(roots))
				roots = roots[from:min(from+f.PerPage, len(roots)):min(from+f.PerPage, len(roots))]
			}
			return roots, total, sub, true, nil
		}
	}
	all, sub, ok, err := k.KeptStations(ctx, p)
	if err != nil || !ok {
		return nil, 0, nil, ok, err
	}
	name := asciiLower(f.Name)
	tags := map[int64]bool{}
	for _, id := range f.TagIDs {
		tags[id] = true
	}
	hasTag := func(st *Station) bool {
		for _, t := range st.Tags {
			if tags[t.ID] {
				return true
			}
		}
		return false
	}
	out := []*Station{}
	for _, st := range all {
		switch {
		case f.ParentID == 0 && st.ParentID != 0, f.ParentID > 0 && st.ParentID != f.ParentID:
			continue
		case f.StationType != "" && st.StationType != f.StationType, f.SystemType != "" && st.SystemType != f.SystemType:
			continue
		case name != "" && !strings.Contains(asciiLower(st.Name), name):
			continue
		}
		if len(tags) > 0 && !hasTag(st) {
			found := false
			for _, c := range sub(st.ID) {
				if hasTag(c) {
					found = true
					break
				}
			}
			if !found {
				continue
			}
		}
		out = append(out, st)
	}
	total = int64(len(out))
	if f.PerPage > 0 {
		from := min((f.Page-1)*f.PerPage, len(out))
		out = out[from:min(from+f.PerPage, len(out))]
	}
	return out, total, sub, true, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiLower lowers ASCII letters only, as SQLite's LOWER does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
