package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/helio-energy/helio/internal/store"
)

// What a notification pass reads and writes: the alarms it looks at, and the decisions
// taken for each (alarm, user) pair.

// dueAlarms reads the alarms a pass looks at: the given ones (opened just now), or, for
// the sweep (ids nil), the occurring alarms that can still be due and the first passes
// left undone for longer than notifyGrace.
func (e *Engine) dueAlarms(ctx context.Context, ids []int64, nowMs int64) ([]pendingAlarm, error) {
	q := `SELECT a.id, a.org_id, a.station_id, a.level, a.start_at, COALESCE(a.recovered_at, 0), a.notify_pending, a.rule_key,
		a.device_name, a.device_sn, s.name, a.occurred_at, s.timezone, a.msg_key, a.msg_args FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.replayed = 0`
	var args []any
	if ids != nil {
		if len(ids) == 0 {
			return nil, nil
		}
		q += " AND a.id IN (" + placeholders(len(ids)) + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	} else {
		// The longest delay is an hour: older alarms were due before the window.
		q += " AND (a.notify_pending = 0 AND a.status = 1 AND a.start_at >= ? OR a.notify_pending = 1 AND a.occurred_at < ?)"
		args = append(args, nowMs-(e.opt.NotifyWindow+Delay(FrequencyLow)).Milliseconds(), nowMs-notifyGrace.Milliseconds())
	}
	rows, err := e.db.Query(ctx, q+" ORDER BY a.start_at, a.id", args...)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read occurring alarms: %w", err)
	}
	defer rows.Close()
	var alarms []pendingAlarm
	for rows.Next() {
		var a pendingAlarm
		var rawArgs string
		var pending int
		if err := rows.Scan(&a.id, &a.orgID, &a.stationID, &a.level, &a.start, &a.recovered, &pending, &a.rule, &a.devName, &a.devSN,
			&a.stationName, &a.occurred, &a.timezone, &a.msgKey, &rawArgs); err != nil {
			return nil, err
		}
		a.pending = pending == 1
		_ = json.Unmarshal([]byte(rawArgs), &a.args)
		alarms = append(alarms, a)
	}
	return alarms, rows.Err()
}

// decision is one (alarm, user) pair decided: sent by the methods of one bit mask, held
// back from those of the other (outcome limited: held back from every method chosen).
type decision struct {
	user, alarm   int64
	outcome       string
	methods, held int
}

// recordDecisions writes the decisions, a statement per alarm, outcome and thousand users.
func recordDecisions(ctx context.Context, tx *store.Tx, decs []decision, nowMs int64) error {
	type group struct {
		alarm         int64
		outcome       string
		methods, held int
	}
	users := map[group][]int64{}
	var order []group
	for _, d := range decs {
		g := group{d.alarm, d.outcome, d.methods, d.held}
		if _, ok := users[g]; !ok {
			order = append(order, g)
		}
		users[g] = append(users[g], d.user)
	}
	for _, g := range order {
		list := users[g]
		for start := 0; start < len(list); start += 1000 {
			chunk := list[start:min(start+1000, len(list))]
			args := make([]any, 0, 5+len(chunk))
			args = append(args, g.alarm, g.outcome, nowMs, g.methods, g.held)
			for _, u := range chunk {
				args = append(args, u)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO alarm_notifications (alarm_id, user_id, outcome, created_at, methods, held)
				SELECT CAST(? AS BIGINT), v.column1, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS INTEGER)
				FROM (VALUES (CAST(? AS BIGINT))`+
				strings.Repeat(", (?)", len(chunk)-1)+`) AS v WHERE true ON CONFLICT DO NOTHING`, args...); err != nil {
				return fmt.Errorf("alarm: unable to record notifications: %w", err)
			}
		}
	}
	return nil
}
