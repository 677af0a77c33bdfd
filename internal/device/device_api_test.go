package device_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
)

func idOf(t *testing.T, e *apitest.Env, table, simKey string) int64 {
	t.Helper()
	var id int64
	if err := e.DB.QueryRow(context.Background(), "SELECT id FROM "+table+" WHERE sim_key = ?", simKey).Scan(&id); err != nil {
		t.Fatalf("%s %s: %v", table, simKey, err)
	}
	return id
}

func deviceBody(stationID int64, sn string, changes ...any) string {
	m := map[string]any{"stationId": stationID, "name": "New inverter", "sn": sn, "type": "inverter", "ratedPowerKw": 50,
		"componentRatedPowerW": 550, "componentCount": 100, "stringsTotal": 6, "stringsEnabled": 5, "model": "HX-50K"}
	for i := 0; i+1 < len(changes); i += 2 {
		if changes[i+1] == nil {
			delete(m, changes[i].(string))
		} else {
			m[changes[i].(string)] = changes[i+1]
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestDeviceCalls(t *testing.T) {
	e := apitest.NewWithFleet(t)
	f := e.Fleet
	grantedTop := f.Stations[0]
	sub := grantedTop.Children[0]
	subID := idOf(t, e, "stations", sub.Key)
	ungrantedSub := idOf(t, e, "stations", f.Stations[4].Children[0].Key)
	otherSub := idOf(t, e, "stations", f.Stations[len(f.Stations)-1].Children[0].Key)
	dev := sub.Devices[0]
	devID := idOf(t, e, "devices", dev.Key)
	otherDev := idOf(t, e, "devices", f.Stations[len(f.Stations)-1].Children[0].Devices[0].Key)
	now := time.Now().UTC()
	hist := func(id int64, q string) string { return fmt.Sprintf("/v2/dev/history/%d?%s", id, q) }
	rng := fmt.Sprintf("from=%s&to=%s", now.Add(-24*time.Hour).Format(time.RFC3339), now.Format(time.RFC3339))

	e.Run(t, []apitest.Scenario{
		{Name: "station device tree", Method: "GET", URL: fmt.Sprintf("/v2/dev/list/%d", subID), As: "operator", Status: 200,
			Contains: []string{dev.SN, `"state":"`}},
		{Name: "ungranted station's devices", Method: "GET", URL: fmt.Sprintf("/v2/dev/list/%d", ungrantedSub), As: "operator", Status: 404},
		{Name: "another organisation's devices", Method: "GET", URL: fmt.Sprintf("/v2/dev/list/%d", otherSub), As: "admin", Status: 404},
		{Name: "detail", Method: "GET", URL: fmt.Sprintf("/v2/dev/detail/%d", devID), As: "operator", Status: 200, Contains: []string{dev.SN}},
		{Name: "another organisation's device detail", Method: "GET", URL: fmt.Sprintf("/v2/dev/detail/%d", otherDev), As: "operator", Status: 404},
		{Name: "attributes", Method: "GET", URL: fmt.Sprintf("/v2/dev/attribute/%d", devID), As: "admin", Status: 200, Contains: []string{`"group":"nameplate"`}},
		{Name: "another organisation's attributes", Method: "GET", URL: fmt.Sprintf("/v2/dev/attribute/%d", devID), As: "other", Status: 404},
		{Name: "list by type", Method: "GET", URL: "/v2/dev/listbytype?type=meter&pageSize=200", As: "admin", Status: 200,
			NotContains: []string{`"type":"inverter"`, `"type":"battery"`}},
		{Name: "list by station", Method: "GET", URL: fmt.Sprintf("/v2/dev/listbytype?stationId=%d", ungrantedSub), As: "operator", Status: 404},
		{Name: "bad type", Method: "GET", URL: "/v2/dev/listbytype?type=toaster", As: "admin", Status: 400, Contains: []string{`"type"`}},
		{Name: "bad state", Method: "GET", URL: "/v2/dev/listbytype?state=melting", As: "admin", Status: 400, Contains: []string{`"state"`}},
		{Name: "summary counts only visible devices", Method: "GET", URL: "/v2/dev/summary", As: "other", Status: 200,
			Check: func(t *testing.T, r *apitest.Result) {
				var s struct{ Total int }
				_ = json.Unmarshal(r.Env.Data, &s)
				want := 0
				for _, c := range f.Stations[len(f.Stations)-1].Children {
					want += len(c.Devices)
				}
				if s.Total != want {
					t.Fatalf("other org sees %d devices, owns %d", s.Total, want)
				}
			}},
		{Name: "inverter status", Method: "GET", URL: "/v2/dev/inverterstatus", As: "admin", Status: 200, Contains: []string{`"byState":{`}},
		{Name: "history", Method: "GET", URL: hist(devID, "metric=power&"+rng), As: "operator", Status: 200, Contains: []string{`"unit":"kW"`, `"resolution":"`}},
		{Name: "history of another organisation's device", Method: "GET", URL: hist(otherDev, "metric=power&"+rng), As: "admin", Status: 404},
		{Name: "history: unknown metric", Method: "GET", URL: hist(devID, "metric=mood&"+rng), As: "admin", Status: 400, Contains: []string{`"metric"`}},
		{Name: "history: metric missing", Method: "GET", URL: hist(devID, rng), As: "admin", Status: 400, Contains: []string{`"metric":"Required"`}},
		{Name: "history: reversed range", Method: "GET", URL: hist(devID, fmt.Sprintf("metric=power&from=%s&to=%s", now.Format(time.RFC3339), now.Add(-time.Hour).Format(time.RFC3339))),
			As: "admin", Status: 400, Contains: []string{`"to"`}},
		{Name: "history: range too long", Method: "GET", URL: hist(devID, fmt.Sprintf("metric=power&from=2000-01-01T00:00:00Z&to=%s", now.Format(time.RFC3339))),
			As: "admin", Status: 400, Contains: []string{`"to"`}},
		{Name: "history: not a date", Method: "GET", URL: hist(devID, "metric=power&from=yesterday&to=today"), As: "admin", Status: 400, Contains: []string{`"from"`}},
		{Name: "history: far future", Method: "GET", URL: hist(devID, "metric=power&from=2999-01-01T00:00:00Z&to=2999-01-02T00:00:00Z"), As: "admin", Status: 400},
	})
}

func TestDeviceAddAndEdit(t *testing.T) {
	e := apitest.NewWithFleet(t)
	f := e.Fleet
	subID := idOf(t, e, "stations", f.Stations[0].Children[0].Key)
	ungrantedSub := idOf(t, e, "stations", f.Stations[4].Children[0].Key)
	otherSub := idOf(t, e, "stations", f.Stations[len(f.Stations)-1].Children[0].Key)
	existingSN := f.Stations[1].Children[0].Devices[0].SN
	otherOrgSN := f.Stations[len(f.Stations)-1].Children[0].Devices[0].SN
	before := e.Count(t, "SELECT COUNT(*) FROM devices")

	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/dev/add", As: "operator", Body: deviceBody(subID, "HX50K-TEST-0001")})
	if r.Status != 200 {
		t.Fatalf("add: %d %s", r.Status, r.Body)
	}
	var added struct{ ID int64 }
	_ = json.Unmarshal(r.Env.Data, &added)

	e.Run(t, []apitest.Scenario{
		{Name: "required fields named", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: `{}`, Status: 400,
			Contains: []string{`"name":"Required"`, `"sn":"Required"`, `"stationId":"Required"`, `"type":"Required"`}},
		{Name: "duplicate serial in the organisation", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, existingSN), Status: 409,
			Contains: []string{`"sn":"Already in use"`}},
		{Name: "a serial used by another organisation is free here", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, otherOrgSN), Status: 200},
		{Name: "bad serial", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, "../../etc"), Status: 400, Contains: []string{`"sn"`}},
		{Name: "enabled strings above total", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, "HX-2", "stringsEnabled", 9), Status: 400,
			Contains: []string{`"stringsEnabled"`}},
		{Name: "NaN-ish rated power", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, "HX-3", "ratedPowerKw", "NaN"), Status: 400},
		{Name: "meter needs a position", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, "MT-1", "type", "meter"), Status: 400,
			Contains: []string{`"meterPosition"`}},
		{Name: "operator cannot add under an ungranted station", Method: "POST", URL: "/v2/dev/add", As: "operator", Body: deviceBody(ungrantedSub, "HX-4"), Status: 400,
			Contains: []string{`"stationId"`}},
		{Name: "cannot add under another organisation's station", Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(otherSub, "HX-5"), Status: 400},
		{Name: "parent device must be in the same station", Method: "POST", URL: "/v2/dev/add", As: "admin",
			Body: deviceBody(subID, "HX-6", "parentId", idOf(t, e, "devices", f.Stations[1].Children[0].Devices[0].Key)), Status: 400, Contains: []string{`"parentId"`}},
		{Name: "the new device is listed", Method: "GET", URL: fmt.Sprintf("/v2/dev/list/%d", subID), As: "operator", Status: 200, Contains: []string{"HX50K-TEST-0001"}},
		{Name: "edit", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", added.ID), As: "operator",
			Body: deviceBody(subID, "HX50K-TEST-0001", "name", "Renamed inverter"), Status: 200, Contains: []string{"Renamed inverter", `"componentCapacityKwp":55`}},
		{Name: "edit into a duplicate serial", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", added.ID), As: "operator",
			Body: deviceBody(subID, existingSN), Status: 409},
		{Name: "a device cannot be its own parent", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", added.ID), As: "admin",
			Body: deviceBody(subID, "HX50K-TEST-0001", "parentId", added.ID), Status: 400},
		{Name: "another organisation cannot edit", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", added.ID), As: "other",
			Body: deviceBody(otherSub, "HIJACK-1"), Status: 404},
	})
	if after := e.Count(t, "SELECT COUNT(*) FROM devices"); after != before+2 {
		t.Fatalf("devices %d → %d, want exactly the two good adds", before, after)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM devices WHERE sn = 'HIJACK-1'"); n != 0 {
		t.Fatal("a refused edit landed")
	}
}
