package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// ChannelPush is the outbox channel of app push (method 2): target the user, sent to every
// browser they subscribed.
const ChannelPush = "push"

// PushMessage is what the console's service worker receives and shows.
type PushMessage struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the console route the notification opens ("/alarm?detail=41").
	URL   string `json:"url"`
	Tag   string `json:"tag"`
	Level int    `json:"level"`
	ID    string `json:"id"` // the delivery id (of a summary: its oldest delivery's)
	// Count is how many alarms a summary stands for (0: one alarm, the message itself).
	Count int `json:"count,omitempty"`
}

// pushMessage is d as a notification in lang.
func pushMessage(d Delivery, lang string) (PushMessage, error) {
	m, err := describe(d, lang, "")
	if err != nil {
		return PushMessage{}, err
	}
	var parts []string
	for _, f := range m.facts {
		if f[1] != "" {
			parts = append(parts, f[1])
		}
	}
	out := PushMessage{Title: m.title, Body: strings.Join(parts, " · "), Tag: d.Event + "-" + fmt.Sprint(d.SubjectID), ID: DeliveryID(d.ID)}
	var a Alarm
	if strings.HasPrefix(d.Event, "alarm.") && json.Unmarshal([]byte(d.Payload), &a) == nil {
		out.URL, out.Level = fmt.Sprintf("/alarm?detail=%d", a.ID), a.Level
	}
	return out, nil
}

// The push sender's pace: pushes go in rounds, one user's deliveries in one push (a summary
// when there are several), and a round starts at most PushGap after the last push. So the
// first alarm after a quiet PushGap goes at once, and what comes within it waits for the
// next round and goes as one summary ("12 new alarms", opening the alarm list): a user gets
// at most one push per PushGap, and a storm costs the sender a few pushes per user, not one
// per alarm. Waiting writes nothing: the deliveries stay due, and the sender does not look
// at them until the round. A round takes the deliveries due when it starts (at most
// roundRows rows); each pass pushes to at most pushUsers of its users (an encryption and a
// request per subscribed browser each), the next pass goes on with the others.
//
// An alarm pushed to several users is one row (a fan-out row: target 0, the users in its
// payload, written by DirectMany); the round gives each of its users their part. The row is
// settled once each of its users has been pushed, given up (a row of their own, failed, says
// why) or given a row of their own to try again (under the fan-out row's delivery id).
const (
	PushGap   = 30 * time.Second
	roundRows = 200_000
	pushUsers = 25
)

// pushItem is one user's delivery in a round.
type pushItem struct {
	Delivery
	fan    bool  // the user's part of a fan-out row (ID: the row's)
	origin int64 // a retry row of a fan-out row's part: the fan-out row (its delivery id)
}

// key is the delivery's id as the receiver sees it, the same on every attempt.
func (it pushItem) key() int64 {
	if it.origin != 0 {
		return it.origin
	}
	return it.ID
}

// fanOut is the payload of a fan-out row.
type fanOut struct {
	Users []int64         `json:"users"`
	Data  json.RawMessage `json:"data"`
}

// retryOf is the payload of a user's row made from their part of a fan-out row.
type retryOf struct {
	Origin int64           `json:"origin"`
	Data   json.RawMessage `json:"data"`
}

// pushRound is the push sender's state between passes (in memory: after a restart the first
// round starts at once and takes what is due, so nothing waits for it).
type pushRound struct {
	last  time.Time            // when a push last went
	users []int64              // the users the round has still to push, in order
	rows  map[int64][]pushItem // their deliveries (their own rows' payloads read when pushed)
	fans  map[int64]*fanState  // the round's fan-out rows
}

type fanState struct {
	Delivery
	left int  // users not pushed yet
	took bool // a browser of one of them took it
}

// pushPass starts a round when one is due, or goes on with the one started; it returns how
// many deliveries it settled or tried.
func (w *Worker) pushPass(ctx context.Context) (int, error) {
	if w.Push == nil {
		return 0, nil
	}
	now := w.now()
	w.pushMu.Lock()
	defer w.pushMu.Unlock()
	r := &w.round
	if len(r.users) == 0 {
		if now.Before(r.last.Add(PushGap)) {
			return 0, nil // within the gap: what is due waits for the next round
		}
		if err := w.startRound(ctx, now); err != nil || len(r.users) == 0 {
			return 0, err
		}
	}
	v, err := w.Push.Get(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for i := 0; i < pushUsers && len(r.users) > 0; i++ {
		uid := r.users[0]
		list := r.rows[uid]
		if err := w.payloads(ctx, list); err != nil {
			return n, err
		}
		took, err := w.pushTo(ctx, v, uid, list)
		if err != nil {
			return n, err // the user is tried again in the next pass
		}
		r.users = r.users[1:]
		delete(r.rows, uid)
		if took {
			r.last = now
		}
		n += len(list)
		if err := w.fansDone(ctx, list, took); err != nil {
			return n, err
		}
	}
	return n, nil
}

// fansDone counts a user's parts of fan-out rows as done and settles the rows done for all
// their users.
func (w *Worker) fansDone(ctx context.Context, list []pushItem, took bool) error {
	var done []Delivery
	status := 0
	for _, it := range list {
		f := w.round.fans[it.ID]
		if !it.fan || f == nil {
			continue
		}
		f.left--
		f.took = f.took || took
		if f.left == 0 {
			done = append(done, f.Delivery)
			if f.took {
				status = 201
			}
			delete(w.round.fans, it.ID)
		}
	}
	if len(done) == 0 {
		return nil
	}
	return w.settle(ctx, done, "", status, 0)
}

// startRound takes the push deliveries due at now into the round, by user.
func (w *Worker) startRound(ctx context.Context, now time.Time) error {
	rows, err := w.DB.Query(ctx, `SELECT id, org_id, target_id, event, subject_id, created_at, attempts FROM notify_outbox
		WHERE channel = 'push' AND state = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT ?`, now.UnixMilli(), roundRows)
	if err != nil {
		return fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	type row struct {
		Delivery
		uid int64
	}
	var all []row
	var fans []pushItem
	for rows.Next() {
		var x row
		if err := rows.Scan(&x.ID, &x.OrgID, &x.uid, &x.Event, &x.SubjectID, &x.CreatedAt, &x.Attempts); err != nil {
			rows.Close()
			return err
		}
		all = append(all, x)
		if x.uid == 0 {
			fans = append(fans, pushItem{Delivery: x.Delivery})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := w.payloads(ctx, fans); err != nil {
		return err
	}
	r := &w.round
	r.users, r.rows, r.fans = nil, map[int64][]pushItem{}, map[int64]*fanState{}
	add := func(uid int64, it pushItem) {
		if _, ok := r.rows[uid]; !ok {
			r.users = append(r.users, uid)
		}
		r.rows[uid] = append(r.rows[uid], it)
	}
	payload := map[int64]string{}
	for _, f := range fans {
		payload[f.ID] = f.Payload
	}
	for _, x := range all {
		if x.uid != 0 {
			add(x.uid, pushItem{Delivery: x.Delivery})
			continue
		}
		var f fanOut
		if err := json.Unmarshal([]byte(payload[x.ID]), &f); err != nil || len(f.Users) == 0 {
			if err := w.settle(ctx, []Delivery{x.Delivery}, "unreadable fan-out delivery", 0, 0); err != nil {
				return err
			}
			continue
		}
		r.fans[x.ID] = &fanState{Delivery: x.Delivery, left: len(f.Users)}
		for _, uid := range f.Users {
			it := pushItem{Delivery: x.Delivery, fan: true}
			it.Payload = string(f.Data)
			add(uid, it)
		}
	}
	return nil
}

// payloads reads the payloads of the deliveries of their own rows, a few hundred a
// statement (the users' parts of fan-out rows have theirs).
func (w *Worker) payloads(ctx context.Context, list []pushItem) error {
	at := make(map[int64]int, len(list))
	var ids []any
	for i, it := range list {
		if !it.fan {
			at[it.ID] = i
			ids = append(ids, it.ID)
		}
	}
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		rows, err := w.DB.Query(ctx, "SELECT id, payload FROM notify_outbox WHERE id IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")+")", chunk...)
		if err != nil {
			return fmt.Errorf("notify: unable to read the outbox: %w", err)
		}
		for rows.Next() {
			var id int64
			var payload string
			if err := rows.Scan(&id, &payload); err != nil {
				rows.Close()
				return err
			}
			it := &list[at[id]]
			it.Payload = payload
			var o retryOf
			if strings.HasPrefix(payload, `{"origin":`) && json.Unmarshal([]byte(payload), &o) == nil && o.Origin != 0 {
				it.origin, it.Payload = o.Origin, string(o.Data)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// pushTo sends the user's deliveries as one push to every browser of theirs: sent when one
// browser took it; a browser whose subscription is gone (404, 410) is forgotten. It says
// whether a browser took it.
func (w *Worker) pushTo(ctx context.Context, v *VAPID, uid int64, list []pushItem) (bool, error) {
	u, err := w.recipient(ctx, uid)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && !u.okay:
		return false, w.pushSettle(ctx, uid, list, "the user is no longer active", 0, 0)
	case err != nil:
		return false, err
	}
	msg, list, err := w.pushOf(ctx, uid, list, u.locale)
	if err != nil || len(list) == 0 {
		return false, err
	}
	payload, _ := json.Marshal(msg)
	rows, err := w.DB.Query(ctx, "SELECT id, endpoint, p256dh, auth FROM webpush_subscriptions WHERE user_id = ? ORDER BY id", uid)
	if err != nil {
		return false, err
	}
	type sub struct {
		id int64
		Subscription
	}
	var subs []sub
	for rows.Next() {
		var s sub
		if err := rows.Scan(&s.id, &s.Endpoint, &s.P256dh, &s.Auth); err != nil {
			rows.Close()
			return false, err
		}
		subs = append(subs, s)
	}
	rows.Close()
	if len(subs) == 0 {
		return false, w.pushSettle(ctx, uid, list, "the user has no browser subscribed to app push", 0, 0)
	}
	urgency := "normal"
	if msg.Level >= 2 {
		urgency = "high"
	}
	topic := ""
	if msg.Count > 1 {
		topic = summaryTopic // the push service keeps only the newest summary it could not hand over yet
	}
	start := w.now()
	took, delivered, gone, status := time.Duration(0), 0, 0, 0
	var last error
	for _, s := range subs {
		st, err := w.push(ctx, v, s.Subscription, payload, urgency, topic, 24*time.Hour)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		status = st
		switch {
		case err == nil:
			delivered++
		case errors.Is(err, ErrGone):
			gone++
			if _, err := w.DB.Exec(ctx, "DELETE FROM webpush_subscriptions WHERE id = ?", s.id); err != nil {
				return false, err
			}
		default:
			last = err
		}
	}
	took = w.now().Sub(start)
	switch {
	case delivered > 0:
		return true, w.pushSettle(ctx, uid, list, "", max(status, 201), took)
	case gone == len(subs):
		return false, w.pushSettle(ctx, uid, list, "every subscribed browser has gone", 0, 0)
	}
	return false, w.pushRetry(ctx, uid, list, last, status, start, took)
}

// pushSettle ends the user's deliveries: their own rows sent or failed (settle); their parts
// of fan-out rows need nothing written when sent, and a failed row of the user's own, saying
// why, when given up.
func (w *Worker) pushSettle(ctx context.Context, uid int64, list []pushItem, reason string, status int, took time.Duration) error {
	var own []Delivery
	var parts []pushItem
	for _, it := range list {
		if it.fan {
			parts = append(parts, it)
		} else {
			own = append(own, it.Delivery)
		}
	}
	if len(own) > 0 {
		if err := w.settle(ctx, own, reason, status, took); err != nil {
			return err
		}
	}
	if reason == "" || len(parts) == 0 {
		return nil
	}
	now := w.now().UnixMilli()
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, it := range parts {
			if _, err := w.ownRow(ctx, tx, uid, it, "failed", 0, now, now, reason); err != nil {
				return err
			}
		}
		return nil
	})
}

// pushRetry logs a failed attempt of the user's deliveries and sets their next one: their
// own rows by retry; their parts of fan-out rows become rows of their own, tried again under
// the fan-out row's delivery id.
func (w *Worker) pushRetry(ctx context.Context, uid int64, list []pushItem, cause error, status int, start time.Time, took time.Duration) error {
	var own []Delivery
	var parts []pushItem
	for _, it := range list {
		if it.fan {
			parts = append(parts, it)
		} else {
			own = append(own, it.Delivery)
		}
	}
	if len(own) > 0 {
		if err := w.retry(ctx, own, cause, status, start, took); err != nil {
			return err
		}
	}
	if len(parts) == 0 {
		return nil
	}
	text := cause.Error()
	if len(text) > 500 {
		text = text[:500]
	}
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, it := range parts {
			state, next, done := "pending", start.Add(Backoff(1)).UnixMilli(), int64(0)
			if next > it.CreatedAt+RetryFor.Milliseconds() {
				state, next, done = "failed", start.UnixMilli(), start.UnixMilli()
			}
			id, err := w.ownRow(ctx, tx, uid, it, state, 1, next, done, text)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO notify_attempts (outbox_id, attempt, at, status, duration_ms, error) VALUES (?, 1, ?, ?, ?, ?)`,
				id, start.UnixMilli(), status, took.Milliseconds(), text); err != nil {
				return err
			}
		}
		return nil
	})
}

// ownRow writes the user's part of a fan-out row as a row of their own (created when the
// fan-out row was, so that it is given up when that one would be).
func (w *Worker) ownRow(ctx context.Context, tx *store.Tx, uid int64, it pushItem, state string, attempts int, next, done int64, reason string) (int64, error) {
	payload, err := json.Marshal(retryOf{Origin: it.key(), Data: json.RawMessage(it.Payload)})
	if err != nil {
		return 0, err
	}
	return tx.Insert(ctx, `INSERT INTO notify_outbox (org_id, channel, target_id, event, subject_id, payload, state, attempts, next_at, created_at, done_at, last_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, it.OrgID, ChannelPush, uid, it.Event, it.SubjectID, string(payload), state, attempts, next, it.CreatedAt, done, reason)
}

// pushOf is the push of the user's deliveries in lang: one alarm as itself, several as a
// summary. A delivery that cannot be put into words is given up (saying why) and left out;
// the deliveries the push stands for are returned.
func (w *Worker) pushOf(ctx context.Context, uid int64, list []pushItem, lang string) (PushMessage, []pushItem, error) {
	var ok []pushItem
	level := 0
	for _, it := range list {
		var a struct {
			Level int `json:"level"`
		}
		if err := json.Unmarshal([]byte(it.Payload), &a); err != nil {
			if err := w.pushSettle(ctx, uid, []pushItem{it}, err.Error(), 0, 0); err != nil {
				return PushMessage{}, nil, err
			}
			continue
		}
		ok = append(ok, it)
		level = max(level, a.Level)
	}
	// the newest in words (a summary shows its title)
	for len(ok) > 0 {
		newest := 0
		for i, it := range ok {
			if it.key() > ok[newest].key() {
				newest = i
			}
		}
		m, err := pushMessage(ok[newest].Delivery, lang)
		if err == nil {
			if len(ok) == 1 {
				m.ID = DeliveryID(ok[0].key())
				return m, ok, nil
			}
			return summary(ok, level, m.Title, lang), ok, nil
		}
		if err := w.pushSettle(ctx, uid, []pushItem{ok[newest]}, err.Error(), 0, 0); err != nil {
			return PushMessage{}, nil, err
		}
		ok = append(ok[:newest], ok[newest+1:]...)
	}
	return PushMessage{}, nil, nil
}
