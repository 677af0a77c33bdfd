package sys_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// Two Go types named alike (station.Input, device.Input) get two schemas: the station
// add/edit bodies point at the station's, the device ones at the device's.
func TestOpenAPISchemaNamesAreUnique(t *testing.T) {
	e := apitest.New(t)
	doc := e.Server.API.OpenAPI("test")
	b, _ := json.Marshal(doc)
	var d struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	body := func(path string) string {
		return d.Paths[path]["post"].RequestBody.Content["application/json"].Schema.Ref
	}
	site, dev := body("/v2/site/add"), body("/v2/dev/add")
	if site == "" || dev == "" || site == dev {
		t.Fatalf("station add body %q, device add body %q: want two schemas", site, dev)
	}
	if body("/v2/site/edit/{uid}") != site {
		t.Fatalf("station edit body %q, add %q", body("/v2/site/edit/{uid}"), site)
	}
	props := d.Components.Schemas[strings.TrimPrefix(site, "#/components/schemas/")].Properties
	if _, ok := props["capacityKwp"]; !ok {
		t.Fatalf("the station body schema %s has no capacityKwp: %v", site, props)
	}
	if _, ok := props["sn"]; ok {
		t.Fatalf("the station body schema %s describes a device", site)
	}
}
