package monitor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The calls that rank and list from the fleet state — top devices, the station list with
// every filter and page, its summary, the fleet summary, the project ranking — answer
// byte for byte as the SQL lists and the roll-ups did, on both databases: before any
// telemetry (every inverter ties, so the order of the device list decides), and after
// a back-fill with occurring alarms on a station and later ones on a sub-station.
func TestFleetListsAnswerAsSQL(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		e.Fleet = demo.Fleet()
		ctx := context.Background()
		if err := demo.SeedFleet(ctx, db, e.Accounts, e.Fleet); err != nil {
			t.Fatal(err)
		}
		var top, sub, subParent int64
		if err := db.QueryRow(ctx, "SELECT id, parent_id FROM stations WHERE parent_id IS NOT NULL ORDER BY id LIMIT 1").Scan(&sub, &subParent); err != nil {
			t.Fatal(err)
		}
		// another station: the sub-station's alarms alone flag its parent
		if err := db.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE parent_id IS NULL AND id <> ?", subParent).Scan(&top); err != nil {
			t.Fatal(err)
		}
		// a tag only a sub-station carries: the filter finds its station
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"Coastal","color":"cyan"}`})
		var tag struct {
			Data struct{ ID int64 } `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.Body), &tag); err != nil || tag.Data.ID == 0 {
			t.Fatalf("tag: %s", r.Body)
		}
		if err := station.SetTags(ctx, db, sub, []int64{tag.Data.ID}); err != nil {
			t.Fatal(err)
		}
		e.Server.Fleet.Changed()
		urls := []string{"/v2/summary/topdevices?limit=50", "/v2/summary/topdevices", "/v2/summary/all", "/v2/summary/projectranking",
			"/v2/site/summary", "/v2/site/list?pageSize=200", "/v2/site/list?page=2&pageSize=3", "/v2/site/list?page=9&pageSize=50",
			"/v2/site/list?name=" + url.QueryEscape("A"), "/v2/site/list?name=%25", "/v2/site/list?name=" + url.QueryEscape("é"),
			"/v2/site/list?stationType=ground", "/v2/site/list?systemType=pv_storage&pageSize=3",
			fmt.Sprintf("/v2/site/list?tagIds=%d", tag.Data.ID), "/v2/site/list?parentId=-1&pageSize=100",
			fmt.Sprintf("/v2/site/list?parentId=%d", subParent), "/v2/site/list?communicationStatus=2",
			"/v2/site/list?communicationStatus=1&pageSize=2&page=2", "/v2/site/list?alarmStatus=1", "/v2/site/list?alarmStatus=0&pageSize=2&page=2"}
		compare := func(when string) {
			t.Helper()
			kept := e.Server.Fleet
			for _, user := range []string{"admin", "operator", "other"} {
				for _, u := range urls {
					at := time.Now()
					e.Server.Figures.Now = func() time.Time { return at }
					got := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
					e.Server.Figures.Fleet = nil
					want := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
					e.Server.Figures.Fleet = kept
					e.Server.Figures.Now = nil
					if got.Status != 200 || got.Body != want.Body {
						t.Fatalf("%s, %s as %s:\nfleet state %d %s\nSQL         %d %s", when, u, user, got.Status, got.Body, want.Status, want.Body)
					}
				}
			}
		}
		compare("before any telemetry")

		now := time.Now().UTC().Truncate(time.Minute)
		e.Simulate(t, now.Add(-2*24*time.Hour), now)
		for i, st := range []int64{top, sub, sub} {
			if _, err := db.Exec(ctx, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, description,
				start_at, occurred_at, last_alarm_at, updated_at) SELECT org_id, id, 'test', 1, 2, 1, ?, ?, ?, ?, ? FROM stations WHERE id = ?`,
				fmt.Sprintf("occurring %d", i), now.UnixMilli()-10+int64(i), now.UnixMilli(), now.UnixMilli(), now.UnixMilli(), st); err != nil {
				t.Fatal(err)
			}
		}
		// written outside the alarm engine, which reports its own changes: read again
		if err := e.Server.Fleet.ReloadAlarms(ctx); err != nil {
			t.Fatal(err)
		}
		compare("after a back-fill, with occurring alarms")
		if r := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/site/list?alarmStatus=1", As: "admin"}); !strings.Contains(r.Body, `"latestAlarm":"occurring 2"`) {
			t.Fatalf("the occurring alarms do not show: %s", r.Body)
		}
	})
}

// An operator granted some of the organisation's stations ranks and lists only those
// stations' entries.
func TestFleetListsKeepStationAuthority(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(t, now.Add(-24*time.Hour), now)
	ctx := context.Background()
	var op httpapi.Principal
	if err := e.DB.QueryRow(ctx, "SELECT org_id, dept_id, station_authority FROM users WHERE username = 'operator'").Scan(&op.OrgID, &op.DeptID, &op.StationAuthority); err != nil {
		t.Fatal(err)
	}
	sees, _, err := station.List(ctx, e.DB, &op, station.Filter{ParentID: -1})
	if err != nil {
		t.Fatal(err)
	}
	var all int
	if err := e.DB.QueryRow(ctx, "SELECT COUNT(*) FROM stations WHERE org_id = ?", op.OrgID).Scan(&all); err != nil {
		t.Fatal(err)
	}
	if op.StationAuthority != "authorized" || len(sees) == 0 || len(sees) >= all {
		t.Fatalf("the operator (%s) sees %d of %d stations: not a partial grant", op.StationAuthority, len(sees), all)
	}
	visible := map[int64]bool{}
	for _, st := range sees {
		visible[st.ID] = true
	}
	var top []struct {
		StationID int64 `json:"stationId"`
	}
	get(t, e, "/v2/summary/topdevices?limit=50", "operator", &top)
	if len(top) == 0 {
		t.Fatal("the operator's ranking is empty")
	}
	for _, d := range top {
		if !visible[d.StationID] {
			t.Fatalf("the operator's ranking shows a device of station %d, not granted", d.StationID)
		}
	}
	var list struct {
		List []struct {
			ID int64 `json:"id"`
		} `json:"list"`
	}
	get(t, e, "/v2/site/list?parentId=-1&pageSize=200", "operator", &list)
	if len(list.List) != len(sees) {
		t.Fatalf("the operator lists %d stations, sees %d", len(list.List), len(sees))
	}
	for _, st := range list.List {
		if !visible[st.ID] {
			t.Fatalf("the operator lists station %d, not granted", st.ID)
		}
	}
	var sum struct {
		Total int `json:"total"`
	}
	get(t, e, "/v2/site/summary", "operator", &sum)
	roots := 0
	for _, st := range sees {
		if st.ParentID == 0 {
			roots++
		}
	}
	if sum.Total != roots {
		t.Fatalf("the operator's summary counts %d stations, sees %d top-level", sum.Total, roots)
	}
}

func get(t *testing.T, e *apitest.Env, u, as string, into any) {
	t.Helper()
	r := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: as})
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if r.Status != 200 || json.Unmarshal([]byte(r.Body), &env) != nil || json.Unmarshal(env.Data, into) != nil {
		t.Fatalf("%s as %s: %d %s", u, as, r.Status, r.Body)
	}
}

// The fleet summary compares this month with the same days of last month from the fleet
// state's kept days (last month from its first day), leaving out a station whose history
// starts later: the same answer as the roll-ups.
func TestFleetSummaryComparesAsRollups(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(t, now.AddDate(0, -2, -3), now)
	// one station's history starts after last month's first day: it is not compared
	ctx := context.Background()
	cut := time.Date(now.Year(), now.Month()-1, 6, 0, 0, 0, 0, time.UTC)
	if _, err := e.DB.Exec(ctx, `DELETE FROM telemetry_station_rollups WHERE res = ? AND bucket < ?
		AND station_id = (SELECT MIN(id) FROM stations WHERE parent_id IS NULL)`, int(telemetry.Day), cut.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if err := e.Server.Fleet.Build(ctx); err != nil {
		t.Fatal(err)
	}
	kept := e.Server.Fleet
	for _, user := range []string{"admin", "operator"} {
		at := time.Now()
		e.Server.Figures.Now = func() time.Time { return at }
		got := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: user})
		e.Server.Figures.Fleet = nil
		want := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: user})
		e.Server.Figures.Fleet = kept
		e.Server.Figures.Now = nil
		if got.Status != 200 || got.Body != want.Body {
			t.Fatalf("/v2/summary/all as %s:\nfleet state %s\nroll-ups    %s", user, got.Body, want.Body)
		}
		var all struct {
			EnergyKWh struct {
				Day, Month struct{ Previous float64 }
			} `json:"energyKwh"`
		}
		get(t, e, "/v2/summary/all", user, &all)
		if all.EnergyKWh.Month.Previous == 0 || all.EnergyKWh.Day.Previous == 0 {
			t.Fatalf("as %s, the month or day is not compared: %s", user, got.Body)
		}
	}
}
