package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// With the answer cache on (as helio serve runs), a dashboard read is kept per user, an
// API write of the organisation drops it at once, and no answer crosses users or
// organisations.
func TestAnswerCacheThroughTheRoutes(t *testing.T) {
	cfg := apitest.Config()
	cfg.AnswerCache = time.Minute
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	e.Fleet = demo.Fleet()
	ctx := context.Background()
	if err := demo.SeedFleet(ctx, e.DB, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := e.DB.QueryRow(ctx, "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key).Scan(&id); err != nil {
		t.Fatal(err)
	}
	detail := fmt.Sprintf("/v2/site/detail/%d", id)
	rename := func(name string) {
		t.Helper()
		// a change that does not come through the API, so it drops no kept answer; the
		// fleet state, which keeps the stations, is told as an edit of another replica
		// would tell it (docs/architecture.md, "the membership")
		if _, err := e.DB.Exec(ctx, "UPDATE stations SET name = ? WHERE id = ?", name, id); err != nil {
			t.Fatal(err)
		}
		e.Server.Fleet.Changed()
	}
	rename("First Name")
	e.Run(t, []apitest.Scenario{
		{Name: "admin reads", Method: "GET", URL: detail, As: "admin", Status: 200, Contains: []string{"First Name"}},
	})
	rename("Second Name")
	e.Run(t, []apitest.Scenario{
		{Name: "admin's answer is kept", Method: "GET", URL: detail, As: "admin", Status: 200, Contains: []string{"First Name"}},
		{Name: "the operator gets an answer of their own", Method: "GET", URL: detail, As: "operator", Status: 200, Contains: []string{"Second Name"}},
		{Name: "another organisation gets no kept answer", Method: "GET", URL: detail, As: "other", Status: 404},
		{Name: "an API write of the organisation", Method: "POST", URL: "/v2/site/tag/add", As: "admin", Body: `{"name":"Fresh"}`, Status: 200},
		{Name: "drops the organisation's answers at once", Method: "GET", URL: detail, As: "admin", Status: 200, Contains: []string{"Second Name"}},
	})
	rename("Third Name")
	e.Run(t, []apitest.Scenario{
		{Name: "a write of another organisation leaves them", Method: "POST", URL: "/v2/site/tag/add", As: "other", Body: `{"name":"Theirs"}`, Status: 200},
		{Name: "still kept", Method: "GET", URL: detail, As: "admin", Status: 200, Contains: []string{"Second Name"}},
	})
	if hits, _ := e.Server.Answers.Stats(); hits < 2 {
		t.Fatalf("%d answers served from the cache", hits)
	}
}
