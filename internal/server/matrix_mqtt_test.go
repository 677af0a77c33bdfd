package server_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// mqttBodies are the MQTT mapping calls' example bodies for the matrices.
func mqttBodies() map[string]string {
	rule := `{"name":"Matrix power","topic":"matrix/{serial}/0/power","device":"{serial}","fields":[{"path":"","field":"powerKw","scale":0.001}]}`
	return map[string]string{
		"POST /v2/ingest/mqtt/rule/add":       rule,
		"POST /v2/ingest/mqtt/rule/edit/{id}": `{"name":"Matrix meter","topic":"matrix/{serial}/SENSOR","device":"{serial}","fields":[{"path":"ENERGY.Power","field":"powerKw","scale":0.001}]}`,
		"POST /v2/ingest/mqtt/preset/apply":   `{"preset":"opendtu","root":"matrix-dtu"}`,
	}
}

// mqttRuleFixture is a mapping rule of the demo organisation, for the matrices' paths.
func mqttRuleFixture(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	id, err := e.DB.Insert(context.Background(), `INSERT INTO mqtt_rules (org_id, name, topic, device, fields, created_at, updated_at)
		VALUES (?, 'Matrix', 'fixture/{serial}/power', '{serial}', '[{"path":"","field":"powerKw","scale":0.001}]', 0, 0)`, e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
