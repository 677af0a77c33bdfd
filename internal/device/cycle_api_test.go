package device_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// A chain of 40 devices, each under the one before: putting the first under the last
// would close a cycle 40 deep. It was stored (the check stopped at 32 levels); it is
// refused, and nothing changes.
func TestDeviceParentCycleOfAnyDepthRefused(t *testing.T) {
	e := apitest.NewWithFleet(t)
	subID := idOf(t, e, "stations", e.Fleet.Stations[0].Children[0].Key)
	var chain []int64
	parent := int64(0)
	for i := range 40 {
		changes := []any{"name", fmt.Sprintf("Chain %d", i)}
		if parent != 0 {
			changes = append(changes, "parentId", parent)
		}
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/dev/add", As: "admin", Body: deviceBody(subID, fmt.Sprintf("CHAIN-%03d", i), changes...)})
		if r.Status != 200 {
			t.Fatalf("add %d: %d %s", i, r.Status, r.Body)
		}
		var d struct{ ID int64 }
		_ = json.Unmarshal(r.Env.Data, &d)
		chain = append(chain, d.ID)
		parent = d.ID
	}
	first, last := chain[0], chain[len(chain)-1]
	e.Run(t, []apitest.Scenario{
		{Name: "first under the last (40 deep)", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", first), As: "admin",
			Body: deviceBody(subID, "CHAIN-000", "name", "Chain 0", "parentId", last), Status: 400,
			Contains: []string{`"parentId":"This device is above the chosen parent`}},
		{Name: "under its grandchild", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", chain[5]), As: "admin",
			Body: deviceBody(subID, "CHAIN-005", "name", "Chain 5", "parentId", chain[7]), Status: 400, Contains: []string{`"parentId"`}},
		{Name: "moving the last under the first is fine", Method: "POST", URL: fmt.Sprintf("/v2/dev/edit/%d", last), As: "admin",
			Body: deviceBody(subID, "CHAIN-039", "name", "Chain 39", "parentId", first), Status: 200},
	})
	if n := e.Count(t, fmt.Sprintf("SELECT COUNT(*) FROM devices WHERE id = %d AND parent_id IS NULL", first)); n != 1 {
		t.Fatal("the refused edit changed the first device")
	}
}
