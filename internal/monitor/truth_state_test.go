package monitor_test

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// sunspecInverter is a running three-phase SunSpec inverter (model 103): 12 kW, 5 MWh.
func sunspecInverter(t *testing.T) *sunspectest.Image {
	im := sunspectest.NewImage()
	common := sunspectest.Load(t, 1).Block(nil, nil, nil)
	copy(common[2:], sunspectest.String("Helio", 16))
	copy(common[18:], sunspectest.String("HX-103", 16))
	copy(common[50:], sunspectest.String("SNTRUTH", 16))
	im.PutSunSpec(40000, common, sunspectest.Load(t, 103).Block(map[string]float64{"W": 12000, "WH": 5e6, "DCV": 600, "DCA": 20,
		"PhVphA": 230, "Hz": 50, "TmpCab": 35, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 0, "DCV_SF": 0, "DCA_SF": -1,
		"V_SF": 0, "Hz_SF": -2, "Tmp_SF": 0}, nil))
	return im
}

// adminGet is a GET as the administrator, its data decoded.
func adminGet[T any](t *testing.T, e *apitest.Env, u string) T {
	t.Helper()
	return data[T](t, e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: "admin"}))
}

// waitUntil checks cond until it holds (a condition wait: the poller's own pace decides).
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, what)
		}
		<-tick.C
	}
}

// screens is what every screen says of the device and its station.
type screens struct {
	list, page, tree, debug string
	summaryOffline          int // the device list's counts (/v2/dev/summary)
	inverterOffline         int // the monitor's inverter counts
	headerOnline            int // the station page's header: devices online
	mapComm                 int // the station list and map: communication status
}

func readScreens(t *testing.T, e *apitest.Env, stationID, deviceID int64) screens {
	var s screens
	for _, it := range adminGet[httpapi.Page[device.Item]](t, e, "/v2/dev/listbytype?page=1&pageSize=20").List {
		if it.ID == deviceID {
			s.list = it.State
		}
	}
	s.page = adminGet[device.Detail](t, e, fmt.Sprintf("/v2/dev/detail/%d", deviceID)).State
	for _, it := range adminGet[[]device.Item](t, e, fmt.Sprintf("/v2/dev/list/%d", stationID)) {
		if it.ID == deviceID {
			s.tree = it.State
		}
	}
	dbg := data[scada.DeviceField](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/dev/get", As: "admin",
		Body: fmt.Sprintf(`{"deviceId":%d}`, deviceID)}))
	if dbg.Status != nil {
		s.debug = dbg.Status.State
	}
	s.summaryOffline = adminGet[device.Summary](t, e, "/v2/dev/summary").ByState[device.StateOffline]
	s.inverterOffline = adminGet[device.InverterStatus](t, e, "/v2/dev/inverterstatus").ByState[device.StateOffline]
	s.headerOnline = adminGet[station.Detail](t, e, fmt.Sprintf("/v2/site/detail/%d", stationID)).DevicesOnline
	for _, it := range adminGet[httpapi.Page[station.ListItem]](t, e, "/v2/site/list?pageSize=20").List {
		if it.ID == stationID {
			s.mapComm = it.CommunicationStatus
		}
	}
	return s
}

// One state per device: a Modbus inverter read by the field poller is running on every
// screen; once it stops answering, the moment the remote-debugging page says offline the
// device list, its page, its station's tree, the device counts, the station header and
// the station list (the map's source) say so too, from the fleet state and afresh, on
// SQLite and PostgreSQL (docs/kpi.md, device.StateOf).
func TestOneStatePerDevice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: sunspecInverter(t)}})
		stationID := data[station.Station](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/site/add", As: "admin",
			Body: `{"name":"Field Truth Plant","location":"Golmud","region":"Qinghai","address":"2 Field Road","timezone":"Asia/Shanghai",
				"stationType":"ground","systemType":"pv","capacityKwp":30,"lat":36.4,"lng":94.9,"azimuth":180,"inclination":30,"currency":"CNY","tagIds":[]}`})).ID
		deviceID := data[device.Device](t, e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/dev/add", As: "admin",
			Body: fmt.Sprintf(`{"stationId":%d,"name":"Modbus inverter","sn":"MB-TRUTH","type":"inverter","ratedPowerKw":20,
				"componentRatedPowerW":400,"componentCount":60,"stringsTotal":2,"stringsEnabled":2}`, stationID)})).ID
		host, port, _ := net.SplitHostPort(srv.Addr)
		e.Do(t, apitest.Scenario{Method: "POST", URL: "/v1/scada/dev/set", As: "admin", Status: 200,
			Body: fmt.Sprintf(`{"deviceId":%d,"host":"%s","port":%s,"unitId":1,"intervalS":5,"timeoutMs":300}`, deviceID, host, port)})

		every := func(want screens) func(t *testing.T) {
			return func(t *testing.T) {
				for _, kept := range []bool{true, false} {
					saved := e.Server.Figures.Fleet
					if !kept {
						e.Server.Figures.Fleet = nil
					}
					got := readScreens(t, e, stationID, deviceID)
					e.Server.Figures.Fleet = saved
					if got != want {
						t.Fatalf("fleet state %v: the screens say %+v, want %+v", kept, got, want)
					}
				}
			}
		}
		waitUntil(t, 30*time.Second, "the poller's first sample", func() bool {
			d := adminGet[device.Detail](t, e, fmt.Sprintf("/v2/dev/detail/%d", deviceID))
			return d.Latest != nil && d.State == device.StateRunning
		})
		t.Run("answering", every(screens{list: device.StateRunning, page: device.StateRunning, tree: device.StateRunning,
			debug: scada.StateOnline, headerOnline: 1, mapComm: station.CommNormal}))

		srv.Stop() // the device stops answering
		waitUntil(t, 60*time.Second, "the debugging page says offline", func() bool {
			return readScreens(t, e, stationID, deviceID).debug == scada.StateOffline
		})
		t.Run("silent", every(screens{list: device.StateOffline, page: device.StateOffline, tree: device.StateOffline,
			debug: scada.StateOffline, summaryOffline: 1, inverterOffline: 1, mapComm: station.CommAllOffline}))
	})
}
