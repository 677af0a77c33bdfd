package scada_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// A device that does not speak SunSpec: power (int32, W) at 100, energy (uint32, low
// word first, 0.1 kWh) at 102, status at 104, a writable power limit (%) at 200.
const mapBody = `{"name":"HX-2000","model":"HX-2000 string inverter","registers":[
 {"name":"active_power","address":100,"function":"holding","dataType":"int32","scale":0.001,"unit":"kW","target":"power"},
 {"name":"total_energy","address":102,"function":"holding","dataType":"uint32","wordOrder":"little","scale":0.1,"unit":"kWh","target":"energy"},
 {"name":"status","address":104,"function":"holding","dataType":"uint16","target":"status"},
 {"name":"grid_voltage","address":10,"function":"input","dataType":"uint16","scale":0.1,"unit":"V","target":"acVoltage"},
 {"name":"power_limit","address":200,"function":"holding","dataType":"uint16","unit":"%","writable":true}]}`

func data[T any](t *testing.T, r *apitest.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Env.Data, &v); err != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	return v
}

func TestRegisterMapsLinksAndDebugging(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	var devA, devB int64
	var snA string
	if err := e.DB.QueryRow(ctx, "SELECT id, sn FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 1", e.Accounts.OrgID).Scan(&devA, &snA); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.QueryRow(ctx, "SELECT id FROM devices WHERE org_id = ? AND type = 'inverter' AND id > ? ORDER BY id LIMIT 1", e.Accounts.OrgID, devA).Scan(&devB); err != nil {
		t.Fatal(err)
	}

	im := sunspectest.NewImage()
	im.Set(100, 0, 5500)  // 5.5 kW
	im.Set(102, 34464, 1) // 100000 → 10000 kWh, low word first
	im.Set(104, 1)        // running
	im.Set(10, 2301)      // 230.1 V (input register)
	im.Set(200, 100)      // limit 100 %
	plain := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{5: {Image: im}})
	ss := sunspectest.NewImage()
	ss.PutSunSpec(40000, sunspectest.Load(t, 1).Block(nil, nil, nil), sunspectest.Load(t, 103).Block(
		map[string]float64{"W": 4200, "WH": 7e6, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 0}, nil))
	sunsrv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: ss}})
	host, port, _ := strings.Cut(plain.Addr, ":")
	shost, sport, _ := strings.Cut(sunsrv.Addr, ":")

	before := e.Count(t, "SELECT COUNT(*) FROM register_maps")
	e.Run(t, []apitest.Scenario{
		{Name: "bad data type named", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
			Body: strings.Replace(mapBody, `"dataType":"int32"`, `"dataType":"int24"`, 1), Status: 400, Contains: []string{"registers[0].dataType"}},
		{Name: "duplicate register names", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
			Body: strings.Replace(mapBody, `"name":"status"`, `"name":"active_power"`, 1), Status: 400, Contains: []string{"registers[2].name"}},
		{Name: "address past the end", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
			Body: strings.Replace(mapBody, `"address":100`, `"address":65535`, 1), Status: 400, Contains: []string{"registers[0].address"}},
		{Name: "writable input register", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
			Body: strings.Replace(mapBody, `"target":"acVoltage"`, `"target":"acVoltage","writable":true`, 1), Status: 400, Contains: []string{"registers[3].writable"}},
		{Name: "two registers feed power", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
			Body: strings.Replace(mapBody, `"target":"acVoltage"`, `"target":"power"`, 1), Status: 400, Contains: []string{"registers[3].target"}},
		{Name: "translated", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin", Headers: map[string]string{"Accept-Language": "zh-CN"},
			Body: strings.Replace(mapBody, `"target":"energy"`, `"target":"power"`, 1), Status: 400, Contains: []string{"已由寄存器"}},
		{Name: "operator may not add maps", Method: "POST", URL: "/v1/scada/register/config/add", As: "operator", Body: mapBody, Status: 403},
	})
	if e.Count(t, "SELECT COUNT(*) FROM register_maps") != before {
		t.Fatal("a refused map was stored")
	}
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/register/config/add", As: "admin", Body: mapBody})
	if r.Status != 200 {
		t.Fatalf("add map: %d %s", r.Status, r.Body)
	}
	m := data[struct {
		ID      int64
		Version int
	}](t, r)
	if m.Version != 1 {
		t.Fatalf("version %d", m.Version)
	}

	link := func(dev int64, host, port string, unit int, mapID int64) string {
		return fmt.Sprintf(`{"deviceId":%d,"host":%q,"port":%s,"unitId":%d,"intervalS":1,"timeoutMs":500,"mapId":%d}`, dev, host, port, unit, mapID)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "timeout longer than the interval", Method: "POST", URL: "/v1/scada/dev/set", As: "admin",
			Body: strings.Replace(link(devA, host, port, 5, m.ID), `"timeoutMs":500`, `"timeoutMs":5000`, 1), Status: 400, Contains: []string{"timeoutMs"}},
		{Name: "bad host", Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Body: link(devA, "http://x/", port, 5, m.ID), Status: 400, Contains: []string{`"host"`}},
		{Name: "unknown map", Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Body: link(devA, host, port, 5, 99999), Status: 400, Contains: []string{"mapId"}},
		{Name: "other organisation's device", Method: "POST", URL: "/v1/scada/dev/set", As: "other", Body: link(devA, host, port, 5, 0), Status: 404},
		{Name: "link the map device", Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Body: link(devA, host, port, 5, m.ID), Status: 200},
		{Name: "link the SunSpec device", Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Body: link(devB, shost, sport, 1, 0), Status: 200},
	})

	latest := func(id int64) (float64, float64, float64, bool) {
		got, err := e.Server.Reader.Latest(ctx, []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		s, ok := got[id]
		return s.PowerKW, s.EnergyKWh, s.ACVoltageV, ok
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); !cond(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/dev/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devA)})
				t.Fatalf("%s: timed out; %s", what, r.Body)
			}
		}
	}
	waitFor("map device sample stored", func() bool {
		p, en, v, ok := latest(devA)
		return ok && near(p, 5.5) && near(en, 10000) && near(v, 230.1)
	})
	waitFor("SunSpec device sample stored", func() bool { p, en, _, ok := latest(devB); return ok && near(p, 4.2) && near(en, 7000) })

	// Live registers, raw and decoded.
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/register/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devA)})
	live := data[struct {
		Protocol  string
		Registers []struct {
			Name  string
			Raw   []uint16
			Value *float64
		}
	}](t, r)
	if live.Protocol != "map" || len(live.Registers) != 5 || live.Registers[1].Name != "total_energy" ||
		fmt.Sprint(live.Registers[1].Raw) != "[34464 1]" || !near(*live.Registers[1].Value, 10000) {
		t.Fatalf("live read %s", r.Body)
	}
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/register/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devB)})
	if !strings.Contains(r.Body, `"protocol":"sunspec"`) || !strings.Contains(r.Body, `"name":"WH"`) {
		t.Fatalf("SunSpec live read %s", r.Body)
	}

	// Writes: admins only, confirmed, writable registers only, audited.
	write := func(reg string, value float64, confirm bool) string {
		return fmt.Sprintf(`{"deviceId":%d,"register":%q,"value":%v,"confirm":%v}`, devA, reg, value, confirm)
	}
	audits := e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE action = 'scada.register.write'")
	e.Run(t, []apitest.Scenario{
		{Name: "unconfirmed write", Method: "POST", URL: "/v1/scada/register/set", As: "admin", Body: write("power_limit", 60, false), Status: 400, Contains: []string{"confirm"}},
		{Name: "operator write", Method: "POST", URL: "/v1/scada/register/set", As: "operator", Body: write("power_limit", 60, true), Status: 403},
		{Name: "other organisation write", Method: "POST", URL: "/v1/scada/register/set", As: "other", Body: write("power_limit", 60, true), Status: 404},
		{Name: "read-only register", Method: "POST", URL: "/v1/scada/register/set", As: "admin", Body: write("active_power", 1, true), Status: 400, Contains: []string{"register"}},
		{Name: "value too large", Method: "POST", URL: "/v1/scada/register/set", As: "admin", Body: write("power_limit", 70000, true), Status: 400, Contains: []string{"value"}},
		{Name: "write", Method: "POST", URL: "/v1/scada/register/set", As: "admin", Body: write("power_limit", 60, true), Status: 200, Contains: []string{`"name":"power_limit"`}},
	})
	if got := im.Get(200, 1)[0]; got != 60 {
		t.Fatalf("register 200 = %d after the write", got)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE action = 'scada.register.write' AND target = ?", snA); n != audits+1 {
		t.Fatalf("%d write audits, want %d", n, audits+1)
	}

	// A new version of the map applies at the next poll, without a restart.
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/register/config/add", As: "admin",
		Body: strings.Replace(mapBody, `"scale":0.001`, `"scale":0.002`, 1)})
	if r.Status != 200 || !strings.Contains(r.Body, `"version":2`) {
		t.Fatalf("second version: %s", r.Body)
	}
	waitFor("version 2 applied", func() bool { p, _, _, _ := latest(devA); return near(p, 11) })
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/config/get", As: "admin", Body: fmt.Sprintf(`{"id":%d,"version":1}`, m.ID)})
	if !strings.Contains(r.Body, `"shown":1`) || !strings.Contains(r.Body, `"scale":0.001`) || !strings.Contains(r.Body, `"version":2`) {
		t.Fatalf("version 1: %s", r.Body)
	}

	// Export, then import in another organisation; that organisation never sees ours.
	r = e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v1/scada/config/export/%d", m.ID), As: "admin"})
	if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "HX-2000.v2.regmap.json") {
		t.Fatalf("export: %d %v", r.Status, r.Header)
	}
	file := r.Body
	e.Run(t, []apitest.Scenario{
		{Name: "import elsewhere", Method: "POST", URL: "/v1/scada/register/config/add", As: "other", Body: file, Status: 200, Contains: []string{`"version":1`, `"scale":0.002`}},
		{Name: "other cannot read ours", Method: "POST", URL: "/v1/scada/config/get", As: "other", Body: fmt.Sprintf(`{"id":%d}`, m.ID), Status: 404},
		{Name: "other cannot export ours", Method: "GET", URL: fmt.Sprintf("/v1/scada/config/export/%d", m.ID), As: "other", Status: 404},
		{Name: "other cannot delete ours", Method: "POST", URL: "/v1/scada/config/delete", As: "other", Body: fmt.Sprintf(`{"id":%d}`, m.ID), Status: 404},
		{Name: "other's list", Method: "GET", URL: "/v1/scada/project/register/config/list", As: "other", Status: 200, Contains: []string{`"total":1`}},
		{Name: "import here adds a version", Method: "POST", URL: "/v1/scada/register/config/add", As: "admin", Body: file, Status: 200, Contains: []string{`"version":3`}},
		{Name: "in use", Method: "POST", URL: "/v1/scada/config/delete", As: "admin", Body: fmt.Sprintf(`{"id":%d}`, m.ID), Status: 409},
		{Name: "project", Method: "POST", URL: "/v1/scada/project/get", As: "admin", Body: `{}`, Status: 200, Contains: []string{`"devices":2`, `"online":2`}},
		{Name: "device status", Method: "POST", URL: "/v1/scada/dev/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devB), Status: 200, Contains: []string{`"state":"online"`, `"base":40000`}},
		{Name: "operator cannot see the device", Method: "POST", URL: "/v1/scada/dev/get", As: "other", Body: fmt.Sprintf(`{"deviceId":%d}`, devB), Status: 404},
		{Name: "unlink", Method: "POST", URL: "/v1/scada/dev/delete", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devA), Status: 200, Contains: []string{`"link":null`}},
		{Name: "unlinked again", Method: "POST", URL: "/v1/scada/dev/delete", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devA), Status: 409},
		{Name: "not polled any more", Method: "POST", URL: "/v1/scada/register/get", As: "admin", Body: fmt.Sprintf(`{"deviceId":%d}`, devA), Status: 409},
		{Name: "delete", Method: "POST", URL: "/v1/scada/config/delete", As: "admin", Body: fmt.Sprintf(`{"id":%d}`, m.ID), Status: 200},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM register_map_versions WHERE map_id = ?", m.ID); n != 0 {
		t.Fatalf("%d versions left", n)
	}
}
