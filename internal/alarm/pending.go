package alarm

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// PendingByUser counts, per user, the unprocessed alarms (deal status 0, occurring or
// recovered) of the stations in the user's station authority: the bell's second counter
// (SPEC.md section 3, unprocessedAlarm). Unknown users are absent.
func PendingByUser(ctx context.Context, db *store.DB, userIDs []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(userIDs))
	for _, id := range userIDs {
		if _, done := out[id]; done {
			continue
		}
		var p httpapi.Principal
		var dept sql.NullInt64
		err := db.QueryRow(ctx, "SELECT id, org_id, dept_id, role, station_authority FROM users WHERE id = ?", id).
			Scan(&p.UserID, &p.OrgID, &dept, &p.Role, &p.StationAuthority)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("alarm: unable to read user: %w", err)
		}
		p.DeptID = dept.Int64
		where, args := station.Scope(&p)
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.org_id = ? AND a.deal_status = 0 AND "+where,
			append([]any{p.OrgID}, args...)...).Scan(&n); err != nil {
			return nil, fmt.Errorf("alarm: unable to count unprocessed alarms: %w", err)
		}
		out[id] = n
	}
	return out, nil
}

// orgUsers lists the users of the organisations (whose bells count their alarms).
func orgUsers(ctx context.Context, db *store.DB, orgIDs map[int64]bool) ([]int64, error) {
	var out []int64
	for org := range orgIDs {
		rows, err := db.Query(ctx, "SELECT id FROM users WHERE org_id = ?", org)
		if err != nil {
			return nil, fmt.Errorf("alarm: unable to list users: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pendingChanged tells the live connections of the organisations' users that their
// unprocessed-alarm counter changed.
func (e *Engine) pendingChanged(ctx context.Context, orgIDs map[int64]bool) {
	e.pendingChangedExcept(ctx, orgIDs, nil)
}

func (e *Engine) pendingChangedExcept(ctx context.Context, orgIDs map[int64]bool, except map[int64]bool) {
	if e.opt.Messages == nil || len(orgIDs) == 0 {
		return
	}
	users, err := orgUsers(ctx, e.db, orgIDs)
	if err != nil {
		return
	}
	keep := users[:0]
	for _, u := range users {
		if !except[u] {
			keep = append(keep, u)
		}
	}
	e.opt.Messages.CountsChanged(ctx, keep)
}

// openedChanged is pendingChanged for the organisations of newly opened alarms, but for
// the users sent a message about them (except): that message's frame moves their
// counters. Where the counter counts alarm messages (no Store.Pending), a new alarm moves
// nobody's counter but by its messages.
func (e *Engine) openedChanged(ctx context.Context, ids []int64, except map[int64]bool) {
	if e.opt.Messages == nil || len(ids) == 0 || !e.opt.Messages.CountsAlarms() {
		return
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := e.db.Query(ctx, "SELECT DISTINCT org_id FROM alarms WHERE id IN ("+placeholders(len(ids))+")", args...)
	if err != nil {
		return
	}
	orgs := map[int64]bool{}
	for rows.Next() {
		var org int64
		if rows.Scan(&org) == nil {
			orgs[org] = true
		}
	}
	rows.Close()
	e.pendingChangedExcept(ctx, orgs, except)
}
