package alarm

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Notification frequencies (SPEC.md section 9): how long an alarm must have been
// occurring before a user is told.
const (
	FrequencyLow    = "low"    // after 60 minutes of continuous alarm
	FrequencyMedium = "medium" // after 15 minutes
	FrequencyHigh   = "high"   // at once
)

// Frequencies lists the frequencies.
var Frequencies = []string{FrequencyLow, FrequencyMedium, FrequencyHigh}

// Delay is how long an alarm must have been occurring before a user with the given
// frequency is notified.
func Delay(frequency string) time.Duration {
	switch frequency {
	case FrequencyLow:
		return 60 * time.Minute
	case FrequencyMedium:
		return 15 * time.Minute
	}
	return 0
}

// Notification methods.
const (
	MethodInSite  = 1 // the message centre and the console's live connection
	MethodAppPush = 2 // a mobile app push gateway (AppPusher)
)

// DailyLimitChoices are the limits the console offers; any number from 1 to
// MaxDailyLimit is accepted ("other").
var DailyLimitChoices = []int{2, 10, 20, 50}

// MaxDailyLimit bounds the daily limit.
const MaxDailyLimit = 10000

// Settings are a user's alarm notification settings.
type Settings struct {
	Levels     []int  `json:"levels" validate:"required" doc:"alarm levels to notify (0 signal change, 1 alarm, 2 fault); at least one"`
	Frequency  string `json:"frequency" validate:"required" doc:"low (after 60 min of continuous alarm), medium (after 15 min) or high (at once)"`
	DailyLimit int    `json:"dailyLimit" validate:"required" doc:"most alarm notifications per local day (2, 10, 20, 50 or another number, 1-10000)"`
	Methods    []int  `json:"methods" validate:"required" doc:"1 in-site (message centre and live push), 2 app push; at least one"`
	Allowed    int    `json:"allowed" validate:"required" doc:"1 allow notifications, 0 disallow"`
	Timezone   string `json:"timezone" doc:"IANA zone whose days the daily limit counts (default UTC)"`
}

// DefaultSettings apply to a user who has not saved any.
func DefaultSettings() Settings {
	return Settings{Levels: []int{LevelAlarm, LevelFault}, Frequency: FrequencyHigh, DailyLimit: 20,
		Methods: []int{MethodInSite}, Allowed: 1, Timezone: "UTC"}
}

func (s *Settings) has(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

func splitInts(s string) []int {
	out := []int{}
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// LoadSettings returns a user's settings (the defaults when none are saved).
func LoadSettings(ctx context.Context, db *store.DB, userID int64) (Settings, error) {
	var levels, methods, freq, tz string
	var limit, allowed int
	err := db.QueryRow(ctx, `SELECT levels, frequency, daily_limit, methods, allowed, timezone
		FROM alarm_notify_settings WHERE user_id = ?`, userID).Scan(&levels, &freq, &limit, &methods, &allowed, &tz)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("alarm: unable to read notification settings: %w", err)
	}
	return Settings{Levels: splitInts(levels), Frequency: freq, DailyLimit: limit, Methods: splitInts(methods),
		Allowed: allowed, Timezone: tz}, nil
}

// SaveSettings stores a user's (validated) settings.
func SaveSettings(ctx context.Context, db *store.DB, userID int64, s Settings, now time.Time) error {
	levels := append([]int(nil), s.Levels...)
	methods := append([]int(nil), s.Methods...)
	sort.Ints(levels)
	sort.Ints(methods)
	_, err := db.Exec(ctx, `INSERT INTO alarm_notify_settings (user_id, levels, frequency, daily_limit, methods, allowed, timezone, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET levels = excluded.levels, frequency = excluded.frequency,
		daily_limit = excluded.daily_limit, methods = excluded.methods, allowed = excluded.allowed,
		timezone = excluded.timezone, updated_at = excluded.updated_at`,
		userID, joinInts(dedupeInts(levels)), s.Frequency, s.DailyLimit, joinInts(dedupeInts(methods)), s.Allowed, s.Timezone, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("alarm: unable to save notification settings: %w", err)
	}
	return nil
}

func dedupeInts(xs []int) []int {
	out := xs[:0:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// pendingAlarm is an occurring alarm that may be due for notification.
type pendingAlarm struct {
	id, orgID, stationID int64
	level                int
	start                int64
	rule, devName, devSN string
	stationName          string
	msgKey               string
	args                 []any
}

// due is a user and the alarms they are to be notified of now.
type due struct {
	r      *recipient
	alarms []pendingAlarm
}

type recipient struct {
	p        httpapi.Principal
	settings Settings
	loc      *time.Location
	visible  map[int64]bool
}

// notify decides the notifications that are due at now for the given alarms (nil: every
// occurring alarm that can still be due) and sends them. A user is notified of an alarm
// once: when it has been occurring for the delay of their frequency, if its level is one
// they chose, its station is one they may see, notifications are allowed, and they have
// been sent fewer than their daily limit today (their local day). An alarm past the daily
// limit is recorded as limited and never sent.
func (e *Engine) notify(ctx context.Context, ids []int64, now time.Time) error {
	if e.opt.Messages == nil {
		return nil
	}
	nowMs := now.UnixMilli()
	q := `SELECT a.id, a.org_id, a.station_id, a.level, a.start_at, a.rule_key, a.device_name, a.device_sn, s.name,
		a.msg_key, a.msg_args FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.status = 1 AND a.replayed = 0`
	var args []any
	if ids != nil {
		if len(ids) == 0 {
			return nil
		}
		q += " AND a.id IN (" + placeholders(len(ids)) + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	} else {
		// The longest delay is an hour: older alarms were due before the window.
		q += " AND a.start_at >= ?"
		args = append(args, nowMs-(e.opt.NotifyWindow+Delay(FrequencyLow)).Milliseconds())
	}
	rows, err := e.db.Query(ctx, q+" ORDER BY a.start_at, a.id", args...)
	if err != nil {
		return fmt.Errorf("alarm: unable to read occurring alarms: %w", err)
	}
	var alarms []pendingAlarm
	for rows.Next() {
		var a pendingAlarm
		var rawArgs string
		if err := rows.Scan(&a.id, &a.orgID, &a.stationID, &a.level, &a.start, &a.rule, &a.devName, &a.devSN,
			&a.stationName, &a.msgKey, &rawArgs); err != nil {
			rows.Close()
			return err
		}
		_ = json.Unmarshal([]byte(rawArgs), &a.args)
		alarms = append(alarms, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(alarms) == 0 {
		return nil
	}
	decided, err := e.decided(ctx, alarms)
	if err != nil {
		return err
	}
	byOrg := map[int64][]pendingAlarm{}
	var orgs []int64
	for _, a := range alarms {
		if _, ok := byOrg[a.orgID]; !ok {
			orgs = append(orgs, a.orgID)
		}
		byOrg[a.orgID] = append(byOrg[a.orgID], a)
	}
	sort.Slice(orgs, func(i, j int) bool { return orgs[i] < orgs[j] }) // lock order
	var work []due
	for _, org := range orgs {
		visible := map[string]map[int64]bool{}
		users, err := e.recipients(ctx, org)
		if err != nil {
			return err
		}
		for _, u := range users {
			if u.settings.Allowed != 1 {
				continue
			}
			delay := Delay(u.settings.Frequency).Milliseconds()
			var mine []pendingAlarm
			for _, a := range byOrg[org] {
				dueAt := a.start + delay
				if decided[[2]int64{a.id, u.p.UserID}] || !u.settings.has(u.settings.Levels, a.level) ||
					nowMs < dueAt || nowMs-dueAt > e.opt.NotifyWindow.Milliseconds() {
					continue
				}
				if u.visible == nil {
					// Users of one department with the same authority see the same stations.
					key := fmt.Sprint(u.p.StationAuthority, "/", u.p.DeptID)
					if u.visible = visible[key]; u.visible == nil {
						ids, err := station.VisibleIDs(ctx, e.db, &u.p)
						if err != nil {
							return err
						}
						u.visible = map[int64]bool{}
						for _, id := range ids {
							u.visible[id] = true
						}
						visible[key] = u.visible
					}
				}
				if u.visible[a.stationID] {
					mine = append(mine, a)
				}
			}
			if len(mine) > 0 {
				work = append(work, due{u, mine})
			}
		}
	}
	if len(work) == 0 {
		return nil
	}
	sort.Slice(work, func(i, j int) bool { return work[i].r.p.UserID < work[j].r.p.UserID })
	var sent, app []message.Record
	err = e.db.InTx(ctx, func(tx *store.Tx) error {
		sent, app = nil, nil
		if tx.Dialect == store.Postgres {
			// Replicas deciding for one organisation take turns, so the limits hold.
			for _, org := range orgs {
				if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(7340004, CAST(? AS INTEGER))", org%2147483647); err != nil {
					return err
				}
			}
		}
		counts, err := sentToday(ctx, tx, work, now)
		if err != nil {
			return err
		}
		// Decide in order, then record every decision with one statement per few
		// hundred; only the rows actually inserted (not decided meanwhile) go on.
		type decision struct {
			u       *recipient
			a       pendingAlarm
			outcome string
		}
		var decs []decision
		for _, w := range work {
			n := counts[w.r.p.UserID]
			for _, a := range w.alarms {
				outcome := "sent"
				if n >= w.r.settings.DailyLimit {
					outcome = "limited"
				}
				if outcome == "sent" {
					n++
				}
				decs = append(decs, decision{w.r, a, outcome})
			}
		}
		inserted := map[[2]int64]bool{}
		for start := 0; start < len(decs); start += 300 {
			chunk := decs[start:min(start+300, len(decs))]
			vals := make([]string, len(chunk))
			args := make([]any, 0, 4*len(chunk))
			for i, d := range chunk {
				vals[i] = "(?, ?, ?, ?)"
				args = append(args, d.a.id, d.u.p.UserID, d.outcome, nowMs)
			}
			rows, err := tx.Query(ctx, `INSERT INTO alarm_notifications (alarm_id, user_id, outcome, created_at) VALUES `+
				strings.Join(vals, ", ")+` ON CONFLICT DO NOTHING RETURNING alarm_id, user_id`, args...)
			if err != nil {
				return fmt.Errorf("alarm: unable to record notifications: %w", err)
			}
			for rows.Next() {
				var k [2]int64
				if err := rows.Scan(&k[0], &k[1]); err != nil {
					rows.Close()
					return err
				}
				inserted[k] = true
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		var news []message.New
		var newsApp []bool
		for _, d := range decs {
			if !inserted[[2]int64{d.a.id, d.u.p.UserID}] {
				continue // decided meanwhile by another replica
			}
			notifiedTotal.Inc(d.outcome)
			if d.outcome != "sent" {
				continue
			}
			rec := e.alarmMessage(d.u, d.a)
			inSite, byApp := d.u.settings.has(d.u.settings.Methods, MethodInSite), d.u.settings.has(d.u.settings.Methods, MethodAppPush)
			switch {
			case inSite:
				news = append(news, rec)
				newsApp = append(newsApp, byApp)
			case byApp:
				app = append(app, message.Record{UserID: rec.UserID, Kind: rec.Kind, Type: message.TypeNotice,
					Title: rec.Title, SubTitle: rec.SubTitle, Content: rec.Content, Priority: rec.Priority,
					AlarmID: rec.AlarmID, Created: now.UTC(), Updated: now.UTC()})
			}
		}
		stored, err := e.opt.Messages.InsertMany(ctx, tx, news)
		if err != nil {
			return err
		}
		for i, r := range stored {
			sent = append(sent, r)
			if newsApp[i] {
				app = append(app, r)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("alarm: unable to notify: %w", err)
	}
	e.opt.Messages.Announce(ctx, sent)
	if e.opt.AppPush != nil {
		for _, m := range app {
			if err := e.opt.AppPush.Push(ctx, m.UserID, m); err != nil {
				slog.Warn("alarm: app push failed", "user", m.UserID, "err", err)
			}
		}
	}
	return nil
}

// sentToday counts the notifications sent to each user during their current local day:
// one grouped query per time zone and few hundred users.
func sentToday(ctx context.Context, tx *store.Tx, work []due, now time.Time) (map[int64]int, error) {
	out := map[int64]int{}
	byZone := map[*time.Location][]int64{}
	var zones []*time.Location
	for _, w := range work {
		if _, ok := byZone[w.r.loc]; !ok {
			zones = append(zones, w.r.loc)
		}
		byZone[w.r.loc] = append(byZone[w.r.loc], w.r.p.UserID)
	}
	for _, loc := range zones {
		local := now.In(loc)
		dayStart := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
		dayEnd := dayStart.AddDate(0, 0, 1)
		users := byZone[loc]
		for start := 0; start < len(users); start += 500 {
			chunk := users[start:min(start+500, len(users))]
			args := []any{dayStart.UnixMilli(), dayEnd.UnixMilli()}
			for _, u := range chunk {
				args = append(args, u)
			}
			rows, err := tx.Query(ctx, `SELECT user_id, COUNT(*) FROM alarm_notifications WHERE outcome = 'sent'
				AND created_at >= ? AND created_at < ? AND user_id IN (`+placeholders(len(chunk))+`) GROUP BY user_id`, args...)
			if err != nil {
				return nil, fmt.Errorf("alarm: unable to count notifications: %w", err)
			}
			for rows.Next() {
				var u int64
				var n int
				if err := rows.Scan(&u, &n); err != nil {
					rows.Close()
					return nil, err
				}
				out[u] = n
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// decided returns the (alarm, user) pairs already notified or limited.
func (e *Engine) decided(ctx context.Context, alarms []pendingAlarm) (map[[2]int64]bool, error) {
	out := map[[2]int64]bool{}
	for start := 0; start < len(alarms); start += 500 {
		chunk := alarms[start:min(start+500, len(alarms))]
		args := make([]any, len(chunk))
		for i, a := range chunk {
			args[i] = a.id
		}
		rows, err := e.db.Query(ctx, "SELECT alarm_id, user_id FROM alarm_notifications WHERE alarm_id IN ("+placeholders(len(chunk))+")", args...)
		if err != nil {
			return nil, fmt.Errorf("alarm: unable to read notifications: %w", err)
		}
		for rows.Next() {
			var a, u int64
			if err := rows.Scan(&a, &u); err != nil {
				rows.Close()
				return nil, err
			}
			out[[2]int64{a, u}] = true
		}
		rows.Close()
	}
	return out, nil
}

// recipients lists an organisation's active users with their settings.
func (e *Engine) recipients(ctx context.Context, orgID int64) ([]*recipient, error) {
	rows, err := e.db.Query(ctx, `SELECT u.id, u.org_id, COALESCE(u.dept_id, 0), u.username, u.role, u.station_authority,
		n.levels, n.frequency, n.daily_limit, n.methods, n.allowed, n.timezone
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
		var limit, allowed sql.NullInt64
		if err := rows.Scan(&r.p.UserID, &r.p.OrgID, &r.p.DeptID, &r.p.Username, &r.p.Role, &r.p.StationAuthority,
			&levels, &freq, &limit, &methods, &allowed, &tz); err != nil {
			return nil, err
		}
		r.settings = DefaultSettings()
		if levels.Valid {
			r.settings = Settings{Levels: splitInts(levels.String), Frequency: freq.String, DailyLimit: int(limit.Int64),
				Methods: splitInts(methods.String), Allowed: int(allowed.Int64), Timezone: tz.String}
		}
		r.loc = loadLocation(r.settings.Timezone)
		out = append(out, r)
	}
	return out, rows.Err()
}

// alarmMessage is the message that tells a user about an alarm.
func (e *Engine) alarmMessage(u *recipient, a pendingAlarm) message.New {
	sub := a.stationName
	if a.devName != "" {
		sub += " · " + a.devName
	} else if a.devSN != "" {
		sub += " · " + a.devSN
	}
	return message.New{
		UserID: u.p.UserID, OrgID: u.p.OrgID, Kind: message.KindAlarm, Type: message.TypeNotice,
		Title: message.Text{Key: "alarm_rule_" + a.rule}, SubTitle: message.Plain(sub),
		Content: message.Text{Key: a.msgKey, Args: a.args}, Priority: priorityOf(a.level),
		ProcessStatus: "pending", AlarmID: a.id,
	}
}

// priorityOf maps an alarm level to a message priority: fault → urgent, alarm →
// normal, signal change → low.
func priorityOf(level int) int {
	switch level {
	case LevelFault:
		return 3
	case LevelAlarm:
		return 2
	}
	return 1
}
