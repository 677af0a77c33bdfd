package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// escalationBodies are the escalation calls' example bodies for the matrices: a rule whose
// steps name the on-call rota, the head office and the administrator; a rota slot of the
// administrator.
func escalationBodies(f *fixture) map[string]string {
	rule := func(name string) string {
		return fmt.Sprintf(`{"name":%q,"levels":[1,2],"stationIds":[%d],"stopOnRecovery":true,"enabled":true,"steps":[
			{"afterMinutes":10,"target":"oncall","targetId":0},{"afterMinutes":30,"target":"department","targetId":%d},
			{"afterMinutes":60,"target":"user","targetId":%d}]}`, name, f.station, f.dept, f.user)
	}
	return map[string]string{
		"POST /v2/escalation/rules/add":         rule("Matrix escalation"),
		"POST /v2/escalation/rules/edit/{id}":   rule("Matrix escalation 2"),
		"POST /v2/escalation/rules/delete/{id}": ``,
		"POST /v2/escalation/rota":              fmt.Sprintf(`{"slots":[{"weekday":1,"start":"08:00","end":"18:00","userId":%d}]}`, f.user),
	}
}

// escalationFixture is an escalation rule of the demo organisation, for the matrices' paths.
func escalationFixture(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	id, err := e.DB.Insert(context.Background(), `INSERT INTO escalation_rules (org_id, name, levels, stations, stop_on_recovery, enabled, steps,
		created_at, updated_at) VALUES (?, 'Matrix', '2', '', 1, 0, '[{"afterMinutes":15,"target":"oncall","targetId":0}]', 0, 0)`, e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
