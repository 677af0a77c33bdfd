package alarm_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The recipients kept in memory follow grants: an operator whose department loses its
// stations' grants is not told of their alarms once the engine hears of the change
// (Changed, from the API's writes), or after cacheTTL when the change came from elsewhere.
func TestRecipientsFollowGrants(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := newRig(t, db, t0)
		op := r.acc.OperatorID
		r.settings(t, op, high())
		r.fault(t, grantedInv, t0.Add(time.Minute))
		if n := r.messages(t, op); n != 1 {
			t.Fatalf("granted: the operator got %d messages, want 1", n)
		}
		var grants int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM station_grants").Scan(&grants); err != nil || grants == 0 {
			t.Fatalf("no grants to revoke (%d, %v)", grants, err)
		}
		saved, err := db.Query(ctx, "SELECT dept_id, station_id FROM station_grants")
		if err != nil {
			t.Fatal(err)
		}
		var rows [][2]int64
		for saved.Next() {
			var g [2]int64
			if err := saved.Scan(&g[0], &g[1]); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, g)
		}
		saved.Close()
		if _, err := db.Exec(ctx, "DELETE FROM station_grants"); err != nil {
			t.Fatal(err)
		}
		r.eng.Changed(r.acc.OrgID)
		r.fault(t, grantedInv2, t0.Add(time.Minute+5*time.Second))
		if n := r.messages(t, op); n != 1 {
			t.Fatalf("grant revoked: the operator got %d messages, want still 1", n)
		}

		// Granted again by another replica: seen once the kept list is older than 30 s.
		for _, g := range rows {
			if _, err := db.Exec(ctx, "INSERT INTO station_grants (dept_id, station_id) VALUES (?, ?)", g[0], g[1]); err != nil {
				t.Fatal(err)
			}
		}
		r.fault(t, grantedInv3, t0.Add(time.Minute+10*time.Second))
		if n := r.messages(t, op); n != 1 {
			t.Fatalf("granted elsewhere, within 30 s: the operator got %d messages, want 1 (the kept list)", n)
		}
		r.fault(t, grantedInv4, t0.Add(2*time.Minute))
		if n := r.messages(t, op); n != 2 {
			t.Fatalf("granted elsewhere, after 30 s: the operator got %d messages, want 2", n)
		}
		// Saved settings count at once.
		r.settings(t, op, with(high(), func(s *alarm.Settings) { s.Allowed = 0 }))
		r.recover(t, grantedInv, t0.Add(2*time.Minute+time.Second))
		r.fault(t, grantedInv, t0.Add(2*time.Minute+2*time.Second))
		if n := r.messages(t, op); n != 2 {
			t.Fatalf("notifications disallowed: %d messages, want 2", n)
		}
		r.settings(t, op, high())
		// A user switched off is not told either (status read with the recipients).
		if _, err := db.Exec(ctx, "UPDATE users SET status = 0 WHERE id = ?", op); err != nil {
			t.Fatal(err)
		}
		r.eng.Changed(r.acc.OrgID)
		r.recover(t, grantedInv, t0.Add(2*time.Minute+3*time.Second))
		r.fault(t, grantedInv, t0.Add(2*time.Minute+4*time.Second))
		if n := r.messages(t, op); n != 2 {
			t.Fatalf("disabled user: %d messages, want 2", n)
		}
	})
}

// A notification pass cut short (frames out, rows not written: the process stopped) is
// done again by the sweep once notifyGrace has passed, for an alarm still occurring and
// for one that recovered meanwhile; the sweep leaves it alone before.
func TestSweepRedoesAnInterruptedPass(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := newRig(t, db, t0)
		admin := r.acc.AdminID
		r.settings(t, admin, high())
		r.fault(t, grantedInv, t0)
		r.fault(t, grantedInv2, t0)
		r.recover(t, grantedInv2, t0.Add(10*time.Second))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("%d messages, want 2", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE notify_pending = 1"); n != 0 {
			t.Fatalf("%d alarms still pending after their pass", n)
		}
		// as if the passes had not committed
		for _, q := range []string{"DELETE FROM messages", "DELETE FROM alarm_notifications", "UPDATE alarms SET notify_pending = 1"} {
			if _, err := db.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		r.sweep(t, t0.Add(30*time.Second))
		if n := r.messages(t, admin); n != 0 {
			t.Fatalf("within the grace the sweep sent %d messages", n)
		}
		r.sweep(t, t0.Add(2*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("after the grace: %d messages, want 2 (the occurring and the recovered alarm)", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = 'sent'", admin); n != 2 {
			t.Fatalf("%d decisions, want 2", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarms WHERE notify_pending = 1"); n != 0 {
			t.Fatalf("%d alarms still pending after the sweep", n)
		}
		r.sweep(t, t0.Add(3*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("a second sweep: %d messages", n)
		}
	})
}
