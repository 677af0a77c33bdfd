package alarm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
)

// Alarm events for the organisation's webhooks (internal/notify): written to the outbox in
// the transaction that opens, recovers or deals with the alarm, so a crash can neither lose
// one nor send one of a change that did not commit.

// alarmEvent writes event for the alarm id in tx (nothing when no webhook wants it).
func (e *Engine) alarmEvent(ctx context.Context, tx *store.Tx, orgID, id int64, event string) error {
	return e.opt.Outbox.Enqueue(ctx, tx, orgID, event, id, func() (any, error) { return eventData(ctx, tx, id) })
}

// eventData is the alarm as an event carries it, read in tx.
func eventData(ctx context.Context, tx *store.Tx, id int64) (notify.Alarm, error) {
	var a notify.Alarm
	var args string
	err := tx.QueryRow(ctx, `SELECT a.id, a.level, a.rule_key, a.msg_key, a.msg_args, a.station_id, s.name, s.timezone,
		COALESCE(a.device_sn, ''), COALESCE(a.device_name, ''), a.start_at, COALESCE(a.recovered_at, 0), COALESCE(a.deal_reason, ''),
		COALESCE((SELECT CASE WHEN u.name <> '' THEN u.name ELSE u.username END FROM users u WHERE u.id = a.dealt_by), '')
		FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.id = ?`, id).Scan(&a.ID, &a.Level, &a.Rule, &a.MsgKey, &args,
		&a.StationID, &a.StationName, &a.TimeZone, &a.DeviceSN, &a.DeviceName, &a.StartAt, &a.RecoveredAt, &a.DealReason, &a.DealtBy)
	if err != nil {
		return a, fmt.Errorf("alarm: unable to read an alarm for its event: %w", err)
	}
	_ = json.Unmarshal([]byte(args), &a.Args)
	return a, nil
}

// event is the alarm as an e-mail of its notification carries it.
func (a pendingAlarm) event() notify.Alarm {
	return notify.Alarm{ID: a.id, Level: a.level, Rule: a.rule, MsgKey: a.msgKey, Args: a.args, StationID: a.stationID,
		StationName: a.stationName, TimeZone: a.timezone, DeviceSN: a.devSN, DeviceName: a.devName, StartAt: a.start, RecoveredAt: a.recovered}
}
