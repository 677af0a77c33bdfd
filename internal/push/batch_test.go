package push_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// bytesOnly hides the local bus's Go values: events travel as JSON, as on NATS.
type bytesOnly struct{ push.Bus }

// A batch reaches each named user's connections in the connection's locale, with the
// user's own message id and counters, whether the bus carries Go values or JSON.
func TestDeliversABatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		bus  func() push.Bus
	}{{"values", func() push.Bus { return push.NewLocal() }}, {"json", func() push.Bus { return bytesOnly{push.NewLocal()} }}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.SQLite(t)
			acc := seed(t, db)
			r := newReplica(t, db, tc.bus(), push.Options{})
			admin := r.dial(t, r.token(t, acc.AdminID)+"&lang=en-US")
			op := r.dial(t, r.token(t, acc.OperatorID)+"&lang=zh-CN")
			other := r.dial(t, r.token(t, acc.OtherID))
			for _, c := range []*conn{admin, op, other} {
				c.next(t, "hello", time.Second)
				c.next(t, "counts", time.Second)
			}
			var b *message.Batch
			var d *message.Delivery
			if err := db.InTx(ctx, func(tx *store.Tx) error {
				ids, err := r.msgs.ReserveIDs(ctx, tx, 2)
				if err != nil {
					return err
				}
				b, err = message.NewBatch(message.New{OrgID: acc.OrgID, Kind: message.KindAlarm, Title: message.Text{Key: "alarm_rule_grid_fault"},
					ProcessStatus: "pending"}, []int64{acc.AdminID, acc.OperatorID}, ids, time.Now())
				if err != nil {
					return err
				}
				d = r.msgs.AnnounceBatch(ctx, b)
				return r.msgs.InsertBatch(ctx, tx, acc.OrgID, b)
			}); err != nil {
				t.Fatal(err)
			}
			// In process the hub says when it has written the frames; over JSON it cannot.
			if followed := tc.name == "values"; (d != nil) != followed {
				t.Fatalf("delivery followed: %v, want %v", d != nil, followed)
			}
			if d != nil && !message.Wait(ctx, time.Now().Add(5*time.Second), d) {
				t.Fatal("the hub did not say the batch's two frames were written")
			}
			for i, c := range []*conn{admin, op} {
				f := c.next(t, "message", time.Second)
				var m message.Message
				if err := json.Unmarshal(f.Data, &m); err != nil {
					t.Fatal(err)
				}
				locale := []string{"en-US", "zh-CN"}[i]
				if m.ID != b.IDs[i] || m.Title != httpapi.T(locale, "alarm_rule_grid_fault") || m.MessageType != "alarm" {
					t.Fatalf("%s: frame %s (want id %d)", locale, f.Data, b.IDs[i])
				}
				if f.Counts == nil || f.Counts.Unread != 1 || f.Counts.UnprocessedAlarm != 1 {
					t.Fatalf("%s: counters %+v", locale, f.Counts)
				}
			}
			if httpapi.T("en-US", "alarm_rule_grid_fault") == httpapi.T("zh-CN", "alarm_rule_grid_fault") {
				t.Fatal("the title is not translated: the locales are not told apart")
			}
			other.none(t, "message", 200*time.Millisecond)
		})
	}
}
