package workorder_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// One alarm, one clock (docs/kpi.md, "Periods and clocks"): the alarm list, the station
// page's latest alarms, the alarm's detail, the work order opened from it, the message
// that told a user of it and the export all give the same occurrence and recovery
// instants, in the station's zone. On both databases.
func TestOneAlarmOneClock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newLinkRig(t, db)
		ctx := context.Background()
		a := r.keyedAlarm(t)
		var zone string
		var occurredMs int64
		if err := db.QueryRow(ctx, "SELECT s.timezone, a.occurred_at FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.id = ?", a).
			Scan(&zone, &occurredMs); err != nil {
			t.Fatal(err)
		}
		loc, err := time.LoadLocation(zone)
		if err != nil || zone == "UTC" {
			t.Fatalf("the alarm's station zone %q (%v) cannot tell a zone from UTC", zone, err)
		}
		occurred := time.UnixMilli(occurredMs).UTC()
		// the engine tells the users who are to hear of it, then it is taken in hand and recovers
		if err := r.engine.Sweep(ctx, r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		r.engine.Settle()
		o := detailOf(t, r.do(t, "admin", "POST", "/v2/workorder/add",
			fmt.Sprintf(`{"alarmId":%d,"title":"","priority":3,"assigneeUserId":%d,%s}`, a, r.e.Accounts.OperatorID, r.plan(8)), 200))
		recovered := r.clock.Now().Add(-10 * time.Minute).Truncate(time.Millisecond).UTC()
		if _, err := db.Exec(ctx, "UPDATE alarms SET status = 2, recovered_at = ? WHERE id = ?", recovered.UnixMilli(), a); err != nil {
			t.Fatal(err)
		}

		type seen struct {
			occurred, recovered *time.Time
			zone                string
		}
		screens := map[string]seen{}
		listed := func(screen, url string) {
			t.Helper()
			res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: url, As: "admin"})
			var page httpapi.Page[alarm.Alarm]
			if res.Status != 200 || json.Unmarshal(res.Env.Data, &page) != nil {
				t.Fatalf("%s: %d %s", url, res.Status, res.Body)
			}
			i := slices.IndexFunc(page.List, func(x alarm.Alarm) bool { return x.ID == a })
			if i < 0 {
				t.Fatalf("%s does not list alarm %d", url, a)
			}
			x := page.List[i]
			screens[screen] = seen{&x.OccurTime, x.RecoveryTime, x.Timezone}
		}
		listed("alarm list", "/v2/warn/listbysite?page=1&pageSize=50")
		listed("station page", fmt.Sprintf("/v2/warn/listbysite?stationId=%d&page=1&pageSize=10", r.alarmSt))
		d := r.alarmDetail(t, a, "en-US")
		screens["alarm drawer"] = seen{&d.OccurTime, d.RecoveryTime, d.Timezone}
		wo := r.orderIn(t, o.ID, "en-US")
		screens["work-order drawer"] = seen{wo.AlarmOccurred, wo.AlarmRecovered, wo.Timezone}

		res := r.e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/message/list?messageType=alarm", As: "admin"})
		var msgs httpapi.Page[message.Message]
		if res.Status != 200 || json.Unmarshal(res.Env.Data, &msgs) != nil {
			t.Fatalf("messages: %d %s", res.Status, res.Body)
		}
		i := slices.IndexFunc(msgs.List, func(m message.Message) bool { return m.AlarmID == a })
		if i < 0 {
			t.Fatalf("no message told the administrator of alarm %d: %s", a, res.Body)
		}
		screens["message centre"] = seen{msgs.List[i].EventTime, nil, msgs.List[i].Timezone}

		// the export writes each time in the station's zone, its offset with it
		res = r.e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/warn/export?format=csv", As: "admin"})
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(res.Body, "\ufeff"))).ReadAll()
		if res.Status != 200 || err != nil || len(recs) < 2 {
			t.Fatalf("export: %d %v", res.Status, err)
		}
		col := func(name string) int { return slices.Index(recs[0], name) }
		occ, rec := col("Occurred"), col("Recovery time")
		if occ < 0 || rec < 0 {
			t.Fatalf("export header %v lacks the occurrence or the recovery time", recs[0])
		}
		for _, row := range recs[1:] {
			if row[0] != fmt.Sprint(a) {
				continue
			}
			o, err1 := time.Parse("2006-01-02 15:04:05-07:00", row[occ])
			rv, err2 := time.Parse("2006-01-02 15:04:05-07:00", row[rec])
			if err1 != nil || err2 != nil {
				t.Fatalf("export times %q %q: %v %v", row[occ], row[rec], err1, err2)
			}
			if want := occurred.In(loc).Format("2006-01-02 15:04:05-07:00"); row[occ] != want {
				t.Fatalf("export: occurred %q, in the station's zone it is %q", row[occ], want)
			}
			screens["export"] = seen{&o, &rv, zone}
		}
		if _, ok := screens["export"]; !ok {
			t.Fatalf("the export lacks alarm %d", a)
		}

		for screen, s := range screens {
			if s.zone != zone {
				t.Errorf("%s: zone %q, the station's is %q", screen, s.zone, zone)
			}
			if s.occurred == nil || !s.occurred.Equal(occurred) {
				t.Errorf("%s: occurred %v, the alarm occurred at %v", screen, s.occurred, occurred)
			}
			if screen == "message centre" {
				continue // a message is about the occurrence
			}
			if s.recovered == nil || !s.recovered.Truncate(time.Second).Equal(recovered.Truncate(time.Second)) {
				t.Errorf("%s: recovered %v, the alarm recovered at %v", screen, s.recovered, recovered)
			}
		}
	})
}
