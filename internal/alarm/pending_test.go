package alarm_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/apitest"
)

// The bell's unprocessed-alarm counter counts the alarms waiting in the user's station
// authority, whether or not the user was notified or signed in when they began, and the
// users' live connections are told when it moves.
func TestPendingCounter(t *testing.T) {
	r := newAPIRig(t, halfPast())
	r.msgs.Pending = func(ctx context.Context, ids []int64) (map[int64]int, error) {
		return alarm.PendingByUser(ctx, r.db, ids)
	}
	r.seedAlarms(t)
	// the admin has read every message: the alarms still wait
	if _, err := r.db.Exec(context.Background(), "UPDATE messages SET status = 1"); err != nil {
		t.Fatal(err)
	}
	a1 := r.alarmID(t, alarm.RuleInverterFault, grantedInv)
	r.e.Run(t, []apitest.Scenario{
		// admin: the fault, the recovered over-temperature and the battery fault
		{Name: "admin", Method: "GET", URL: "/v2/message/counts", As: "admin", Status: 200, Contains: []string{`"unread":0`, `"unprocessedAlarm":3`}},
		{Name: "operator: granted stations only", Method: "GET", URL: "/v2/message/counts", As: "operator", Status: 200, Contains: []string{`"unprocessedAlarm":1`}},
		{Name: "other organisation: its own", Method: "GET", URL: "/v2/message/counts", As: "other", Status: 200, Contains: []string{`"unprocessedAlarm":1`}},
	})
	before := len(r.pub.events)
	r.e.Run(t, []apitest.Scenario{
		{Name: "deal", Method: "POST", URL: fmt.Sprintf("/v2/warn/deal/%d", a1), As: "operator", Body: `{"dealMethod":1,"reason":"reset"}`, Status: 200},
		{Name: "admin after the deal", Method: "GET", URL: "/v2/message/counts", As: "admin", Status: 200, Contains: []string{`"unprocessedAlarm":2`}},
		{Name: "operator after the deal", Method: "GET", URL: "/v2/message/counts", As: "operator", Status: 200, Contains: []string{`"unprocessedAlarm":0`}},
		{Name: "other unchanged", Method: "GET", URL: "/v2/message/counts", As: "other", Status: 200, Contains: []string{`"unprocessedAlarm":1`}},
	})
	// every user of the organisation was told (the admin got no message about it)
	var told []int64
	for _, ev := range r.pub.events[before:] {
		told = append(told, ev.CountsOf...)
	}
	if !slices.Contains(told, r.acc.AdminID) || !slices.Contains(told, r.acc.OperatorID) || slices.Contains(told, r.acc.OtherID) {
		t.Fatalf("counters changed for %v (admin %d, operator %d, other %d)", told, r.acc.AdminID, r.acc.OperatorID, r.acc.OtherID)
	}
}
