package scada_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// The map editor's calls over HTTP: the preview reads a map being edited against the
// connected device (per-register errors, nothing saved), the templates list, and a map
// with an unknown register field is refused by its path in the caller's language.
func TestPreviewTemplatesAndStrictMapsOverHTTP(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	var dev int64
	if err := e.DB.QueryRow(ctx, "SELECT id FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 1", e.Accounts.OrgID).Scan(&dev); err != nil {
		t.Fatal(err)
	}
	im := sunspectest.NewImage()
	im.Set(32080, 0, 30000)
	im.Set(32089, 0x0200)
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: im}})
	host, port, _ := strings.Cut(srv.Addr, ":")
	saved := `{"name":"P","registers":[{"name":"p","address":32080,"function":"holding","dataType":"int32","scale":0.001,"target":"power"}]}`
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/register/config/add", As: "admin", Body: saved})
	m := data[struct{ ID int64 }](t, r)
	e.Run(t, []apitest.Scenario{{Name: "link", Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Status: 200,
		Body: fmt.Sprintf(`{"deviceId":%d,"host":%q,"port":%s,"unitId":1,"intervalS":5,"timeoutMs":1000,"mapId":%d}`, dev, host, port, m.ID)}})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/dev/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, dev)}).Body, `"state":"online"`) {
		if time.Now().After(deadline) {
			t.Fatal("device not online")
		}
		time.Sleep(100 * time.Millisecond)
	}

	regs := `[{"name":"power","address":32080,"function":"holding","dataType":"int32","scale":0.001,"target":"power"},
	 {"name":"state","address":32089,"function":"holding","dataType":"uint16","target":"status","values":{"0x0200":"running"}},
	 {"name":"run","address":5,"function":"coil","dataType":"bool"}]`
	preview := func(dev int64, regs string) string {
		return fmt.Sprintf(`{"deviceId":%d,"map":{"name":"draft","registers":%s}}`, dev, regs)
	}
	maps := e.Count(t, "SELECT COUNT(*) FROM register_map_versions")
	e.Run(t, []apitest.Scenario{
		{Name: "preview", Method: "POST", URL: "/v1/scada/register/config/preview", As: "admin", Body: preview(dev, regs), Status: 200,
			Contains: []string{`"mapName":"draft"`, `"name":"power","model":0,"group":0,"address":32080`, `"value":30`, `"text":"running"`, `coil 5-5 (run): device answered`}},
		{Name: "preview by an operator", Method: "POST", URL: "/v1/scada/register/config/preview", As: "operator", Body: preview(dev, regs), Status: 403},
		{Name: "another organisation's device", Method: "POST", URL: "/v1/scada/register/config/preview", As: "other", Body: preview(dev, regs), Status: 404},
		{Name: "unknown field in the preview", Method: "POST", URL: "/v1/scada/register/config/preview", As: "admin",
			Body: preview(dev, strings.Replace(regs, `"name":"run",`, `"name":"run","foo":1,`, 1)), Status: 400, Contains: []string{"map.registers[2].foo"}},
		{Name: "bad register in the preview", Method: "POST", URL: "/v1/scada/register/config/preview", As: "admin",
			Body: preview(dev, strings.Replace(regs, `"dataType":"bool"`, `"dataType":"int16"`, 1)), Status: 400, Contains: []string{"map.registers[2].dataType"}},
		{Name: "templates", Method: "POST", URL: "/v1/scada/template/list", As: "operator", Body: `{}`, Status: 200,
			Contains: []string{`"name":"Huawei SUN2000"`, `"name":"Sungrow SG"`, `"name":"Growatt MAX/MID"`, `"0x0200":"running"`}},
		{Name: "unknown register field, in Japanese", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin", Headers: map[string]string{"Accept-Language": "ja-JP"},
			Body: strings.Replace(saved, `"name":"p",`, `"name":"p","bitz":3,`, 1), Status: 400, Contains: []string{"registers[0].bitz", "レジスタの項目ではありません", "scaleRegister"}},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM register_map_versions"); n != maps {
		t.Fatal("a preview or a refused map was stored")
	}
}
