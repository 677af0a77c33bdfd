package monitor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
)

// The dashboards answer the same from the in-memory fleet state as from the roll-ups read
// afresh, for every user's view, before and after a device moves and new samples arrive.
func TestFleetStateAnswersAsRollups(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	eng := e.Simulate(t, now.Add(-40*24*time.Hour), now)
	ctx := context.Background()
	var stationID, subID, deviceID int64
	if err := e.DB.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE parent_id IS NULL").Scan(&stationID); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.QueryRow(ctx, "SELECT MIN(id) FROM stations WHERE parent_id IS NOT NULL").Scan(&subID); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.QueryRow(ctx, "SELECT MIN(id) FROM devices WHERE type = 'inverter'").Scan(&deviceID); err != nil {
		t.Fatal(err)
	}
	urls := []string{"/v2/summary/all", "/v2/summary/powerdata/day", "/v2/summary/powerdata/month", "/v2/summary/powerdata/year",
		"/v2/summary/powerdata/total", "/v2/summary/topdevices", "/v2/summary/projectranking", "/v2/site/summary",
		"/v2/site/list?pageSize=200", fmt.Sprintf("/v2/site/detail/%d", stationID), fmt.Sprintf("/v2/site/detail/%d", subID),
		"/v2/dev/summary", "/v2/dev/inverterstatus", fmt.Sprintf("/v2/dev/list/%d", stationID), "/v2/dev/listbytype?pageSize=100",
		fmt.Sprintf("/v2/dev/detail/%d", deviceID), fmt.Sprintf("/v2/dev/attribute/%d", deviceID),
		fmt.Sprintf("/v2/dev/history/%d?metric=power&from=%s&to=%s", deviceID, now.Add(-50*time.Hour).Format(time.RFC3339), now.Add(-26*time.Hour).Format(time.RFC3339))}
	// a station's series: this month, last month and one before what the state keeps;
	// this year; a day's curve
	for _, id := range []int64{stationID, subID} {
		urls = append(urls, fmt.Sprintf("/v2/site/powerdatabymonth/%d", id),
			fmt.Sprintf("/v2/site/powerdatabymonth/%d?date=%s", id, now.AddDate(0, -1, 0).Format("2006-01")),
			fmt.Sprintf("/v2/site/powerdatabymonth/%d?date=%s", id, now.AddDate(0, -3, 0).Format("2006-01")),
			fmt.Sprintf("/v2/site/powerdatabyyear/%d", id),
			fmt.Sprintf("/v2/site/powertrendbydate/%d?date=%s", id, now.AddDate(0, 0, -1).Format("2006-01-02")),
			fmt.Sprintf("/v2/site/powertrendbydate/%d", id))
	}
	compare := func(when string) {
		t.Helper()
		kept := e.Server.Fleet
		for _, user := range []string{"admin", "operator", "other"} {
			for _, u := range urls {
				// both answers at one instant: the compared stretch of the previous period ends at now
				at := time.Now()
				e.Server.Figures.Now = func() time.Time { return at }
				e.Server.Figures.Fleet = kept
				got := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
				e.Server.Figures.Fleet = nil
				want := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
				e.Server.Figures.Fleet = kept
				e.Server.Figures.Now = nil
				if got.Status != want.Status || got.Body != want.Body {
					t.Fatalf("%s, %s as %s:\nfleet state %d %s\nroll-ups    %d %s", when, u, user, got.Status, got.Body, want.Status, want.Body)
				}
			}
		}
	}
	compare("after the back-fill")
	sameVisibility(t, e)

	// a device moves to another station (not through the API: said with Changed)
	if _, err := e.DB.Exec(ctx, "UPDATE devices SET station_id = ?, parent_id = NULL WHERE id = ?", subID, deviceID); err != nil {
		t.Fatal(err)
	}
	e.Server.Writer.Refresh()
	e.Server.Fleet.Changed()
	if _, err := eng.StepNow(ctx, now.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	compare("after a move and a live step")

	// a restart builds the same state from the roll-ups
	e.Server.Fleet = fleet.New(e.DB, e.Server.Writer, nil)
	e.Server.Figures.Fleet = e.Server.Fleet
	compare("after a restart")
}

// sameVisibility checks that the fleet state picks the same stations as the SQL scope for
// every department of every organisation and every kind of station authority.
func sameVisibility(t *testing.T, e *apitest.Env) {
	t.Helper()
	ctx := context.Background()
	rows, err := e.DB.Query(ctx, "SELECT id, org_id FROM departments UNION ALL SELECT 0, id FROM organizations")
	if err != nil {
		t.Fatal(err)
	}
	var ps []*httpapi.Principal
	for rows.Next() {
		var dept, org int64
		if err := rows.Scan(&dept, &org); err != nil {
			t.Fatal(err)
		}
		for _, auth := range []string{"all", "own", "authorized"} {
			ps = append(ps, &httpapi.Principal{OrgID: org, DeptID: dept, StationAuthority: auth, Role: "user"})
		}
	}
	rows.Close()
	if len(ps) < 6 {
		t.Fatalf("only %d principals to check", len(ps))
	}
	for _, p := range ps {
		want, _, err := station.List(ctx, e.DB, p, station.Filter{ParentID: -1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Server.Fleet.Visible(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		ids := func(l []*station.Station) string {
			out := ""
			for _, st := range l {
				out += fmt.Sprint(st.ID, " ")
			}
			return out
		}
		if ids(got) != ids(want) {
			t.Fatalf("org %d dept %d %s: fleet state sees %s, SQL %s", p.OrgID, p.DeptID, p.StationAuthority, ids(got), ids(want))
		}
	}
}
