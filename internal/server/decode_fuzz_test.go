package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/fnv"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/server"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// decodeSeeds are bodies per call: valid ones and the usual mistakes. A call missing here
// is still fuzzed (every routed call with a body is), from the generic seeds.
var decodeSeeds = map[string][]string{
	"POST /v2/login":                   {`{"username":"admin","password":"helio-demo"}`, `{"username":1}`, `{"username":"a","password":"b","otp":1}`},
	"POST /v2/org/user/resetpwd/{uid}": {`{"password":"Matrix123"}`, `{"password":null}`},
	"POST /v2/site/add": {`{"parentId":1,"name":"Plant","location":"Golmud","region":"Qinghai","address":"1 Solar Road","timezone":"Asia/Shanghai",
		"stationType":"ground","systemType":"pv","capacityKwp":100,"lat":36.4,"lng":94.9,"azimuth":180,"inclination":30,"currency":"CNY","tagIds":[1,2]}`,
		`{"name":"\u0000\ud800","capacityKwp":1e308,"lat":-0,"tagIds":null}`},
	"POST /v2/site/edit/{uid}":       {`{"name":"Plant","buildDate":"2024-01-02","combineStatus":1,"gridStatus":2,"pricePerKwh":0.3}`},
	"POST /v2/site/tag/add":          {`{"name":"matrix","color":"cyan"}`, `{"name":["x"]}`},
	"POST /v2/site/tag/edit/{id}":    {`{"name":"renamed","color":"blue"}`},
	"POST /v2/site/upload/thumbnail": {`{"image":"data:image/png;base64,iVBORw0KGgo="}`},
	"POST /v2/dev/add":               {`{"stationId":2,"name":"Inverter","sn":"SN-1","type":"inverter","ratedPowerKw":10,"componentRatedPowerW":400,"componentCount":30,"stringsTotal":2,"stringsEnabled":2}`},
	"POST /v2/dev/edit/{uid}":        {`{"stationId":2,"name":"Inverter","sn":"SN-2","type":"meter","meterPosition":"grid"}`, `{"ratedPowerKw":"10"}`},
	"POST /v2/plan/buildlist/put":    {`{"stationId":1,"year":2026,"months":[{"month":3,"planKwh":100}]}`, `{"months":[{"month":1.5}]}`},
	"POST /v2/ingest/samples":        {`{"samples":[{"sn":"INV-1","time":"2026-01-02T03:04:05Z","powerKw":1,"energyKwh":2}]}`, `{"samples":[{"sn":"INV-1","time":1767323045000}]}`, `{"samples":[{"time":253402300800000}]}`},
	"POST /v2/warn/deal/{uid}":       {`{"reason":"inverter reset remotely","dealMethod":1}`, `{"dealMethod":"1"}`},
	"POST /v2/warn/rules":            {`{"rules":[{"key":"over_temperature","enabled":true,"level":2,"params":{"tempC":80}}]}`, `{"rules":[{"key":"x","params":{"a":"b"}}]}`},
	"POST /v2/warn/notify/settings":  {`{"levels":[1,2],"frequency":"high","dailyLimit":20,"methods":[1],"allowed":1,"timezone":"Asia/Shanghai"}`},
	"POST /v2/message/read":          {`{"ids":[1,2,3]}`, `{"all":true}`, `{"ids":[-1,9223372036854775807]}`},
}

// genericSeeds go to every call.
var genericSeeds = []string{``, `{}`, `null`, `[]`, `"x"`, `{"a":1}`, `{} {}`, `{"name":`, `{"name":"x"`, "\xff", `{"name":"\xff"}`,
	`{"id":9223372036854775808}`, `{"n":1e400}`, `{"x":[[[[[[[[[[]]]]]]]]]]}`}

// FuzzDecodeBodies decodes fuzzed bodies into the body type of every routed call, as
// the handlers do (httpapi.Decode into a new value of Route.Body's type). It must never
// panic, and must give either an *httpapi.Error with a 4xx status or a value that
// re-encodes; when the decoder takes that encoding back, it must be a fixed point.
func FuzzDecodeBodies(f *testing.F) {
	s := server.NewWithDB(apitest.Config(), storetest.SQLite(f))
	var routes []httpapi.Route
	byName := map[string]httpapi.Route{}
	for _, rt := range s.API.Routes() {
		if rt.Body != nil {
			routes = append(routes, rt)
			byName[rt.Method+" "+rt.Path] = rt
		}
	}
	if len(routes) == 0 {
		f.Skip("no routed call takes a body")
	}
	for _, rt := range routes {
		name := rt.Method + " " + rt.Path
		for _, b := range append(decodeSeeds[name], genericSeeds...) {
			f.Add(name, []byte(b))
		}
	}
	for name, bodies := range decodeSeeds {
		if _, ok := byName[name]; !ok {
			for _, b := range bodies {
				f.Add(name, []byte(b))
			}
		}
	}
	decode := func(rt httpapi.Route, body []byte) (any, error) {
		v := reflect.New(reflect.TypeOf(rt.Body))
		r := httptest.NewRequest(rt.Method, rt.Path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return v.Interface(), httpapi.Decode(r, v.Interface())
	}
	f.Fuzz(func(t *testing.T, name string, body []byte) {
		rt, ok := byName[name]
		if !ok {
			h := fnv.New32a()
			h.Write([]byte(name))
			rt = routes[int(h.Sum32()%uint32(len(routes)))]
		}
		call := rt.Method + " " + rt.Path
		v, err := decode(rt, body)
		if err != nil {
			var he *httpapi.Error
			if !errors.As(err, &he) || he.Status < 400 || he.Status > 499 {
				t.Fatalf("%s: %q gives %T %v, not a 4xx *httpapi.Error", call, body, err, err)
			}
			return
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %q decodes to %+v, which does not re-encode: %v", call, body, v, err)
		}
		// What the decoder takes back from its own encoding, it must keep as it was.
		// (It may refuse it: a zero instant encodes as year 1, which no call accepts.)
		again, err := decode(rt, enc)
		if err != nil {
			return
		}
		if enc2, err := json.Marshal(again); err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("%s: %q: encodes to %s, then to %s (%v)", call, body, enc, enc2, err)
		}
	})
}
