package alarm

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// settingsGen moves whenever notification settings are saved in this process: the
// engines' recipient lists are read again.
var settingsGen atomic.Int64

// recipientsRead, when set (tests), is called after an organisation's recipients were
// read and before they are kept.
var recipientsRead func(*Engine)

type recipient struct {
	p        httpapi.Principal
	settings Settings
	loc      *time.Location
	visible  map[int64]bool
}

// orgRecipients is an organisation's active users with their settings and the stations
// each may see, as the notification pass keeps them in memory. It is read again when
// older than cacheTTL (another replica's changes), when an API write of the organisation
// is reported (Changed), when settings were saved, or when an alarm names a station it
// does not know.
type orgRecipients struct {
	users    []*recipient
	stations map[int64]bool
	// visible is shared by the users of one department with the same authority.
	visible map[string]map[int64]bool
	loaded  time.Time
	gen     int64
	changes uint64 // Changed calls made before it was read
}

// Changed drops what the engine keeps in memory about an organisation's users (0: every
// organisation): call it after users, roles, departments, grants or stations change
// (httpapi.API.OnWrite).
func (e *Engine) Changed(orgID int64) {
	// a read under way began before this change: what it keeps is not fresh
	e.recipChanges.Add(1)
	e.recipMu.Lock()
	defer e.recipMu.Unlock()
	if orgID == 0 {
		clear(e.recips)
		return
	}
	delete(e.recips, orgID)
}

// recipientsOf returns an organisation's recipients with the visible stations of each
// (for the stations of the alarms given), from memory when still fresh.
func (e *Engine) recipientsOf(ctx context.Context, orgID int64, alarms []pendingAlarm, now time.Time) ([]*recipient, error) {
	e.recipMu.Lock()
	o := e.recips[orgID]
	e.recipMu.Unlock()
	fresh := o != nil && !stale(o.loaded, now) && o.gen == settingsGen.Load() && o.changes == e.recipChanges.Load()
	for _, a := range alarms {
		if fresh && !o.stations[a.stationID] {
			fresh = false
		}
	}
	if !fresh {
		gen, changes := settingsGen.Load(), e.recipChanges.Load()
		users, err := e.recipients(ctx, orgID)
		if err != nil {
			return nil, err
		}
		st, err := orgStations(ctx, e.db, orgID)
		if err != nil {
			return nil, err
		}
		if recipientsRead != nil {
			recipientsRead(e)
		}
		o = &orgRecipients{users: users, stations: st, visible: map[string]map[int64]bool{}, loaded: now, gen: gen, changes: changes}
		e.recipMu.Lock()
		if e.recips == nil {
			e.recips = map[int64]*orgRecipients{}
		}
		e.recips[orgID] = o
		e.recipMu.Unlock()
	}
	// Passes run one at a time (notifyMu): the visible sets are filled in place.
	for _, u := range o.users {
		if u.visible != nil {
			continue
		}
		key := fmt.Sprint(u.p.StationAuthority, "/", u.p.DeptID)
		if u.visible = o.visible[key]; u.visible != nil {
			continue
		}
		ids, err := station.VisibleIDs(ctx, e.db, &u.p)
		if err != nil {
			return nil, err
		}
		u.visible = make(map[int64]bool, len(ids))
		for _, id := range ids {
			u.visible[id] = true
		}
		o.visible[key] = u.visible
	}
	return o.users, nil
}

func orgStations(ctx context.Context, db *store.DB, orgID int64) (map[int64]bool, error) {
	rows, err := db.Query(ctx, "SELECT id FROM stations WHERE org_id = ?", orgID)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to list stations: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// recipients lists an organisation's active users with their settings.
func (e *Engine) recipients(ctx context.Context, orgID int64) ([]*recipient, error) {
	rows, err := e.db.Query(ctx, `SELECT u.id, u.org_id, COALESCE(u.dept_id, 0), u.username, u.role, u.station_authority,
		n.levels, n.frequency, n.daily_limit, n.push_limit, n.email_limit, n.methods, n.allowed, n.timezone
		FROM users u LEFT JOIN alarm_notify_settings n ON n.user_id = u.id
		WHERE u.org_id = ? AND u.status = 1 ORDER BY u.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to list users: %w", err)
	}
	defer rows.Close()
	var out []*recipient
	for rows.Next() {
		r := &recipient{}
		var levels, freq, methods, tz sql.NullString
		var limit, pushLimit, emailLimit, allowed sql.NullInt64
		if err := rows.Scan(&r.p.UserID, &r.p.OrgID, &r.p.DeptID, &r.p.Username, &r.p.Role, &r.p.StationAuthority,
			&levels, &freq, &limit, &pushLimit, &emailLimit, &methods, &allowed, &tz); err != nil {
			return nil, err
		}
		r.settings = DefaultSettings()
		if levels.Valid {
			r.settings = Settings{Levels: splitInts(levels.String), Frequency: freq.String, DailyLimit: int(limit.Int64),
				PushLimit: int(pushLimit.Int64), EmailLimit: int(emailLimit.Int64), Methods: splitInts(methods.String), Allowed: int(allowed.Int64), Timezone: tz.String}
		}
		r.loc = loadLocation(r.settings.Timezone)
		out = append(out, r)
	}
	return out, rows.Err()
}

// methodCounts are a user's notifications of a day by method (index: the method).
type methodCounts [4]int

// bit is a method's bit in alarm_notifications.methods and .held.
func bit(method int) int { return 1 << method }

// dayCount is a user's notifications sent during the local day that began at start.
type dayCount struct {
	start int64
	n     methodCounts
}

// dailyCounts returns how many notifications each user of the work was sent today (their
// local day). On SQLite (one replica) the counts are kept in memory once read and moved
// by each pass (countSent); on PostgreSQL other replicas decide too, so they are read
// under the organisations' locks every pass.
func (e *Engine) dailyCounts(ctx context.Context, tx *store.Tx, work []due, now time.Time) (map[int64]methodCounts, error) {
	if tx.Dialect == store.Postgres {
		return sentToday(ctx, tx, work, now)
	}
	out := make(map[int64]methodCounts, len(work))
	var missing []due
	for _, w := range work {
		c, ok := e.daily[w.r.p.UserID]
		if ok && c.start == dayStart(now, w.r.loc) {
			out[w.r.p.UserID] = c.n
		} else {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	read, err := sentToday(ctx, tx, missing, now)
	if err != nil {
		return nil, err
	}
	if e.daily == nil {
		e.daily = map[int64]dayCount{}
	}
	for _, w := range missing {
		n := read[w.r.p.UserID]
		out[w.r.p.UserID] = n
		e.daily[w.r.p.UserID] = dayCount{start: dayStart(now, w.r.loc), n: n}
	}
	return out, nil
}

// countSent moves the kept counts by the notifications a committed pass sent.
func (e *Engine) countSent(sent map[int64]methodCounts) {
	for u, n := range sent {
		if c, ok := e.daily[u]; ok {
			for m := range n {
				c.n[m] += n[m]
			}
			e.daily[u] = c
		}
	}
}

func dayStart(now time.Time, loc *time.Location) int64 {
	local := now.In(loc)
	return time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc).UnixMilli()
}
