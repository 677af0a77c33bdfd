package alarm_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// slowHub is a publisher that follows a batch's frames as the hub does and takes its time
// writing them: it counts the batch's rows in the database just before it says the
// frames are written (never, when write is false).
type slowHub struct {
	db    *store.DB
	write bool
	wg    sync.WaitGroup
	mu    sync.Mutex
	rows  []int // the batch's stored messages when its frames were written
}

func (h *slowHub) FollowsDelivery() bool { return true }

func (h *slowHub) Publish(_ context.Context, ev message.Event) error {
	b := ev.Batch
	if b == nil {
		return nil
	}
	for range b.Users {
		b.Delivery.Add()
	}
	b.Delivery.Queued()
	if !h.write {
		return nil
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		time.Sleep(100 * time.Millisecond)
		var n int
		_ = h.db.QueryRow(context.Background(), "SELECT COUNT(*) FROM messages WHERE alarm_id = ?", b.Message.AlarmID).Scan(&n)
		h.mu.Lock()
		h.rows = append(h.rows, n)
		h.mu.Unlock()
		for range b.Users {
			b.Delivery.Done()
		}
	}()
	return nil
}

// A pass lets this replica write an alarm's frames before it writes the alarm's rows,
// so the rows do not compete with the frames; a frame never written holds the pass no
// longer than its bound, and the rows are written all the same.
func TestFramesGoBeforeTheRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		admin, op := r.acc.AdminID, r.acc.OperatorID
		r.settings(t, admin, high())
		r.settings(t, op, high())

		h := &slowHub{db: db, write: true}
		r.msgs.Pub = h
		r.fault(t, grantedInv, t0)
		h.wg.Wait()
		if len(h.rows) != 1 || h.rows[0] != 0 {
			t.Fatalf("rows stored when the frames were written: %v, want [0]", h.rows)
		}
		if n := r.messages(t, admin) + r.messages(t, op); n != 2 {
			t.Fatalf("%d messages stored after the pass, want 2", n)
		}

		r.msgs.Pub = &slowHub{db: db}
		start := time.Now()
		r.fault(t, grantedInv2, t0.Add(time.Minute))
		if took := time.Since(start); took < 200*time.Millisecond {
			t.Fatalf("the pass did not wait for the frames (%s)", took)
		}
		if n := r.messages(t, admin) + r.messages(t, op); n != 4 {
			t.Fatalf("%d messages stored after a pass whose frames were never written, want 4", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE notify_pending = 1"); n != 0 {
			t.Fatalf("%d alarms left pending", n)
		}
	})
}
