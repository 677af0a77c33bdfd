package push_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Committed samples reach the connections of their organisation as one "live" frame per
// burst, and no other organisation's.
func TestLiveFrames(t *testing.T) {
	db := storetest.SQLite(t)
	acc := seed(t, db)
	r := newReplica(t, db, push.NewLocal(), push.Options{})
	admin, op, other := r.dial(t, r.token(t, acc.AdminID)), r.dial(t, r.token(t, acc.OperatorID)), r.dial(t, r.token(t, acc.OtherID))
	for _, c := range []*conn{admin, op, other} {
		c.next(t, "counts", time.Second)
	}
	start := time.Now()
	for range 20 { // a burst of commits
		r.hub.StationsChanged([]int64{acc.OrgID})
	}
	admin.next(t, "live", 3*time.Second)
	f := op.next(t, "live", time.Second)
	if d := f.at.Sub(start); d > 2*time.Second {
		t.Fatalf("live frame after %s", d)
	}
	other.none(t, "live", 1500*time.Millisecond)
	admin.none(t, "live", 500*time.Millisecond) // the burst was one frame
	r.hub.StationsChanged([]int64{acc.OtherOrgID})
	other.next(t, "live", 3*time.Second)
	admin.none(t, "live", 1500*time.Millisecond)
}

// A work-order change reaches the connections of its organisation as an "orders" frame
// (the alarm drawer shows its orders' status live), and no other organisation's.
func TestOrdersFrames(t *testing.T) {
	db := storetest.SQLite(t)
	acc := seed(t, db)
	r := newReplica(t, db, push.NewLocal(), push.Options{})
	admin, other := r.dial(t, r.token(t, acc.AdminID)), r.dial(t, r.token(t, acc.OtherID))
	for _, c := range []*conn{admin, other} {
		c.next(t, "counts", time.Second)
	}
	if err := r.hub.Publish(context.Background(), message.Event{Orders: []int64{acc.OrgID}}); err != nil {
		t.Fatal(err)
	}
	admin.next(t, "orders", time.Second)
	other.none(t, "orders", 500*time.Millisecond)
}
