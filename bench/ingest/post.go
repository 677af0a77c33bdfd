package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/helio-energy/helio/bench/internal/influx"
	"github.com/helio-energy/helio/bench/internal/ingestgen"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The two HTTP paths: Helio's JSON (POST /v2/ingest/samples) and InfluxDB line protocol
// (POST /api/v2/write), posted the same way: one client per collector, each sending its
// devices' samples in time order, *perReq samples per request, timed from the first
// request to the last roll-up.

// poster is what differs between the HTTP paths.
type poster struct {
	name   string
	path   string
	status int
	header func(key string) (string, string)
	body   func(sns []string, samples []telemetry.Sample) []byte
	ctype  string
	// setup runs on the fresh database before the clients start
	setup func(ctx context.Context, db *store.DB, f *fleet)
}

func benchHTTP(dir string) row {
	return benchPost(dir, poster{name: fmt.Sprintf("HTTP POST → committed + roll-ups (%d/req)", *perReq), path: "/v2/ingest/samples", status: 200, ctype: "application/json",
		header: func(key string) (string, string) { return ingest.KeyHeader, key },
		body: func(sns []string, samples []telemetry.Sample) []byte {
			list := make([]wire, len(samples))
			for i := range samples {
				list[i] = toWire(sns[i], samples[i])
			}
			b, _ := json.Marshal(map[string]json.RawMessage{"samples": encode(list)})
			return b
		}})
}

// lineFields are the fields influx.AppendLine writes, with the rule for each.
var lineFields = [][2]string{{"power_kw", "powerKw"}, {"energy_kwh", "energyKwh"}, {"dc_voltage_v", "dcVoltageV"},
	{"dc_current_a", "dcCurrentA"}, {"ac_voltage_v", "acVoltageV"}, {"frequency_hz", "frequencyHz"}, {"temp_c", "tempC"},
	{"irradiance_wm2", "irradianceWm2"}, {"status", "status"}, {"strings_active", "stringsActive"}}

func benchLine(dir string) row {
	return benchPost(dir, poster{name: fmt.Sprintf("Line protocol POST /api/v2/write (%d/req)", *perReq), path: "/api/v2/write?org=o&bucket=b&precision=ms",
		status: 204,
		header: func(key string) (string, string) { return "Authorization", "Token " + key },
		body: func(sns []string, samples []telemetry.Sample) []byte {
			var b []byte
			for i := range samples {
				b = influx.AppendLine(b, "inverter", [][2]string{{"sn", sns[i]}}, &samples[i], false)
			}
			return b
		},
		ctype: "text/plain; charset=utf-8",
		setup: func(ctx context.Context, db *store.DB, f *fleet) {
			var rules ingest.LineRules
			for _, lf := range lineFields {
				rules.Rules = append(rules.Rules, ingest.LineRule{Measurement: "inverter", DeviceTag: "sn", Field: lf[0], Target: lf[1], Scale: 1})
			}
			if err := ingest.SaveLineRules(ctx, db, f.org, rules); err != nil {
				log.Fatal(err)
			}
		}})
}

func benchPost(dir string, p poster) row {
	ctx := context.Background()
	db := openDB(dir, fmt.Sprintf("http-%d", time.Now().UnixNano()))
	defer db.Close()
	f := newFleet(ctx, db, *nDevices)
	w := telemetry.NewWriter(db, telemetry.Options{})
	api := httpapi.New(func(*http.Request) (*httpapi.Principal, error) { return nil, httpapi.Unauthorized() })
	(&ingest.Service{DB: db, Writer: w}).Routes(api)
	ls := &ingest.LineService{DB: db, Writer: w}
	ls.LineRoutes(api)
	defer ls.Close()
	if p.setup != nil {
		p.setup(ctx, db, f)
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	start, k := steps()
	type req struct {
		key  string
		body []byte
	}
	per := map[string][]req{}
	total := 0
	for coll, key := range f.keys {
		var sns []string
		var list []telemetry.Sample
		flush := func() {
			if len(list) > 0 {
				per[coll] = append(per[coll], req{key, p.body(sns, list)})
				total += len(list)
				sns, list = nil, nil
			}
		}
		for step := 0; step < k; step++ {
			for i := range f.devices {
				if f.colls[i] != coll {
					continue
				}
				sns = append(sns, f.sns[i])
				list = append(list, ingestgen.Sample(start, i, step))
				if len(list) == *perReq {
					flush()
				}
			}
		}
		flush()
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	for _, reqs := range per {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range reqs {
				hr, _ := http.NewRequest("POST", srv.URL+p.path, bytes.NewReader(r.body))
				hr.Header.Set(p.header(r.key))
				hr.Header.Set("Content-Type", p.ctype)
				resp, err := http.DefaultClient.Do(hr)
				if err != nil {
					log.Fatal(err)
				}
				if resp.StatusCode != p.status {
					var b bytes.Buffer
					b.ReadFrom(resp.Body)
					log.Fatalf("%s: %d %s", p.path, resp.StatusCode, b.String())
				}
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	waitRolled(w)
	return row{name: p.name, samples: total, elapsed: time.Since(t0)}
}
