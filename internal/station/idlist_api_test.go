package station_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

func idList(n int, same bool) string {
	parts := make([]string, n)
	for i := range parts {
		if same {
			parts[i] = "7"
		} else {
			parts[i] = strconv.Itoa(i + 1)
		}
	}
	return strings.Join(parts, ",")
}

// 33,000 tag ids once answered 500 ("too many SQL variables"): a list beyond the limit is
// a 400 naming the parameter; repeated ids count once.
func TestHugeIDListsAnswer400(t *testing.T) {
	e := apitest.NewWithFleet(t)
	huge := idList(33000, false)
	e.Run(t, []apitest.Scenario{
		{Name: "list", Method: "GET", URL: "/v2/site/list?tagIds=" + huge, As: "admin", Status: 400,
			Contains: []string{`"tagIds":"At most 200 items"`}},
		{Name: "export", Method: "GET", URL: "/v2/site/export?tagIds=" + huge, As: "admin", Status: 400,
			Contains: []string{`"tagIds"`}},
		{Name: "translated", Method: "GET", URL: "/v2/site/list?tagIds=" + huge, As: "admin", Status: 400,
			Headers: map[string]string{"Accept-Language": "zh-CN"}, Contains: []string{"最多 200 项"}},
		{Name: "at the limit", Method: "GET", URL: "/v2/site/list?tagIds=" + idList(200, false), As: "admin", Status: 200},
		{Name: "one id repeated", Method: "GET", URL: "/v2/site/list?tagIds=" + idList(5000, true), As: "admin", Status: 400},
		{Name: "duplicates within the limit", Method: "GET", URL: "/v2/site/list?tagIds=" + idList(150, true), As: "admin", Status: 200},
	})
}
