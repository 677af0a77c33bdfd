package monitor_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
)

// BenchmarkDashboardCalls times each dashboard call computed (no answer cache) on the
// demo fleet with 40 days of history, from the fleet state and from the roll-ups read
// afresh: go test ./internal/monitor -run - -bench DashboardCalls
func BenchmarkDashboardCalls(b *testing.B) {
	e := apitest.NewWithFleet(b)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(b, now.Add(-40*24*time.Hour), now)
	kept := e.Server.Fleet
	for _, u := range []string{"/v2/summary/all", "/v2/summary/powerdata/day", "/v2/summary/powerdata/month", "/v2/summary/powerdata/year",
		"/v2/summary/topdevices", "/v2/summary/projectranking", "/v2/site/summary", "/v2/site/list", "/v2/dev/summary"} {
		for _, mode := range []string{"fleet", "rollups"} {
			b.Run(fmt.Sprintf("%s/%s", u, mode), func(b *testing.B) {
				e.Server.Figures.Fleet = kept
				if mode == "rollups" {
					e.Server.Figures.Fleet = nil
				}
				defer func() { e.Server.Figures.Fleet = kept }()
				loopCPU(b, func() {
					if r := e.Do(b, apitest.Scenario{Method: "GET", URL: u, As: "admin"}); r.Status != 200 {
						b.Fatal(r.Body)
					}
				})
			})
		}
	}
}
