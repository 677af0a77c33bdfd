package workplace_test

import (
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

func TestShortcutsAPI(t *testing.T) {
	e := apitest.NewWithFleet(t)
	e.Run(t, []apitest.Scenario{
		{Name: "none yet", Method: "GET", URL: "/v2/user/shortcuts", As: "operator", Status: 200, Contains: []string{`"shortcuts":[]`, `"alarm"`}, NotContains: []string{`"permission"`}},
		{Name: "save in order", Method: "POST", URL: "/v2/user/shortcuts", As: "operator", Body: `{"shortcuts":["tools","alarm","station"]}`, Status: 200},
		{Name: "kept in order", Method: "GET", URL: "/v2/user/shortcuts", As: "operator", Status: 200, Contains: []string{`"shortcuts":["tools","alarm","station"]`}},
		{Name: "per user", Method: "GET", URL: "/v2/user/shortcuts", As: "admin", Status: 200, Contains: []string{`"shortcuts":[]`, `"permission"`}},
		{Name: "reorder and remove", Method: "POST", URL: "/v2/user/shortcuts", As: "operator", Body: `{"shortcuts":["station","tools"]}`, Status: 200},
		{Name: "reordered", Method: "GET", URL: "/v2/user/shortcuts", As: "operator", Status: 200, Contains: []string{`"shortcuts":["station","tools"]`}},
		{Name: "an area the role may not use", Method: "POST", URL: "/v2/user/shortcuts", As: "operator", Body: `{"shortcuts":["permission"]}`, Status: 400,
			Contains: []string{`"shortcuts":"No such area for a shortcut: permission"`}},
		{Name: "unknown area", Method: "POST", URL: "/v2/user/shortcuts", As: "admin", Body: `{"shortcuts":["../etc"]}`, Status: 400, Contains: []string{`"shortcuts"`}},
		{Name: "twice", Method: "POST", URL: "/v2/user/shortcuts", As: "admin", Body: `{"shortcuts":["alarm","alarm"]}`, Status: 400,
			Headers: map[string]string{"Accept-Language": "zh-CN"}, Contains: []string{"快捷方式重复"}},
		{Name: "too many", Method: "POST", URL: "/v2/user/shortcuts", As: "admin", Status: 400, Contains: []string{`"shortcuts":"At most 12 items"`},
			Body: `{"shortcuts":["monitor","realtimeMonitor","station","stationTags","device","alarm","analysis","debug","workOrder","plan","tools","permission","monitor"]}`},
		{Name: "missing", Method: "POST", URL: "/v2/user/shortcuts", As: "admin", Body: `{}`, Status: 400, Contains: []string{`"shortcuts"`}},
		{Name: "not signed in", Method: "GET", URL: "/v2/user/shortcuts", Status: 401},
		{Name: "still the operator's", Method: "GET", URL: "/v2/user/shortcuts", As: "operator", Status: 200, Contains: []string{`"shortcuts":["station","tools"]`}},
	})
}
