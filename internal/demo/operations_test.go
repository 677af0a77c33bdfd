package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
)

func TestSeedOperations(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	now := time.Now().UTC()
	var sid, dev int64
	if err := e.DB.QueryRow(ctx, "SELECT station_id, id FROM devices ORDER BY id LIMIT 1").Scan(&sid, &dev); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		start := now.Add(-time.Duration(i*50+3) * time.Hour).UnixMilli()
		status, recovered := 2, any(start+3600_000)
		if i < 2 {
			status, recovered = 1, nil
		}
		if _, err := e.DB.Exec(ctx, `INSERT INTO alarms (org_id, station_id, device_id, device_name, device_sn, rule_key, alarm_type, level, status,
			msg_key, description, start_at, occurred_at, last_alarm_at, recovered_at, updated_at)
			VALUES (?, ?, ?, 'INV-01', 'SN-DEMO-1', 'inverter_fault', 1, 2, ?, 'alarm_desc_inverter_fault', 'Inverter fault', ?, ?, ?, ?, ?)`,
			e.Accounts.OrgID, sid, dev, status, start, start, start, recovered, start); err != nil {
			t.Fatal(err)
		}
	}
	if err := demo.SeedPlans(ctx, e.DB, e.Fleet, 1, now); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := demo.SeedOperations(ctx, e.DB, e.Accounts, 1, now); err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded in %v", time.Since(start))
	count := func(q string) int { return e.Count(t, q) }
	if n := count("SELECT COUNT(*) FROM work_orders WHERE alarm_id IS NOT NULL"); n != 12 {
		t.Errorf("%d orders from alarms, want 12", n)
	}
	// each keeps the fault's device, serial number and description key
	if n := count(`SELECT COUNT(*) FROM work_orders WHERE alarm_id IS NOT NULL AND device_id IS NOT NULL AND device_name = 'INV-01'
		AND device_sn = 'SN-DEMO-1' AND title_key = 'alarm_desc_inverter_fault'`); n != 12 {
		t.Errorf("%d orders from alarms keep the alarm's device and title key, want 12", n)
	}
	if n := count("SELECT COUNT(*) FROM work_orders WHERE alarm_id IS NULL"); n == 0 {
		t.Error("no orders opened by hand")
	}
	for name, q := range map[string]string{
		"finished": "SELECT COUNT(*) FROM work_orders WHERE status = 4",
		"rejected": "SELECT COUNT(*) FROM work_orders WHERE status = 5",
		"open":     "SELECT COUNT(*) FROM work_orders WHERE status IN (1, 2, 3)",
		"late":     "SELECT COUNT(*) FROM work_orders WHERE status = 4 AND actual_end > planned_end",
		"history":  "SELECT COUNT(*) FROM work_order_events WHERE action = 'finish'",
	} {
		if count(q) == 0 {
			t.Errorf("no %s orders", name)
		}
	}
	if n := count("SELECT COUNT(*) FROM plan_proposals WHERE status = 3"); n == 0 {
		t.Error("seeded plans not approved")
	}
	// Again: nothing more.
	before := count("SELECT COUNT(*) FROM work_orders")
	if err := demo.SeedOperations(ctx, e.DB, e.Accounts, 1, now); err != nil || count("SELECT COUNT(*) FROM work_orders") != before {
		t.Fatalf("second seeding added orders: %v", err)
	}
}
