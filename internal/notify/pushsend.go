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
	ID    string `json:"id"` // the delivery id
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

// pushPass sends the push channel's due deliveries; it returns how many it settled or tried.
func (w *Worker) pushPass(ctx context.Context) (int, error) {
	if w.Push == nil {
		return 0, nil
	}
	rows, err := w.DB.Query(ctx, `SELECT id, org_id, target_id, event, subject_id, payload, created_at, attempts FROM notify_outbox
		WHERE channel = 'push' AND state = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT ?`, w.now().UnixMilli(), batch)
	if err != nil {
		return 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	type item struct {
		Delivery
		user int64
	}
	var list []item
	for rows.Next() {
		var it item
		if err := rows.Scan(&it.ID, &it.OrgID, &it.user, &it.Event, &it.SubjectID, &it.Payload, &it.CreatedAt, &it.Attempts); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(list) == 0 {
		return 0, err
	}
	v, err := w.Push.Get(ctx)
	if err != nil {
		return 0, err
	}
	for _, it := range list {
		if err := w.pushOne(ctx, v, it.Delivery, it.user); err != nil {
			return 0, err
		}
	}
	return len(list), nil
}

// pushOne sends one delivery to every browser of the user: sent when one took it; a browser
// whose subscription is gone (404, 410) is forgotten.
func (w *Worker) pushOne(ctx context.Context, v *VAPID, d Delivery, uid int64) error {
	u, err := w.recipient(ctx, uid)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && !u.okay:
		return w.settle(ctx, []Delivery{d}, "the user is no longer active", 0, 0)
	case err != nil:
		return err
	}
	msg, err := pushMessage(d, u.locale)
	if err != nil {
		return w.settle(ctx, []Delivery{d}, err.Error(), 0, 0)
	}
	payload, _ := json.Marshal(msg)
	rows, err := w.DB.Query(ctx, "SELECT id, endpoint, p256dh, auth FROM webpush_subscriptions WHERE user_id = ? ORDER BY id", uid)
	if err != nil {
		return err
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
			return err
		}
		subs = append(subs, s)
	}
	rows.Close()
	if len(subs) == 0 {
		return w.settle(ctx, []Delivery{d}, "the user has no browser subscribed to app push", 0, 0)
	}
	urgency := "normal"
	if msg.Level >= 2 {
		urgency = "high"
	}
	start := w.now()
	took, delivered, gone, status := time.Duration(0), 0, 0, 0
	var last error
	for _, s := range subs {
		st, err := w.push(ctx, v, s.Subscription, payload, urgency, 24*time.Hour)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		status = st
		switch {
		case err == nil:
			delivered++
		case errors.Is(err, ErrGone):
			gone++
			if _, err := w.DB.Exec(ctx, "DELETE FROM webpush_subscriptions WHERE id = ?", s.id); err != nil {
				return err
			}
		default:
			last = err
		}
	}
	took = w.now().Sub(start)
	switch {
	case delivered > 0:
		return w.settle(ctx, []Delivery{d}, "", max(status, 201), took)
	case gone == len(subs):
		return w.settle(ctx, []Delivery{d}, "every subscribed browser has gone", 0, 0)
	}
	return w.retry(ctx, []Delivery{d}, last, status, start, took)
}
