package escalate

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Escalator takes the steps that fell due. One runs per cluster (the server starts it
// under store.RunExclusive).
type Escalator struct {
	DB       *store.DB
	Messages *message.Store
	Outbox   *notify.Outbox // nil: in-site messages only
	Now      func() time.Time
}

// Every is how often the server's escalator looks.
const Every = 30 * time.Second

// maxCandidates bounds the unprocessed alarms of one organisation a pass looks at (the
// newest first: a step falls due while its alarm is among the newest).
const maxCandidates = 5000

// Run takes due steps every interval until ctx ends.
func (e *Escalator) Run(ctx context.Context) {
	t := time.NewTicker(Every)
	defer t.Stop()
	for {
		now := time.Now()
		if e.Now != nil {
			now = e.Now()
		}
		if _, err := e.Pass(ctx, now); err != nil && ctx.Err() == nil {
			slog.Warn("escalate: a pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// candidate is an unprocessed alarm a step may be due for.
type candidate struct {
	notify.Alarm
	occurred int64
}

// work is one step to take.
type work struct {
	a    *candidate
	rule *EscalationRule
	step int // index
}

// Pass takes every step due at now (once per alarm, rule and step) and returns how many it
// took.
func (e *Escalator) Pass(ctx context.Context, now time.Time) (int, error) {
	rows, err := e.DB.Query(ctx, "SELECT org_id, "+ruleColumns+" FROM escalation_rules WHERE enabled = 1 ORDER BY org_id, id")
	if err != nil {
		return 0, fmt.Errorf("escalate: unable to read rules: %w", err)
	}
	byOrg := map[int64][]EscalationRule{}
	var orgs []int64
	for rows.Next() {
		var org int64
		var r EscalationRule
		var levels, stations, steps string
		var stop, enabled int
		if err := rows.Scan(&org, &r.ID, &r.Name, &levels, &stations, &stop, &enabled, &steps, &r.CreatedAt, &r.UpdatedAt); err != nil {
			rows.Close()
			return 0, err
		}
		r.StopOnRecovery = stop == 1
		r.StationIDs = splitIDs(stations)
		for _, l := range splitIDs(levels) {
			r.Levels = append(r.Levels, int(l))
		}
		if json.Unmarshal([]byte(steps), &r.Steps) != nil || len(r.Steps) == 0 {
			continue
		}
		if _, ok := byOrg[org]; !ok {
			orgs = append(orgs, org)
		}
		byOrg[org] = append(byOrg[org], r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	taken := 0
	for _, org := range orgs {
		n, err := e.org(ctx, org, byOrg[org], now)
		taken += n
		if err != nil {
			return taken, err
		}
	}
	return taken, nil
}

// org takes an organisation's due steps.
func (e *Escalator) org(ctx context.Context, orgID int64, rules []EscalationRule, now time.Time) (int, error) {
	nowMs := now.UnixMilli()
	first, last := MaxAfter, 0
	for _, r := range rules {
		first = min(first, r.Steps[0].AfterMinutes)
		last = max(last, r.Steps[len(r.Steps)-1].AfterMinutes)
	}
	cands, err := e.candidates(ctx, orgID, nowMs-int64(first)*60000, nowMs-Window.Milliseconds()-int64(last)*60000)
	if err != nil || len(cands) == 0 {
		return 0, err
	}
	done, err := e.taken(ctx, cands)
	if err != nil {
		return 0, err
	}
	var todo []work
	for i := range rules {
		r := &rules[i]
		for _, a := range cands {
			if !slices.Contains(r.Levels, a.Level) || len(r.StationIDs) > 0 && !slices.Contains(r.StationIDs, a.StationID) {
				continue
			}
			for k, st := range r.Steps {
				due := a.StartAt + int64(st.AfterMinutes)*60000
				if due > nowMs {
					break
				}
				if r.StopOnRecovery && a.RecoveredAt != 0 && a.RecoveredAt <= due {
					break
				}
				// not a step due before the rule existed, nor one missed for longer than Window
				if due < r.CreatedAt || nowMs-due > Window.Milliseconds() || done[[3]int64{a.ID, r.ID, int64(k)}] {
					continue
				}
				todo = append(todo, work{a, r, k})
			}
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	return e.take(ctx, orgID, todo, now)
}

// candidates reads the organisation's unprocessed alarms that began in [from, to], newest
// first.
func (e *Escalator) candidates(ctx context.Context, orgID, to, from int64) ([]*candidate, error) {
	rows, err := e.DB.Query(ctx, `SELECT a.id, a.station_id, a.level, a.start_at, COALESCE(a.recovered_at, 0), a.rule_key, a.device_name,
		a.device_sn, s.name, s.timezone, a.msg_key, a.msg_args, a.occurred_at
		FROM alarms a JOIN stations s ON s.id = a.station_id
		WHERE a.org_id = ? AND a.deal_status = 0 AND a.replayed = 0 AND a.start_at >= ? AND a.start_at <= ?
		ORDER BY a.start_at DESC, a.id DESC LIMIT ?`, orgID, from, to, maxCandidates)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read alarms: %w", err)
	}
	defer rows.Close()
	var out []*candidate
	for rows.Next() {
		c := &candidate{}
		var args string
		if err := rows.Scan(&c.ID, &c.StationID, &c.Level, &c.StartAt, &c.RecoveredAt, &c.Rule, &c.DeviceName, &c.DeviceSN,
			&c.StationName, &c.TimeZone, &c.MsgKey, &args, &c.occurred); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(args), &c.Args)
		out = append(out, c)
	}
	return out, rows.Err()
}

// taken reads the steps already taken for the alarms.
func (e *Escalator) taken(ctx context.Context, cands []*candidate) (map[[3]int64]bool, error) {
	out := map[[3]int64]bool{}
	for start := 0; start < len(cands); start += 500 {
		chunk := cands[start:min(start+500, len(cands))]
		args := make([]any, len(chunk))
		for i, c := range chunk {
			args[i] = c.ID
		}
		rows, err := e.DB.Query(ctx, "SELECT alarm_id, rule_id, step FROM alarm_escalations WHERE alarm_id IN (?"+
			strings.Repeat(", ?", len(chunk)-1)+")", args...)
		if err != nil {
			return nil, fmt.Errorf("escalate: unable to read steps taken: %w", err)
		}
		for rows.Next() {
			var k [3]int64
			if err := rows.Scan(&k[0], &k[1], &k[2]); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// person is a user a step may notify.
type person struct {
	p       httpapi.Principal
	name    string
	visible map[int64]bool // read when first needed
	methods []int
}

// take resolves each step's people at now and writes, in one transaction, the steps, the
// in-site messages, the user's e-mails and pushes, and the webhooks' alarm.escalated.
func (e *Escalator) take(ctx context.Context, orgID int64, todo []work, now time.Time) (int, error) {
	people, err := e.people(ctx, orgID)
	if err != nil {
		return 0, err
	}
	tz, err := orgZone(ctx, e.DB, orgID)
	if err != nil {
		return 0, err
	}
	rota, err := slots(ctx, e.DB, orgID)
	if err != nil {
		return 0, err
	}
	onCall := onCallAt(rota, zone(tz), now)
	type step struct {
		work
		users []*person
	}
	steps := make([]step, 0, len(todo))
	for _, w := range todo {
		st := w.rule.Steps[w.step]
		var ids []int64
		switch st.Target {
		case TargetOnCall:
			ids = onCall
		case TargetUser:
			ids = []int64{st.TargetID}
		case TargetDepartment:
			for _, u := range people.order {
				if people.byID[u].p.DeptID == st.TargetID {
					ids = append(ids, u)
				}
			}
		}
		var users []*person
		for _, id := range ids {
			u := people.byID[id]
			if u == nil {
				continue
			}
			if u.visible == nil {
				vis, err := station.VisibleIDs(ctx, e.DB, &u.p)
				if err != nil {
					return 0, err
				}
				u.visible = map[int64]bool{}
				for _, s := range vis {
					u.visible[s] = true
				}
			}
			if u.visible[w.a.StationID] {
				users = append(users, u)
			}
		}
		steps = append(steps, step{w, users})
	}
	var recs []message.Record
	wrote := false
	nowMs := now.UnixMilli()
	n := 0
	err = e.DB.InTx(ctx, func(tx *store.Tx) error {
		recs, wrote, n = nil, false, 0
		var news []message.New
		var rows []notify.Row
		for _, s := range steps {
			st := s.rule.Steps[s.step]
			ids := make([]string, len(s.users))
			names := make([]string, len(s.users))
			for i, u := range s.users {
				ids[i], names[i] = strconv.FormatInt(u.p.UserID, 10), u.name
			}
			res, err := tx.Exec(ctx, `INSERT INTO alarm_escalations (alarm_id, rule_id, step, org_id, target, users, at) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT DO NOTHING`, s.a.ID, s.rule.ID, s.step, orgID, st.Target, strings.Join(ids, ","), nowMs)
			if err != nil {
				return fmt.Errorf("escalate: unable to record a step: %w", err)
			}
			if k, _ := res.RowsAffected(); k == 0 {
				continue // taken meanwhile
			}
			n++
			ev := s.a.Alarm
			ev.Escalation = &notify.Escalation{Rule: s.rule.Name, Step: s.step + 1, AfterMinutes: st.AfterMinutes, Notified: names}
			if len(names) == 0 {
				ev.Escalation.Notified = []string{}
			}
			if err := e.Outbox.Enqueue(ctx, tx, orgID, notify.AlarmEscalated, s.a.ID, func() (any, error) { return ev, nil }); err != nil {
				return err
			}
			sub := s.a.StationName
			if s.a.DeviceName != "" {
				sub += " · " + s.a.DeviceName
			} else if s.a.DeviceSN != "" {
				sub += " · " + s.a.DeviceSN
			}
			data, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			for _, u := range s.users {
				news = append(news, message.New{UserID: u.p.UserID, OrgID: orgID, Kind: message.KindAlarm, Type: message.TypeNotice,
					Title:    message.Text{Key: "escalation_title", Args: []any{s.rule.Name, s.step + 1}},
					SubTitle: message.Plain(sub), Content: message.Text{Key: s.a.MsgKey, Args: s.a.Args}, Priority: 4,
					ProcessStatus: "pending", AlarmID: s.a.ID, EventAt: time.UnixMilli(s.a.occurred), Zone: s.a.TimeZone})
				if e.Outbox == nil {
					continue
				}
				for _, m := range u.methods {
					ch := ""
					switch m {
					case alarm.MethodAppPush:
						ch = notify.ChannelPush
					case alarm.MethodEmail:
						ch = notify.ChannelEmail
					}
					if ch != "" {
						rows = append(rows, notify.Row{OrgID: orgID, Channel: ch, Target: u.p.UserID, Event: notify.AlarmEscalated,
							SubjectID: s.a.ID, Data: json.RawMessage(data)})
					}
				}
			}
		}
		if len(news) > 0 {
			var err error
			if recs, err = e.Messages.InsertMany(ctx, tx, news); err != nil {
				return err
			}
		}
		if len(rows) > 0 {
			if err := e.Outbox.DirectMany(ctx, tx, rows); err != nil {
				return err
			}
		}
		wrote = n > 0
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(recs) > 0 {
		e.Messages.Announce(ctx, recs)
	}
	if wrote {
		e.Outbox.Wrote()
	}
	return n, nil
}

// orgPeople is an organisation's active users.
type orgPeople struct {
	byID  map[int64]*person
	order []int64
}

// people reads the organisation's active users with their notification methods.
func (e *Escalator) people(ctx context.Context, orgID int64) (*orgPeople, error) {
	rows, err := e.DB.Query(ctx, `SELECT u.id, u.org_id, COALESCE(u.dept_id, 0), u.username, u.role, u.station_authority,
		CASE WHEN u.name = '' THEN u.username ELSE u.name END, COALESCE(n.methods, '1')
		FROM users u LEFT JOIN alarm_notify_settings n ON n.user_id = u.id WHERE u.org_id = ? AND u.status = 1 ORDER BY u.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read users: %w", err)
	}
	defer rows.Close()
	out := &orgPeople{byID: map[int64]*person{}}
	for rows.Next() {
		u := &person{}
		var methods string
		if err := rows.Scan(&u.p.UserID, &u.p.OrgID, &u.p.DeptID, &u.p.Username, &u.p.Role, &u.p.StationAuthority, &u.name, &methods); err != nil {
			return nil, err
		}
		for _, m := range splitIDs(methods) {
			u.methods = append(u.methods, int(m))
		}
		out.byID[u.p.UserID] = u
		out.order = append(out.order, u.p.UserID)
	}
	sort.Slice(out.order, func(i, j int) bool { return out.order[i] < out.order[j] })
	return out, rows.Err()
}
