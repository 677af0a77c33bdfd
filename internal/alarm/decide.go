package alarm

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
)

// sentToday counts the notifications sent to each user by each method during their
// current local day: one grouped query per time zone and few hundred users.
func sentToday(ctx context.Context, tx *store.Tx, work []due, now time.Time) (map[int64]methodCounts, error) {
	out := map[int64]methodCounts{}
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
			rows, err := tx.Query(ctx, `SELECT user_id, SUM(CASE WHEN methods & 2 <> 0 THEN 1 ELSE 0 END),
				SUM(CASE WHEN methods & 4 <> 0 THEN 1 ELSE 0 END), SUM(CASE WHEN methods & 8 <> 0 THEN 1 ELSE 0 END)
				FROM alarm_notifications WHERE outcome = 'sent'
				AND created_at >= ? AND created_at < ? AND user_id IN (`+placeholders(len(chunk))+`) GROUP BY user_id`, args...)
			if err != nil {
				return nil, fmt.Errorf("alarm: unable to count notifications: %w", err)
			}
			for rows.Next() {
				var u int64
				var n methodCounts
				if err := rows.Scan(&u, &n[MethodInSite], &n[MethodAppPush], &n[MethodEmail]); err != nil {
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
func decided(ctx context.Context, tx *store.Tx, alarms []pendingAlarm) (map[[2]int64]bool, error) {
	out := map[[2]int64]bool{}
	for start := 0; start < len(alarms); start += 500 {
		chunk := alarms[start:min(start+500, len(alarms))]
		args := make([]any, len(chunk))
		for i, a := range chunk {
			args[i] = a.id
		}
		rows, err := tx.Query(ctx, "SELECT alarm_id, user_id FROM alarm_notifications WHERE alarm_id IN ("+placeholders(len(chunk))+")", args...)
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
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// alarmMessage is the message that tells a user about an alarm.
func (e *Engine) alarmMessage(a pendingAlarm) message.New {
	sub := a.stationName
	if a.devName != "" {
		sub += " · " + a.devName
	} else if a.devSN != "" {
		sub += " · " + a.devSN
	}
	return message.New{
		OrgID: a.orgID, Kind: message.KindAlarm, Type: message.TypeNotice,
		Title: message.Text{Key: "alarm_rule_" + a.rule}, SubTitle: message.Plain(sub),
		Content: message.Text{Key: a.msgKey, Args: a.args}, Priority: priorityOf(a.level),
		ProcessStatus: "pending", AlarmID: a.id, EventAt: time.UnixMilli(a.occurred), Zone: a.timezone,
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
