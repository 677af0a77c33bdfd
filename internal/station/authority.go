// Package station holds power stations (with sub-stations), their tags and grants,
// the station-authority rule every read and write goes through, and the /v2/site calls.
package station

import (
	"github.com/helio-energy/helio/internal/httpapi"
)

// Scope returns a SQL condition on the stations alias `s` that keeps only the stations
// the caller may see (DESIGN.md section 5), and its arguments:
//   - all: every station of the caller's organisation;
//   - own: stations created by the caller's department, and their sub-stations;
//   - authorized: those, plus stations granted to the department and their sub-stations.
//
// Another organisation's station never matches, so it answers 404 like one that
// does not exist.
func Scope(p *httpapi.Principal) (string, []any) {
	switch p.StationAuthority {
	case "all":
		return "s.org_id = ?", []any{p.OrgID}
	case "own":
		return `s.org_id = ? AND (s.created_by_dept = ? OR s.parent_id IN
			(SELECT id FROM stations WHERE created_by_dept = ?))`, []any{p.OrgID, p.DeptID, p.DeptID}
	default:
		return `s.org_id = ? AND (s.created_by_dept = ? OR s.parent_id IN (SELECT id FROM stations WHERE created_by_dept = ?)
			OR s.id IN (SELECT station_id FROM station_grants WHERE dept_id = ?)
			OR s.parent_id IN (SELECT station_id FROM station_grants WHERE dept_id = ?))`,
			[]any{p.OrgID, p.DeptID, p.DeptID, p.DeptID, p.DeptID}
	}
}
