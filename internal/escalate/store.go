package escalate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Store keeps the organisations' rules and rotas.
type Store struct {
	DB  *store.DB
	Now func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func joinIDs[T int | int64](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(parts, ",")
}

func splitIDs(s string) []int64 {
	out := []int64{}
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

const ruleColumns = "id, name, levels, stations, stop_on_recovery, enabled, steps, created_at, updated_at"

func scanRule(row interface{ Scan(...any) error }) (EscalationRule, error) {
	var r EscalationRule
	var levels, stations, steps string
	var stop, enabled int
	if err := row.Scan(&r.ID, &r.Name, &levels, &stations, &stop, &enabled, &steps, &r.CreatedAt, &r.UpdatedAt); err != nil {
		return r, err
	}
	r.StopOnRecovery, r.Enabled = stop == 1, enabled == 1
	r.StationIDs = splitIDs(stations)
	for _, l := range splitIDs(levels) {
		r.Levels = append(r.Levels, int(l))
	}
	if err := json.Unmarshal([]byte(steps), &r.Steps); err != nil {
		return r, fmt.Errorf("escalate: rule %d has unreadable steps: %w", r.ID, err)
	}
	return r, nil
}

// Rules lists an organisation's rules by name, their steps' targets named.
func (s *Store) Rules(ctx context.Context, orgID int64) ([]EscalationRule, error) {
	rows, err := s.DB.Query(ctx, "SELECT "+ruleColumns+" FROM escalation_rules WHERE org_id = ? ORDER BY name, id", orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to list rules: %w", err)
	}
	out := []EscalationRule{}
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.name(ctx, orgID, out)
}

// Rule reads one rule of the organisation (another's: store.ErrNotFound).
func (s *Store) Rule(ctx context.Context, orgID, id int64) (*EscalationRule, error) {
	r, err := scanRule(s.DB.QueryRow(ctx, "SELECT "+ruleColumns+" FROM escalation_rules WHERE id = ? AND org_id = ?", id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	list := []EscalationRule{r}
	if err := s.name(ctx, orgID, list); err != nil {
		return nil, err
	}
	return &list[0], nil
}

// name fills the steps' target names.
func (s *Store) name(ctx context.Context, orgID int64, rules []EscalationRule) error {
	users, err := s.names(ctx, "SELECT id, CASE WHEN name = '' THEN username ELSE name END FROM users WHERE org_id = ?", orgID)
	if err != nil {
		return err
	}
	depts, err := s.names(ctx, "SELECT id, name FROM departments WHERE org_id = ?", orgID)
	if err != nil {
		return err
	}
	for i := range rules {
		for j := range rules[i].Steps {
			st := &rules[i].Steps[j]
			switch st.Target {
			case TargetUser:
				st.TargetName = users[st.TargetID]
			case TargetDepartment:
				st.TargetName = depts[st.TargetID]
			}
		}
	}
	return nil
}

func (s *Store) names(ctx context.Context, q string, orgID int64) (map[int64]string, error) {
	rows, err := s.DB.Query(ctx, q, orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read names: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var n string
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// named lists (id, name) rows in the query's order.
func (s *Store) named(ctx context.Context, q string, orgID int64) ([]NamedRef, error) {
	rows, err := s.DB.Query(ctx, q, orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read names: %w", err)
	}
	defer rows.Close()
	out := []NamedRef{}
	for rows.Next() {
		var n NamedRef
		if err := rows.Scan(&n.ID, &n.Name); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Create adds a rule (validated, its targets checked: Check).
func (s *Store) Create(ctx context.Context, orgID int64, in EscalationRuleInput) (*EscalationRule, error) {
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM escalation_rules WHERE org_id = ?", orgID).Scan(&n); err != nil {
		return nil, fmt.Errorf("escalate: unable to count rules: %w", err)
	}
	if n >= MaxRules {
		return nil, ErrTooMany
	}
	steps, err := stepsColumn(in.Steps)
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	id, err := s.DB.Insert(ctx, `INSERT INTO escalation_rules (org_id, name, levels, stations, stop_on_recovery, enabled, steps, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, orgID, in.Name, joinIDs(in.Levels), joinIDs(in.StationIDs), boolInt(in.StopOnRecovery),
		boolInt(in.Enabled), steps, now, now)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to add a rule: %w", err)
	}
	return s.Rule(ctx, orgID, id)
}

// Update changes a rule. Steps already taken stay taken.
func (s *Store) Update(ctx context.Context, orgID, id int64, in EscalationRuleInput) (*EscalationRule, error) {
	steps, err := stepsColumn(in.Steps)
	if err != nil {
		return nil, err
	}
	res, err := s.DB.Exec(ctx, `UPDATE escalation_rules SET name = ?, levels = ?, stations = ?, stop_on_recovery = ?, enabled = ?, steps = ?,
		updated_at = ? WHERE id = ? AND org_id = ?`, in.Name, joinIDs(in.Levels), joinIDs(in.StationIDs), boolInt(in.StopOnRecovery),
		boolInt(in.Enabled), steps, s.now().UnixMilli(), id, orgID)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to change a rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, store.ErrNotFound
	}
	return s.Rule(ctx, orgID, id)
}

// Delete removes a rule with the record of its steps taken.
func (s *Store) Delete(ctx context.Context, orgID, id int64) error {
	res, err := s.DB.Exec(ctx, "DELETE FROM escalation_rules WHERE id = ? AND org_id = ?", id, orgID)
	if err != nil {
		return fmt.Errorf("escalate: unable to delete a rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func stepsColumn(steps []EscalationStep) (string, error) {
	stored := make([]EscalationStep, len(steps))
	for i, st := range steps {
		stored[i] = EscalationStep{AfterMinutes: st.AfterMinutes, Target: st.Target, TargetID: st.TargetID}
	}
	b, err := json.Marshal(stored)
	return string(b), err
}

// Unknown lists the input's references that are not the organisation's: "stationIds",
// "steps" (a user or department), in the order met.
func (s *Store) Unknown(ctx context.Context, orgID int64, in EscalationRuleInput) ([]string, error) {
	var out []string
	exists := func(q string, id int64) (bool, error) {
		var one int
		err := s.DB.QueryRow(ctx, q, id, orgID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
	for _, id := range in.StationIDs {
		ok, err := exists("SELECT 1 FROM stations WHERE id = ? AND org_id = ?", id)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, "stationIds")
			break
		}
	}
	for _, st := range in.Steps {
		q := ""
		switch st.Target {
		case TargetUser:
			q = "SELECT 1 FROM users WHERE id = ? AND org_id = ? AND status = 1"
		case TargetDepartment:
			q = "SELECT 1 FROM departments WHERE id = ? AND org_id = ?"
		default:
			continue
		}
		ok, err := exists(q, st.TargetID)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, "steps")
			break
		}
	}
	return out, nil
}

// rowQuerier is a database or a transaction.
type rowQuerier interface {
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
}

// orgZone reads the organisation's time zone.
func orgZone(ctx context.Context, db rowQuerier, orgID int64) (string, error) {
	var tz string
	if err := db.QueryRow(ctx, "SELECT timezone FROM organizations WHERE id = ?", orgID).Scan(&tz); err != nil {
		return "", fmt.Errorf("escalate: unable to read the organisation's zone: %w", err)
	}
	if tz == "" {
		tz = "UTC"
	}
	return tz, nil
}

// slots reads an organisation's rota.
func slots(ctx context.Context, db store.Querier, orgID int64) ([]slot, error) {
	rows, err := db.Query(ctx, `SELECT o.weekday, o.start_minute, o.end_minute, o.user_id FROM oncall_slots o JOIN users u ON u.id = o.user_id
		WHERE o.org_id = ? AND u.status = 1 ORDER BY o.weekday, o.start_minute, o.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read the rota: %w", err)
	}
	defer rows.Close()
	var out []slot
	for rows.Next() {
		var s slot
		if err := rows.Scan(&s.weekday, &s.start, &s.end, &s.user); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// OnCallRota reads the organisation's rota and who is on call now.
func (s *Store) OnCallRota(ctx context.Context, orgID int64) (*OnCallRota, error) {
	tz, err := orgZone(ctx, s.DB, orgID)
	if err != nil {
		return nil, err
	}
	names, err := s.names(ctx, "SELECT id, CASE WHEN name = '' THEN username ELSE name END FROM users WHERE org_id = ?", orgID)
	if err != nil {
		return nil, err
	}
	rows, err := s.DB.Query(ctx, `SELECT weekday, start_minute, end_minute, user_id FROM oncall_slots WHERE org_id = ?
		ORDER BY weekday, start_minute, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read the rota: %w", err)
	}
	out := &OnCallRota{TimeZone: tz, Slots: []OnCallSlot{}, OnCall: []NamedRef{}}
	for rows.Next() {
		var sl slot
		if err := rows.Scan(&sl.weekday, &sl.start, &sl.end, &sl.user); err != nil {
			rows.Close()
			return nil, err
		}
		out.Slots = append(out.Slots, OnCallSlot{Weekday: sl.weekday, Start: clock(sl.start), End: clock(sl.end), UserID: sl.user, UserName: names[sl.user]})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	active, err := slots(ctx, s.DB, orgID)
	if err != nil {
		return nil, err
	}
	for _, id := range onCallAt(active, zone(tz), s.now()) {
		out.OnCall = append(out.OnCall, NamedRef{ID: id, Name: names[id]})
	}
	if out.Users, err = s.named(ctx, "SELECT id, CASE WHEN name = '' THEN username ELSE name END FROM users WHERE org_id = ? AND status = 1 ORDER BY 2, 1", orgID); err != nil {
		return nil, err
	}
	if out.Departments, err = s.named(ctx, "SELECT id, name FROM departments WHERE org_id = ? ORDER BY name, id", orgID); err != nil {
		return nil, err
	}
	return out, nil
}

// SetRota replaces the organisation's slots (validated: every user the organisation's).
func (s *Store) SetRota(ctx context.Context, orgID int64, list []OnCallSlot) error {
	return s.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM oncall_slots WHERE org_id = ?", orgID); err != nil {
			return fmt.Errorf("escalate: unable to clear the rota: %w", err)
		}
		for _, sl := range list {
			start, _ := minuteOf(sl.Start)
			end, _ := minuteOf(sl.End)
			if _, err := tx.Exec(ctx, `INSERT INTO oncall_slots (org_id, weekday, start_minute, end_minute, user_id)
				SELECT ?, ?, ?, ?, id FROM users WHERE id = ? AND org_id = ?`, orgID, sl.Weekday, start, end, sl.UserID, orgID); err != nil {
				return fmt.Errorf("escalate: unable to write the rota: %w", err)
			}
		}
		return nil
	})
}

// UnknownUsers returns whether a slot names a user who is not an active user of the
// organisation.
func (s *Store) UnknownUsers(ctx context.Context, orgID int64, list []OnCallSlot) (bool, error) {
	seen := map[int64]bool{}
	for _, sl := range list {
		if seen[sl.UserID] {
			continue
		}
		seen[sl.UserID] = true
		var one int
		err := s.DB.QueryRow(ctx, "SELECT 1 FROM users WHERE id = ? AND org_id = ? AND status = 1", sl.UserID, orgID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
	return false, nil
}

// Log reads the organisation's latest steps taken, newest first.
func (s *Store) Log(ctx context.Context, orgID int64, limit int) ([]EscalationTaken, error) {
	names, err := s.names(ctx, "SELECT id, CASE WHEN name = '' THEN username ELSE name END FROM users WHERE org_id = ?", orgID)
	if err != nil {
		return nil, err
	}
	rows, err := s.DB.Query(ctx, `SELECT e.alarm_id, a.rule_key, a.level, st.name, st.timezone, e.rule_id, r.name, e.step, e.target, e.users, e.at
		FROM alarm_escalations e JOIN alarms a ON a.id = e.alarm_id JOIN stations st ON st.id = a.station_id
		JOIN escalation_rules r ON r.id = e.rule_id
		WHERE e.org_id = ? ORDER BY e.at DESC, e.alarm_id DESC, e.step DESC LIMIT ?`, orgID, limit)
	if err != nil {
		return nil, fmt.Errorf("escalate: unable to read the log: %w", err)
	}
	defer rows.Close()
	out := []EscalationTaken{}
	for rows.Next() {
		var t EscalationTaken
		var users string
		if err := rows.Scan(&t.AlarmID, &t.AlarmRule, &t.Level, &t.StationName, &t.TimeZone, &t.RuleID, &t.RuleName, &t.Step, &t.Target,
			&users, &t.At); err != nil {
			return nil, err
		}
		t.Step++
		t.Users = []NamedRef{}
		for _, id := range splitIDs(users) {
			t.Users = append(t.Users, NamedRef{ID: id, Name: names[id]})
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
