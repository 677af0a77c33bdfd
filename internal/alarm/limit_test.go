package alarm_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Each method counts its own day against its own limit: in-site 5, app push 1, e-mail 2.
// The second alarm goes in-site and by e-mail but not by push; the third in-site only;
// each method held back tells the user once, and Today counts each method.
func TestDailyLimitPerMethod(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		r.eng = alarm.NewEngine(db, alarm.Options{Now: r.clock.Now, Messages: r.msgs, Outbox: &notify.Outbox{Now: r.clock.Now}})
		admin, op := r.acc.AdminID, r.acc.OperatorID
		r.settings(t, op, with(high(), func(s *alarm.Settings) { s.Allowed = 0 }))
		r.settings(t, admin, with(high(), func(s *alarm.Settings) {
			s.DailyLimit, s.PushLimit, s.EmailLimit = 5, 1, 2
			s.Methods = []int{alarm.MethodInSite, alarm.MethodAppPush, alarm.MethodEmail}
		}))
		outbox := func(channel string) int {
			return r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE channel = ? AND target_id = ?", channel, admin)
		}
		notices := func(key string) int {
			return r.count(t, "SELECT COUNT(*) FROM messages WHERE user_id = ? AND kind = 'system' AND title = ?", admin, key)
		}
		want := func(step string, inSite, push, email int) {
			t.Helper()
			if n := r.messages(t, admin); n != inSite {
				t.Fatalf("%s: %d in-site messages, want %d", step, n, inSite)
			}
			if n := outbox(notify.ChannelPush); n != push {
				t.Fatalf("%s: %d pushes, want %d", step, n, push)
			}
			if n := outbox(notify.ChannelEmail); n != email {
				t.Fatalf("%s: %d e-mails, want %d", step, n, email)
			}
		}
		r.fault(t, grantedInv, t0)
		want("first alarm", 1, 1, 1)
		r.fault(t, grantedInv2, t0.Add(time.Minute))
		want("second alarm", 2, 1, 2)
		if n := notices("notify_limit_push_title"); n != 1 {
			t.Fatalf("push held back: %d notices, want 1", n)
		}
		r.fault(t, grantedInv3, t0.Add(2*time.Minute))
		r.fault(t, grantedInv4, t0.Add(3*time.Minute))
		want("fourth alarm", 4, 1, 2)
		if p, e, s := notices("notify_limit_push_title"), notices("notify_limit_email_title"), notices("notify_limit_title"); p != 1 || e != 1 || s != 0 {
			t.Fatalf("notices: push %d, e-mail %d, in-site %d; want 1, 1, 0", p, e, s)
		}
		got, err := alarm.Today(context.Background(), db, admin, r.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if got.Sent != 4 || got.Held != 0 || got.Reached || len(got.Methods) != 3 {
			t.Fatalf("today %+v: want 4 sent, none held by every method, three methods", got)
		}
		for i, w := range []alarm.MethodToday{
			{Method: 1, Sent: 4, Held: 0, Limit: 5},
			{Method: 2, Sent: 1, Held: 3, Limit: 1, Reached: true},
			{Method: 3, Sent: 2, Held: 2, Limit: 2, Reached: true},
		} {
			if got.Methods[i] != w {
				t.Fatalf("method %d today: %+v, want %+v", w.Method, got.Methods[i], w)
			}
		}
		// The in-site limit reached too: the alarm is held back from every method.
		r.settings(t, admin, with(high(), func(s *alarm.Settings) {
			s.DailyLimit, s.PushLimit, s.EmailLimit = 4, 1, 2
			s.Methods = []int{alarm.MethodInSite, alarm.MethodAppPush, alarm.MethodEmail}
		}))
		r.fault(t, notGrantedInv, t0.Add(4*time.Minute))
		want("limited everywhere", 4, 1, 2)
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = 'limited' AND held = 14", admin); n != 1 {
			t.Fatalf("%d alarms held back by every method, want 1", n)
		}
		if n := notices("notify_limit_title"); n != 1 {
			t.Fatalf("in-site held back: %d notices, want 1", n)
		}
	})
}
