package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/sim"
)

// Back-filled history goes through the alarm engine: alarms dated by their samples that
// occurred and recovered, most of the older ones dealt by the demo users with a method and
// a note, some unprocessed, and nobody notified.
func TestHistoryRaisesAlarms(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	ids, err := demo.DeviceIDs(ctx, e.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(e.Fleet, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.Server.Writer.Refresh()
	now := time.Now()
	from := now.Add(-40 * 24 * time.Hour)
	eng := &demo.Engine{Sim: s, Writer: e.Server.Writer, Reader: e.Server.Reader, IDs: ids, Judge: e.Server.Alarms.Replay}
	if _, err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Backfill(ctx, from, now); err != nil {
		t.Fatal(err)
	}
	dealt, err := demo.DealHistory(ctx, e.DB, e.Accounts, now)
	if err != nil {
		t.Fatal(err)
	}
	recovered := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE status = 2 AND replayed = 1")
	if recovered < 5 {
		t.Fatalf("40 days of simulated faults recovered %d alarms", recovered)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE replayed = 1 AND (occurred_at < ? OR occurred_at > ?)", from.UnixMilli(), now.UnixMilli()); n != 0 {
		t.Fatalf("%d alarms dated outside the history", n)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM alarms WHERE status = 2 AND (recovered_at <= start_at OR recovered_at > ?)", now.UnixMilli()); n != 0 {
		t.Fatalf("%d alarms recovered before they began or in the future", n)
	}
	if n := e.Count(t, "SELECT COUNT(DISTINCT rule_key) FROM alarms"); n < 3 {
		t.Fatalf("only %d rules raised alarms", n)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM messages") + e.Count(t, "SELECT COUNT(*) FROM alarm_notifications"); n != 0 {
		t.Fatalf("the history notified: %d messages or notifications", n)
	}
	if dealt == 0 || e.Count(t, "SELECT COUNT(*) FROM alarm_deals d JOIN alarms a ON a.id = d.alarm_id WHERE a.deal_status = 1 AND d.reason <> '' AND d.method BETWEEN 1 AND 5") != dealt {
		t.Fatalf("%d deals, not each with its method and note", dealt)
	}
	if e.Count(t, "SELECT COUNT(DISTINCT dealt_by) FROM alarms WHERE deal_status = 1") < 2 {
		t.Fatal("the deals are not shared between the demo users")
	}
	if e.Count(t, "SELECT COUNT(*) FROM alarms WHERE deal_status = 1 AND dealt_by = ? AND station_id NOT IN (SELECT s.id FROM stations s JOIN station_grants g ON g.station_id = s.id OR g.station_id = s.parent_id JOIN users u ON u.dept_id = g.dept_id WHERE u.id = ?)", e.Accounts.OperatorID, e.Accounts.OperatorID) != 0 {
		t.Fatal("the operator dealt an alarm outside its authority")
	}
	if e.Count(t, "SELECT COUNT(*) FROM alarms WHERE deal_status = 0 AND status = 2") == 0 {
		t.Fatal("no recovered alarm left unprocessed")
	}
	// a second pass deals nothing twice
	if again, err := demo.DealHistory(ctx, e.DB, e.Accounts, now); err != nil || again != 0 {
		t.Fatalf("second pass dealt %d (%v)", again, err)
	}
	// the first live sweep sends nothing about history
	if err := e.Server.Alarms.Sweep(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM messages m JOIN alarms a ON a.id = m.alarm_id WHERE a.replayed = 1"); n != 0 {
		t.Fatalf("the sweep notified %d replayed alarms", n)
	}
}
