package alarm_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// With the notification work off the write path, the same users get the same messages
// once the notifier has settled.
func TestAsyncNotificationsReachTheSameUsers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		r.eng = alarm.NewEngine(db, alarm.Options{Now: r.clock.Now, Messages: r.msgs, AsyncNotify: true})
		admin, op, other := r.acc.AdminID, r.acc.OperatorID, r.acc.OtherID
		for _, u := range []int64{admin, op, other} {
			r.settings(t, u, high())
		}
		for i, c := range []struct {
			key     string
			a, o, x int
		}{{notGrantedInv, 1, 0, 0}, {grantedInv, 2, 1, 0}, {otherOrgInv, 2, 1, 1}} {
			r.fault(t, c.key, t0.Add(time.Duration(i)*time.Minute))
			r.eng.Settle()
			if a, o, x := r.messages(t, admin), r.messages(t, op), r.messages(t, other); a != c.a || o != c.o || x != c.x {
				t.Fatalf("%s: admin %d, operator %d, other %d; want %d %d %d", c.key, a, o, x, c.a, c.o, c.x)
			}
		}
	})
}

// A burst of alarms opened one after the other is notified in fewer passes than alarms
// (merged), and every alarm still reaches every user once.
func TestAsyncPassesMergeABurst(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		r.eng = alarm.NewEngine(db, alarm.Options{Now: r.clock.Now, Messages: r.msgs, AsyncNotify: true})
		admin, op := r.acc.AdminID, r.acc.OperatorID
		r.settings(t, admin, high())
		r.settings(t, op, high())
		var keys []string
		for k := range r.ids {
			if strings.HasPrefix(k, "cn-golmud-") && strings.Contains(k, "-inv") {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if len(keys) < 8 {
			t.Fatalf("only %d inverters", len(keys))
		}
		keys = keys[:8]
		passes := metrics.Default.NewCounter("helio_alarm_notify_passes_total", "")
		before := passes.Value()
		for i, k := range keys {
			r.fault(t, k, t0.Add(time.Duration(i)*time.Second))
		}
		r.eng.Settle()
		if n := passes.Value() - before; n >= float64(len(keys)) || n < 1 {
			t.Fatalf("%v passes for %d alarms", n, len(keys))
		}
		if a, o := r.messages(t, admin), r.messages(t, op); a != len(keys) || o != len(keys) {
			t.Fatalf("admin %d, operator %d messages; want %d each", a, o, len(keys))
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications"); n != 2*len(keys) {
			t.Fatalf("%d decisions, want %d", n, 2*len(keys))
		}
		if n := r.count(t, "SELECT COUNT(*) FROM (SELECT alarm_id, user_id FROM messages GROUP BY alarm_id, user_id HAVING COUNT(*) > 1) d"); n != 0 {
			t.Fatalf("%d doubled messages", n)
		}
	})
}
