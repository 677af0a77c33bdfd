package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// siteBodies are the example bodies of the on-site calls (checklists, check-ins) and the
// checklist templates, for the matrices.
func siteBodies(f *fixture) map[string]string {
	tpl := `{"name":%q,"items":[{"key":"clean","label":"Clean the array","kind":"check","required":true},
		{"key":"photo","label":"Photo of the inverter","kind":"photo","required":true},
		{"key":"voc","label":"String open-circuit voltage","kind":"reading","unit":"V","required":false}]}`
	return map[string]string{
		"POST /v2/checklist/template/add":           fmt.Sprintf(tpl, "Matrix checklist"),
		"POST /v2/checklist/template/edit/{id}":     fmt.Sprintf(tpl, "Matrix checklist 2"),
		"POST /v2/workorder/checklist/{uid}":        fmt.Sprintf(`{"templateId":%d}`, f.checklistTpl),
		"POST /v2/workorder/checklist/answer/{uid}": `{"key":"clean","done":true,"note":"done"}`,
		"POST /v2/workorder/checkin/{uid}":          `{"kind":"in","lat":36.4,"lng":94.9,"accuracyM":12}`,
	}
}

// checklistFixture is a checklist template of the demo organisation.
func checklistFixture(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	id, err := e.DB.Insert(context.Background(), `INSERT INTO checklist_templates (org_id, name, items, created_at, updated_at)
		VALUES (?, 'Matrix', '[{"key":"clean","label":"Clean","kind":"check","required":true}]', 0, 0)`, e.Accounts.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
