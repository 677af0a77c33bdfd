package scada_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// A station's communication state follows the poller: a device that cannot be reached is
// offline even before its last sample ages, and a station whose devices all answer is normal.
func TestStationCommunicationFromPolls(t *testing.T) {
	e := apitest.New(t)
	post := func(url, body string) json.RawMessage {
		t.Helper()
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: url, As: "admin", Body: body})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", url, r.Status, r.Body)
		}
		return r.Env.Data
	}
	id := func(raw json.RawMessage) int64 {
		var v struct{ ID int64 }
		_ = json.Unmarshal(raw, &v)
		return v.ID
	}
	st := id(post("/v2/site/add", `{"name":"Field Comm","location":"Golmud","region":"Qinghai","address":"1 Road","timezone":"Asia/Shanghai",
		"stationType":"ground","systemType":"pv","capacityKwp":50,"lat":36.4,"lng":94.9,"azimuth":180,"inclination":30,"currency":"CNY","tagIds":[]}`))
	dev := func(sn string) int64 {
		return id(post("/v2/dev/add", fmt.Sprintf(`{"stationId":%d,"name":%q,"sn":%q,"type":"inverter","ratedPowerKw":20,"componentRatedPowerW":400,"componentCount":50,"stringsTotal":2,"stringsEnabled":2}`, st, sn, sn)))
	}
	good, bad := dev("COMM-GOOD"), dev("COMM-BAD")
	im := sunspectest.NewImage()
	im.PutSunSpec(40000, sunspectest.Load(t, 103).Block(map[string]float64{"W": 6000, "WH": 1e6, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 0}, nil))
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: im}})
	host, port, _ := strings.Cut(srv.Addr, ":")
	_, deadPort, _ := strings.Cut(sunspectest.FreeAddr(t), ":")
	link := func(d int64, port string) {
		post("/v1/scada/dev/set", fmt.Sprintf(`{"deviceId":%d,"host":%q,"port":%s,"unitId":1,"intervalS":1,"timeoutMs":300}`, d, host, port))
	}
	comm := func() int {
		r := e.Do(t, apitest.Scenario{Method: "GET", URL: fmt.Sprintf("/v2/site/detail/%d", st), As: "admin"})
		var v struct {
			CommunicationStatus int
		}
		_ = json.Unmarshal(r.Env.Data, &v)
		return v.CommunicationStatus
	}
	waitComm := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); comm() != want; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("communication status %d, want %d", comm(), want)
			}
		}
	}
	if c := comm(); c != 1 {
		t.Fatalf("before any poll: %d, want 1 (connecting)", c)
	}
	link(good, port)
	link(bad, deadPort)
	waitComm(3) // some devices offline
	post("/v1/scada/dev/delete", fmt.Sprintf(`{"deviceId":%d}`, bad))
	link(bad, port)
	waitComm(2) // normal
}
