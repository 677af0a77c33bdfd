package alarm_test

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
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
