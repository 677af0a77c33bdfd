package station

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// All lists every station of every organisation, with tags, by name then id (the order of
// List): for state kept in memory, which then applies Sees instead of Scope.
func All(ctx context.Context, db *store.DB) ([]*Station, error) {
	rows, err := db.Query(ctx, "SELECT "+columns+" FROM stations s ORDER BY s.name, s.id")
	if err != nil {
		return nil, fmt.Errorf("station: unable to list: %w", err)
	}
	out := []*Station{}
	for rows.Next() {
		st, err := scan(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, st)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for start := 0; start < len(out); start += 1000 {
		if err := attachTags(ctx, db, out[start:min(start+1000, len(out))]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Grants returns, per department, the stations granted to it.
func Grants(ctx context.Context, db *store.DB) (map[int64]map[int64]bool, error) {
	rows, err := db.Query(ctx, "SELECT dept_id, station_id FROM station_grants")
	if err != nil {
		return nil, fmt.Errorf("station: unable to read grants: %w", err)
	}
	defer rows.Close()
	out := map[int64]map[int64]bool{}
	for rows.Next() {
		var dept, st int64
		if err := rows.Scan(&dept, &st); err != nil {
			return nil, err
		}
		if out[dept] == nil {
			out[dept] = map[int64]bool{}
		}
		out[dept][st] = true
	}
	return out, rows.Err()
}

// Sees is Scope in Go: whether p may see st, whose parent is parent (nil for a top-level
// station), given the departments' grants.
func Sees(p *httpapi.Principal, st, parent *Station, grants map[int64]map[int64]bool) bool {
	if st.OrgID != p.OrgID {
		return false
	}
	own := func(s *Station) bool { return s != nil && s.CreatedByDept != 0 && s.CreatedByDept == p.DeptID }
	switch p.StationAuthority {
	case "all":
		return true
	case "own":
		return own(st) || own(parent)
	default:
		g := grants[p.DeptID]
		return own(st) || own(parent) || g[st.ID] || (st.ParentID != 0 && g[st.ParentID])
	}
}
