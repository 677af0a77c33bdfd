package station_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// ids returns the id of the station with the given simulator key.
func stationID(t *testing.T, e *apitest.Env, simKey string) int64 {
	t.Helper()
	var id int64
	if err := e.DB.QueryRow(context.Background(), "SELECT id FROM stations WHERE sim_key = ?", simKey).Scan(&id); err != nil {
		t.Fatalf("station %s: %v", simKey, err)
	}
	return id
}

func listNames(t *testing.T, r *apitest.Result) []string {
	t.Helper()
	var page struct {
		List []struct {
			Name string `json:"name"`
		} `json:"list"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(r.Env.Data, &page); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range page.List {
		out = append(out, s.Name)
	}
	return out
}

func TestStationAuthority(t *testing.T) {
	e := apitest.NewWithFleet(t)
	fleet := e.Fleet
	granted := stationID(t, e, fleet.Stations[0].Key)    // granted to the operator's department
	notGranted := stationID(t, e, fleet.Stations[4].Key) // demo org, not granted
	subOfGranted := stationID(t, e, fleet.Stations[0].Children[0].Key)
	otherOrg := stationID(t, e, fleet.Stations[len(fleet.Stations)-1].Key)

	e.Run(t, []apitest.Scenario{
		{Name: "admin sees the nine demo stations", Method: "GET", URL: "/v2/site/list?pageSize=50", As: "admin", Status: 200,
			Contains: []string{`"total":9`}, NotContains: []string{"Other Solar Co."}},
		{Name: "operator sees only the three granted stations", Method: "GET", URL: "/v2/site/list?pageSize=50", As: "operator", Status: 200,
			Contains: []string{`"total":3`}},
		{Name: "other organisation sees only its own station", Method: "GET", URL: "/v2/site/list", As: "other", Status: 200,
			Contains: []string{`"total":1`, "Other Solar Co."}},
		{Name: "operator reads a granted station", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", granted), As: "operator", Status: 200,
			Contains: []string{`"children":[{`, `"kpis":`}},
		{Name: "operator reads a granted station's sub-station", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", subOfGranted), As: "operator", Status: 200},
		{Name: "operator cannot read an ungranted station", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", notGranted), As: "operator", Status: 404},
		{Name: "another organisation's station is 404", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", otherOrg), As: "admin", Status: 404},
		{Name: "and the other way round", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", granted), As: "other", Status: 404},
		{Name: "power trend of another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/site/powertrendbydate/%d", otherOrg), As: "admin", Status: 404},
		{Name: "month energy of an ungranted station", Method: "GET", URL: fmt.Sprintf("/v2/site/powerdatabymonth/%d", notGranted), As: "operator", Status: 404},
		{Name: "device list of another organisation's station", Method: "GET", URL: fmt.Sprintf("/v2/dev/list/%d", otherOrg), As: "operator", Status: 404},
		{Name: "simple list is filtered too", Method: "GET", URL: "/v2/site/simplelist", As: "other", Status: 200,
			NotContains: []string{fleet.Stations[0].Name}},
		{Name: "no session", Method: "GET", URL: "/v2/site/list", Status: 401},
		{Name: "id that cannot exist", Method: "GET", URL: "/v2/site/detail/abc", As: "admin", Status: 404},
		{Name: "unknown id", Method: "GET", URL: "/v2/site/detail/999999", As: "admin", Status: 404},
	})
}

func TestStationListFilters(t *testing.T) {
	e := apitest.NewWithFleet(t)
	first := e.Fleet.Stations[0]
	e.Run(t, []apitest.Scenario{
		{Name: "by name, case-insensitive", Method: "GET", URL: "/v2/site/list?name=" + strings.ToLower(first.Name[:5]), As: "admin", Status: 200,
			Contains: []string{first.Name}},
		{Name: "LIKE wildcards are literal", Method: "GET", URL: "/v2/site/list?name=%25", As: "admin", Status: 200, Contains: []string{`"total":0`}},
		{Name: "by station type", Method: "GET", URL: "/v2/site/list?stationType=residential&pageSize=50", As: "admin", Status: 200,
			NotContains: []string{`"stationType":"ground"`, `"stationType":"rooftop"`}},
		{Name: "sub-stations of a station", Method: "GET", URL: fmt.Sprintf("/v2/site/list?parentId=%d", stationID(t, e, first.Key)), As: "admin", Status: 200,
			Contains: []string{`"total":3`, first.Children[0].Name}},
		{Name: "paging", Method: "GET", URL: "/v2/site/list?page=2&pageSize=4", As: "admin", Status: 200,
			Contains: []string{`"total":9`, `"page":2`, `"pageSize":4`}, Check: func(t *testing.T, r *apitest.Result) {
				if n := len(listNames(t, r)); n != 4 {
					t.Fatalf("page 2 has %d stations", n)
				}
			}},
		{Name: "communication status filter", Method: "GET", URL: "/v2/site/list?communicationStatus=4", As: "admin", Status: 200},
		{Name: "bad communication status", Method: "GET", URL: "/v2/site/list?communicationStatus=7", As: "admin", Status: 400,
			Contains: []string{`"communicationStatus":"Must be between 0 and 4"`}},
		{Name: "bad station type", Method: "GET", URL: "/v2/site/list?stationType=castle", As: "admin", Status: 400, Contains: []string{`"stationType"`}},
		{Name: "bad tag ids", Method: "GET", URL: "/v2/site/list?tagIds=1,x", As: "admin", Status: 400, Contains: []string{`"tagIds"`}},
		{Name: "page size too big", Method: "GET", URL: "/v2/site/list?pageSize=500", As: "admin", Status: 400, Contains: []string{`"pageSize"`}},
		{Name: "page zero", Method: "GET", URL: "/v2/site/list?page=0", As: "admin", Status: 400, Contains: []string{`"page"`}},
		{Name: "bad date", Method: "GET", URL: fmt.Sprintf("/v2/site/powertrendbydate/%d?date=2026-13-40", stationID(t, e, first.Key)), As: "admin", Status: 400},
		{Name: "future date", Method: "GET", URL: fmt.Sprintf("/v2/site/powertrendbydate/%d?date=2999-01-01", stationID(t, e, first.Key)), As: "admin", Status: 400},
		{Name: "summary", Method: "GET", URL: "/v2/site/summary", As: "operator", Status: 200, Contains: []string{`"total":3`}},
	})
}

func validStation(name string) map[string]any {
	return map[string]any{
		"name": name, "location": "Golmud", "region": "Qinghai", "address": "1 Solar Road", "timezone": "Asia/Shanghai",
		"stationType": "ground", "systemType": "pv", "capacityKwp": 1200.5, "lat": 36.4, "lng": 94.9, "azimuth": 180,
		"inclination": 30, "currency": "CNY", "pricePerKwh": 0.35, "buildDate": "2024-05-01",
	}
}

func body(m map[string]any, changes ...any) string {
	c := map[string]any{}
	for k, v := range m {
		c[k] = v
	}
	for i := 0; i+1 < len(changes); i += 2 {
		if changes[i+1] == nil {
			delete(c, changes[i].(string))
		} else {
			c[changes[i].(string)] = changes[i+1]
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func TestStationEditAndAdd(t *testing.T) {
	e := apitest.NewWithFleet(t)
	granted := stationID(t, e, e.Fleet.Stations[0].Key)
	otherOrg := stationID(t, e, e.Fleet.Stations[len(e.Fleet.Stations)-1].Key)
	url := fmt.Sprintf("/v2/site/edit/%d", granted)
	ok := validStation("Renamed Plant")
	before := e.Count(t, "SELECT COUNT(*) FROM stations WHERE name = 'Renamed Plant'")
	e.Run(t, []apitest.Scenario{
		{Name: "every required field named", Method: "POST", URL: url, As: "admin", Body: `{}`, Status: 400,
			Contains: []string{`"name":"Required"`, `"location":"Required"`, `"region":"Required"`, `"address":"Required"`,
				`"timezone":"Required"`, `"stationType":"Required"`, `"systemType":"Required"`, `"capacityKwp":"Required"`}},
		{Name: "bad timezone", Method: "POST", URL: url, As: "admin", Body: body(ok, "timezone", "Mars/Olympus"), Status: 400, Contains: []string{`"timezone"`}},
		{Name: "path traversal timezone", Method: "POST", URL: url, As: "admin", Body: body(ok, "timezone", "../../etc/passwd"), Status: 400, Contains: []string{`"timezone"`}},
		{Name: "latitude out of range", Method: "POST", URL: url, As: "admin", Body: body(ok, "lat", 123), Status: 400, Contains: []string{`"lat":"Must be between -90 and 90"`}},
		{Name: "negative capacity", Method: "POST", URL: url, As: "admin", Body: body(ok, "capacityKwp", -5), Status: 400, Contains: []string{`"capacityKwp"`}},
		{Name: "capacity as a string", Method: "POST", URL: url, As: "admin", Body: body(ok, "capacityKwp", "big"), Status: 400, Contains: []string{`"capacityKwp":"Must be a number"`}},
		{Name: "huge number", Method: "POST", URL: url, As: "admin", Body: strings.Replace(body(ok), `"capacityKwp":1200.5`, `"capacityKwp":1e400`, 1), Status: 400},
		{Name: "bad date", Method: "POST", URL: url, As: "admin", Body: body(ok, "buildDate", "yesterday"), Status: 400, Contains: []string{`"buildDate"`}},
		{Name: "name too long", Method: "POST", URL: url, As: "admin", Body: body(ok, "name", strings.Repeat("x", 101)), Status: 400, Contains: []string{`"name":"At most 100 characters"`}},
		{Name: "translated messages", Method: "POST", URL: url, As: "admin", Body: body(ok, "name", ""), Headers: map[string]string{"Accept-Language": "ko-KR"},
			Status: 400, Contains: []string{`"name":"필수 항목입니다"`}},
		{Name: "unknown tag", Method: "POST", URL: url, As: "admin", Body: body(ok, "tagIds", []int{99999}), Status: 400, Contains: []string{`"tagIds"`}},
		{Name: "script in a name is stored as text", Method: "POST", URL: url, As: "operator", Body: body(ok, "name", "<script>alert(1)</script>"), Status: 200,
			Contains: []string{`\u003cscript\u003e`}},
		{Name: "operator edits a granted station", Method: "POST", URL: url, As: "operator", Body: body(ok), Status: 200, Contains: []string{`"name":"Renamed Plant"`, `"capacityKwp":1200.5`}},
		{Name: "another organisation cannot edit", Method: "POST", URL: url, As: "other", Body: body(ok, "name", "Hijacked"), Status: 404},
		{Name: "cannot edit another organisation's station", Method: "POST", URL: fmt.Sprintf("/v2/site/edit/%d", otherOrg), As: "admin", Body: body(ok, "name", "Hijacked"), Status: 404},
		{Name: "operator cannot add stations", Method: "POST", URL: "/v2/site/add", As: "operator", Body: body(ok, "name", "New One"), Status: 403},
		{Name: "admin adds a sub-station", Method: "POST", URL: "/v2/site/add", As: "admin", Body: body(ok, "name", "New Sub", "parentId", granted), Status: 200,
			Contains: []string{`"name":"New Sub"`, fmt.Sprintf(`"parentId":%d`, granted)}},
		{Name: "parent in another organisation", Method: "POST", URL: "/v2/site/add", As: "admin", Body: body(ok, "name", "Sneaky", "parentId", otherOrg), Status: 400,
			Contains: []string{`"parentId"`}},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM stations WHERE name IN ('Hijacked', 'Sneaky')"); n != 0 {
		t.Fatalf("a refused write changed %d stations", n)
	}
	if after := e.Count(t, "SELECT COUNT(*) FROM stations WHERE name = 'Renamed Plant'"); after != before+1 {
		t.Fatalf("the good edit did not land: %d → %d", before, after)
	}
}

func TestStationTags(t *testing.T) {
	e := apitest.NewWithFleet(t)
	granted := stationID(t, e, e.Fleet.Stations[0].Key)
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"Coastal","color":"cyan"}`})
	if r.Status != 200 {
		t.Fatalf("add tag: %d %s", r.Status, r.Body)
	}
	var tag struct{ ID int64 }
	_ = json.Unmarshal(r.Env.Data, &tag)
	e.Run(t, []apitest.Scenario{
		{Name: "duplicate name", Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"Coastal"}`, Status: 409, Contains: []string{`"name":"Already in use"`}},
		{Name: "bad colour", Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"X","color":"#fff"}`, Status: 400, Contains: []string{`"color"`}},
		{Name: "operator cannot create tags", Method: "POST", URL: "/v2/site/tag/add", As: "operator", Body: `{"name":"Mine"}`, Status: 403},
		{Name: "rename", Method: "POST", URL: fmt.Sprintf("/v2/site/tag/edit/%d", tag.ID), As: "admin", Body: `{"name":"Seaside","color":"blue"}`, Status: 200, Contains: []string{"Seaside"}},
		{Name: "another organisation cannot rename", Method: "POST", URL: fmt.Sprintf("/v2/site/tag/edit/%d", tag.ID), As: "other", Body: `{"name":"Mine"}`, Status: 404},
		{Name: "assign to a station", Method: "POST", URL: fmt.Sprintf("/v2/site/edit/%d", granted), As: "admin",
			Body: body(validStation("Tagged Plant"), "tagIds", []int64{tag.ID}), Status: 200, Contains: []string{`"name":"Seaside"`}},
		{Name: "filter by tag", Method: "GET", URL: fmt.Sprintf("/v2/site/list?tagIds=%d", tag.ID), As: "admin", Status: 200,
			Contains: []string{`"total":1`, "Tagged Plant"}},
		{Name: "list counts stations", Method: "GET", URL: "/v2/site/tag/list", As: "admin", Status: 200, Contains: []string{`"name":"Seaside","color":"blue","stations":1`}},
		{Name: "other organisation does not see the tag", Method: "GET", URL: "/v2/site/tag/list", As: "other", Status: 200, NotContains: []string{"Seaside"}},
	})
	// A tag on a sub-station marks its top-level station, once, in the count and the filter.
	var parent int64
	if err := e.DB.QueryRow(context.Background(), "SELECT parent_id FROM stations WHERE parent_id IS NOT NULL AND parent_id <> ? AND org_id = (SELECT org_id FROM stations WHERE id = ?) ORDER BY id LIMIT 1",
		granted, granted).Scan(&parent); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Exec(context.Background(), "INSERT INTO station_tag_links (station_id, tag_id) SELECT id, ? FROM stations WHERE parent_id = ?", tag.ID, parent); err != nil {
		t.Fatal(err)
	}
	e.Server.Fleet.Changed() // written outside the API: the lists read the kept stations
	e.Run(t, []apitest.Scenario{
		{Name: "sub-stations count through their station", Method: "GET", URL: "/v2/site/tag/list", As: "admin", Status: 200, Contains: []string{`"name":"Seaside","color":"blue","stations":2`}},
		{Name: "the filter finds the station of a tagged sub-station", Method: "GET", URL: fmt.Sprintf("/v2/site/list?tagIds=%d", tag.ID), As: "admin", Status: 200,
			Contains: []string{`"total":2`, "Tagged Plant"}},
		{Name: "delete", Method: "POST", URL: fmt.Sprintf("/v2/site/tag/delete/%d", tag.ID), As: "admin", Status: 200},
		{Name: "gone from the station", Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", granted), As: "admin", Status: 200, NotContains: []string{"Seaside"}},
	})
}
