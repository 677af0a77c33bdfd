package server_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// cloudBodies are the vendor-cloud calls' example bodies for the matrices.
func cloudBodies() map[string]string {
	return map[string]string{
		"POST /v2/cloud/connection/add":          `{"vendor":"solaredge","name":"Matrix cloud","credentials":"MATRIXKEY","dailyBudget":300}`,
		"POST /v2/cloud/connection/edit/{id}":    `{"vendor":"solaredge","name":"Matrix cloud 2","credentials":"","dailyBudget":200}`,
		"POST /v2/cloud/connection/confirm/{id}": `{"sites":[{"siteId":"1","stationId":0,"serials":["MATRIX-SE-1"]}]}`,
	}
}

// cloudConnFixture is a connection of the demo organisation, for the matrices' paths. Its
// credentials do not open (the test server has no secret key), so no call leaves the test.
func cloudConnFixture(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	id, err := e.DB.Insert(context.Background(), `INSERT INTO cloud_connections (org_id, vendor, name, sealed_credentials, state,
		daily_budget, created_at, updated_at) VALUES (?, 'solaredge', 'Matrix', 'c2VhbGVk', 'new', 300, 0, 0)`, e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
