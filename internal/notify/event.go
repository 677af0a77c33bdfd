// Package notify delivers what happens in Helio to the places people look: an
// organisation's webhooks (Helio's JSON, Microsoft Teams, Slack). Every delivery is a row of
// one outbox, written in the transaction that decided it (the alarm opened, the work order
// moved), and sent by one worker per cluster, at least once, under the row's id: the
// receiver's idempotency key. docs/notifications.md.
package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// The events a webhook may subscribe to.
const (
	AlarmRaised           = "alarm.raised"
	AlarmRecovered        = "alarm.recovered"
	AlarmDealt            = "alarm.dealt"
	AlarmEscalated        = "alarm.escalated"
	WorkOrderCreated      = "workorder.created"
	WorkOrderTransitioned = "workorder.transitioned"
	ReportReady           = "report.ready"
	// Test is the event of a webhook's "send test": no subscription needed.
	Test = "test"
)

// Events are the events a webhook may subscribe to, in the order the console lists them.
var Events = []string{AlarmRaised, AlarmRecovered, AlarmDealt, AlarmEscalated, WorkOrderCreated, WorkOrderTransitioned, ReportReady}

// The outbox's channels: an organisation's webhook (target: the webhook), a user's e-mail
// (target: the user).
const (
	ChannelWebhook = "webhook"
	ChannelEmail   = "email"
)

// Alarm is what an alarm event carries, as stored when it happened (texts are put in the
// receiver's language when sent).
type Alarm struct {
	ID          int64  `json:"id"`
	Level       int    `json:"level"`
	Rule        string `json:"rule"`
	MsgKey      string `json:"msgKey"`
	Args        []any  `json:"args"`
	StationID   int64  `json:"stationId"`
	StationName string `json:"stationName"`
	TimeZone    string `json:"timeZone"`
	DeviceSN    string `json:"deviceSn"`
	DeviceName  string `json:"deviceName"`
	StartAt     int64  `json:"startAt"`
	RecoveredAt int64  `json:"recoveredAt"`
	DealReason  string `json:"dealReason"`
	DealtBy     string `json:"dealtBy"`
	// Escalation is the step an alarm.escalated event tells of.
	Escalation *Escalation `json:"escalation,omitempty"`
}

// Escalation is one escalation step taken (internal/escalate).
type Escalation struct {
	Rule         string   `json:"rule"`
	Step         int      `json:"step"`
	AfterMinutes int      `json:"afterMinutes"`
	Notified     []string `json:"notified"`
}

// WorkOrder is what a work-order event carries.
type WorkOrder struct {
	ID          int64  `json:"id"`
	Number      string `json:"number"`
	Title       string `json:"title"`
	Status      int    `json:"status"`
	Action      string `json:"action"` // the transition (workorder.transitioned)
	StationID   int64  `json:"stationId"`
	StationName string `json:"stationName"`
	TimeZone    string `json:"timeZone"`
	By          string `json:"by"`
	At          int64  `json:"at"`
}

// Report is what a report.ready event carries.
type Report struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Format string `json:"format"`
	At     int64  `json:"at"`
}

// Outbox writes deliveries. Its zero value is not usable: Now may be nil (time.Now).
type Outbox struct {
	Now func() time.Time
	// Wake, when set, is told that a delivery was written (the worker looks at once).
	Wake func()
}

func (o *Outbox) now() time.Time {
	if o == nil || o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Enqueue writes, in tx, one delivery of event to each enabled webhook of the organisation
// that subscribed to it; build makes the event's data (called only when one did). A nil
// Outbox writes nothing.
func (o *Outbox) Enqueue(ctx context.Context, tx *store.Tx, orgID int64, event string, subjectID int64, build func() (any, error)) error {
	if o == nil {
		return nil
	}
	rows, err := tx.Query(ctx, "SELECT id FROM webhooks WHERE org_id = ? AND enabled = 1 AND events LIKE ? ORDER BY id", orgID, "%,"+event+",%")
	if err != nil {
		return fmt.Errorf("notify: unable to read webhooks: %w", err)
	}
	var targets []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		targets = append(targets, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(targets) == 0 {
		return nil
	}
	data, err := build()
	if err != nil {
		return err
	}
	for _, id := range targets {
		if _, err := o.insert(ctx, tx, orgID, id, event, subjectID, data); err != nil {
			return err
		}
	}
	return nil
}

// insert writes one webhook delivery due now and returns its id.
func (o *Outbox) insert(ctx context.Context, tx *store.Tx, orgID, webhookID int64, event string, subjectID int64, data any) (int64, error) {
	return o.Direct(ctx, tx, orgID, ChannelWebhook, webhookID, event, subjectID, data)
}

// Direct writes, in tx, one delivery of event to one target of a channel (a user's e-mail:
// the notification decided for them), due now, and returns its id.
func (o *Outbox) Direct(ctx context.Context, tx *store.Tx, orgID int64, channel string, target int64, event string, subjectID int64, data any) (int64, error) {
	payload, err := json.Marshal(data)
	if err != nil {
		return 0, err
	}
	now := o.now().UnixMilli()
	id, err := tx.Insert(ctx, `INSERT INTO notify_outbox (org_id, channel, target_id, event, subject_id, payload, state, next_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`, orgID, channel, target, event, subjectID, string(payload), now, now)
	if err != nil {
		return 0, fmt.Errorf("notify: unable to write a delivery: %w", err)
	}
	return id, nil
}

// Row is one delivery of DirectMany.
type Row struct {
	OrgID, Target, SubjectID int64
	Channel, Event           string
	Data                     any
}

// DirectMany writes many deliveries in tx, a few hundred rows per statement (a notification
// pass of a storm decides hundreds of thousands). The e-mails of a user with a digest are
// due when the period of their own alarm ends: the sender does not look at them, nor put
// them off one by one, before (mailTo sends everything waiting once the oldest is due).
//
// The pushes of one event to several users are one row (a fan-out row, target 0, the users
// in its payload): the push sender gives each user their part (pushsend.go).
func (o *Outbox) DirectMany(ctx context.Context, tx *store.Tx, rows []Row) error {
	now := o.now().UnixMilli()
	digest, err := digests(ctx, tx, rows)
	if err != nil {
		return err
	}
	if rows, err = fanPushes(rows); err != nil {
		return err
	}
	for start := 0; start < len(rows); start += 200 {
		chunk := rows[start:min(start+200, len(rows))]
		args := make([]any, 0, 8*len(chunk))
		for _, r := range chunk {
			payload, ok := r.Data.(json.RawMessage)
			if !ok {
				var err error
				if payload, err = json.Marshal(r.Data); err != nil {
					return err
				}
			}
			next := now
			if r.Channel == ChannelEmail && r.Event != AlarmEscalated { // an escalation does not wait for a digest
				next += digest[r.Target] * time.Minute.Milliseconds()
			}
			args = append(args, r.OrgID, r.Channel, r.Target, r.Event, r.SubjectID, string(payload), next, now)
		}
		q := "INSERT INTO notify_outbox (org_id, channel, target_id, event, subject_id, payload, state, next_at, created_at) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, 'pending', ?, ?), ", len(chunk)), ", ")
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("notify: unable to write deliveries: %w", err)
		}
	}
	return nil
}

// fanPushes puts the push rows of one event (organisation, event, subject and data) to
// several users into one fan-out row.
func fanPushes(rows []Row) ([]Row, error) {
	type key struct {
		org, subject int64
		event, data  string
	}
	out := make([]Row, 0, len(rows))
	users := map[key][]int64{}
	var keys []key
	for _, r := range rows {
		if r.Channel != ChannelPush {
			out = append(out, r)
			continue
		}
		payload, ok := r.Data.(json.RawMessage)
		if !ok {
			var err error
			if payload, err = json.Marshal(r.Data); err != nil {
				return nil, err
			}
		}
		k := key{r.OrgID, r.SubjectID, r.Event, string(payload)}
		if _, ok := users[k]; !ok {
			keys = append(keys, k)
		}
		users[k] = append(users[k], r.Target)
	}
	for _, k := range keys {
		r := Row{OrgID: k.org, Channel: ChannelPush, SubjectID: k.subject, Event: k.event, Data: json.RawMessage(k.data)}
		if us := users[k]; len(us) == 1 {
			r.Target = us[0]
		} else {
			b, err := json.Marshal(fanOut{Users: us, Data: json.RawMessage(k.data)})
			if err != nil {
				return nil, err
			}
			r.Data = json.RawMessage(b)
		}
		out = append(out, r)
	}
	return out, nil
}

// digests are the digest periods (minutes) of the users the rows e-mail, those with one.
func digests(ctx context.Context, tx *store.Tx, rows []Row) (map[int64]int64, error) {
	seen := map[int64]bool{}
	var users []any
	for _, r := range rows {
		if r.Channel == ChannelEmail && !seen[r.Target] {
			seen[r.Target] = true
			users = append(users, r.Target)
		}
	}
	out := map[int64]int64{}
	for start := 0; start < len(users); start += 500 {
		chunk := users[start:min(start+500, len(users))]
		list, err := tx.Query(ctx, "SELECT user_id, digest_minutes FROM alarm_notify_settings WHERE digest_minutes > 0 AND user_id IN ("+
			strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")+")", chunk...)
		if err != nil {
			return nil, fmt.Errorf("notify: unable to read digest periods: %w", err)
		}
		for list.Next() {
			var id, m int64
			if err := list.Scan(&id, &m); err != nil {
				list.Close()
				return nil, err
			}
			out[id] = m
		}
		list.Close()
		if err := list.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Wrote tells the worker that deliveries were committed (call after the transaction).
func (o *Outbox) Wrote() {
	if o != nil && o.Wake != nil {
		o.Wake()
	}
}
