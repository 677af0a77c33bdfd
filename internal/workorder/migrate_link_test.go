package workorder_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Orders opened from alarms before the link columns existed get the alarm's device and,
// when their title is the alarm's description, its message key (migration 0205's
// back-fill, on both databases); other orders keep their title as written.
func TestLinkBackfillOfEarlierOrders(t *testing.T) {
	ms, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	var backfill []string
	for _, m := range ms {
		if m.Version != 205 {
			continue
		}
		for _, stmt := range strings.Split(m.SQL, ";") {
			if s := strings.TrimSpace(stmt); strings.HasPrefix(s, "UPDATE") {
				backfill = append(backfill, s)
			}
		}
	}
	if len(backfill) != 2 {
		t.Fatalf("back-fill statements: %d", len(backfill))
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newLinkRig(t, db)
		ctx := context.Background()
		a := r.keyedAlarm(t)
		insert := func(title string, alarm any) int64 {
			id, err := db.Insert(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, status, priority, alarm_id,
				submitter_id, planned_start, planned_end, created_at, updated_at) VALUES (?, ?, ?, ?, 4, 2, ?, ?, 0, 1, 0, 0)`,
				r.e.Accounts.OrgID, r.alarmSt, fmt.Sprintf("WO-OLD-%s", title[:4]), title, alarm, r.e.Accounts.AdminID)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		same := insert("The inverter reports a fault and has stopped", a)
		own := insert("Swap the fan", a)
		byHand := insert("Fence", nil)
		for _, s := range backfill {
			if _, err := db.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		for id, want := range map[int64]string{same: "逆变器报告故障并已停机", own: "Swap the fan", byHand: "Fence"} {
			o := r.orderIn(t, id, "zh-CN")
			if o.Title != want {
				t.Fatalf("order %d title %q, want %q", id, o.Title, want)
			}
			if linked := id != byHand; linked != (o.DeviceSN == "SN-LINK-0007" && o.DeviceID == r.grantedDev) {
				t.Fatalf("order %d device: %+v", id, o.Order)
			}
		}
	})
}
