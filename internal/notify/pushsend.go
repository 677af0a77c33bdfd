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
// when there are several), and a round starts at most PushGap after the last one that
// pushed. So the first alarm after a quiet PushGap goes at once, and what comes within it
// waits for the next round and goes as one summary ("12 new alarms", opening the alarm
// list): a user gets at most one push per PushGap, and a storm costs the sender a few
// pushes per user, not one per alarm. Waiting writes nothing: the deliveries stay due; the
// sender does not look at them until the round. One pass reads at most pushRows
// deliveries and pushes to at most pushUsers users (an encryption and a request per
// subscribed browser each); a round larger than that goes on in the next passes.
const (
	PushGap   = 30 * time.Second
	pushRows  = 5000
	pushUsers = 25
)

// pushRound is the push sender's state between passes (in memory: after a restart the
// first round starts at once).
type pushRound struct {
	last time.Time // when a round last pushed
	upTo int64     // a round going on: the deliveries it takes (ids up to this; 0: none going on)
}

// pushPass makes (or goes on with) a round when one is due; it returns how many deliveries
// it settled or tried.
func (w *Worker) pushPass(ctx context.Context) (int, error) {
	if w.Push == nil {
		return 0, nil
	}
	now := w.now()
	w.pushMu.Lock()
	round := w.round
	w.pushMu.Unlock()
	if round.upTo == 0 {
		if now.Before(round.last.Add(PushGap)) {
			return 0, nil // within the gap: what is due waits for the next round
		}
		// the round takes what is written by now; what comes during it waits for the next
		if err := w.DB.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM notify_outbox").Scan(&round.upTo); err != nil {
			return 0, err
		}
	}
	rows, err := w.DB.Query(ctx, `SELECT id, org_id, target_id, event, subject_id, payload, created_at, attempts FROM notify_outbox
		WHERE channel = 'push' AND state = 'pending' AND next_at <= ? AND id <= ? ORDER BY next_at, id LIMIT ?`, now.UnixMilli(), round.upTo, pushRows)
	if err != nil {
		return 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	byUser := map[int64][]Delivery{}
	var users []int64
	read := 0
	for rows.Next() {
		var d Delivery
		var uid int64
		if err := rows.Scan(&d.ID, &d.OrgID, &uid, &d.Event, &d.SubjectID, &d.Payload, &d.CreatedAt, &d.Attempts); err != nil {
			rows.Close()
			return 0, err
		}
		read++
		if _, ok := byUser[uid]; !ok {
			users = append(users, uid)
		}
		byUser[uid] = append(byUser[uid], d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// the round ends with this pass unless it leaves deliveries for the next
	more := read == pushRows || len(users) > pushUsers
	users = users[:min(len(users), pushUsers)]
	defer func() {
		w.pushMu.Lock()
		defer w.pushMu.Unlock()
		if !more {
			round.upTo = 0
		}
		w.round = round
	}()
	if len(users) == 0 {
		return 0, nil
	}
	v, err := w.Push.Get(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, uid := range users {
		list := byUser[uid]
		took, err := w.pushTo(ctx, v, uid, list)
		if err != nil {
			return n, err
		}
		if took {
			round.last = now
		}
		n += len(list)
	}
	return n, nil
}

// pushTo sends the user's deliveries as one push to every browser of theirs: sent when one
// browser took it; a browser whose subscription is gone (404, 410) is forgotten.
func (w *Worker) pushTo(ctx context.Context, v *VAPID, uid int64, list []Delivery) (bool, error) {
	u, err := w.recipient(ctx, uid)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && !u.okay:
		return false, w.settle(ctx, list, "the user is no longer active", 0, 0)
	case err != nil:
		return false, err
	}
	msg, list, err := w.pushOf(ctx, list, u.locale)
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
		return false, w.settle(ctx, list, "the user has no browser subscribed to app push", 0, 0)
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
		return true, w.settle(ctx, list, "", max(status, 201), took)
	case gone == len(subs):
		return false, w.settle(ctx, list, "every subscribed browser has gone", 0, 0)
	}
	return false, w.retry(ctx, list, last, status, start, took)
}

// pushOf is the push of the user's deliveries in lang: one alarm as itself, several as a
// summary. A delivery that cannot be put into words is given up (saying why) and left out;
// the deliveries the push stands for are returned.
func (w *Worker) pushOf(ctx context.Context, list []Delivery, lang string) (PushMessage, []Delivery, error) {
	if len(list) == 1 {
		msg, err := pushMessage(list[0], lang)
		if err != nil {
			return msg, nil, w.settle(ctx, list, err.Error(), 0, 0)
		}
		return msg, list, nil
	}
	var ok []Delivery
	var msgs []PushMessage
	for _, d := range list {
		m, err := pushMessage(d, lang)
		if err != nil {
			if err := w.settle(ctx, []Delivery{d}, err.Error(), 0, 0); err != nil {
				return PushMessage{}, nil, err
			}
			continue
		}
		ok = append(ok, d)
		msgs = append(msgs, m)
	}
	if len(ok) == 1 {
		return msgs[0], ok, nil
	}
	return summary(ok, msgs, lang), ok, nil
}
