package device_test

import (
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
)

// The list and history queries' enums are the lists the devices keep.
func TestQueryEnums(t *testing.T) {
	states := []string{device.StateRunning, device.StateStandby, device.StateFault, device.StateOffline}
	if got := httpapi.Enum(device.ListQuery{}, "type"); !slices.Equal(got, device.Types) {
		t.Errorf("type: %v, want %v", got, device.Types)
	}
	if got := httpapi.Enum(device.ListQuery{}, "state"); !slices.Equal(got, states) {
		t.Errorf("state: %v, want %v", got, states)
	}
	metrics := httpapi.Enum(device.HistoryQuery{}, "metric")
	if len(metrics) != len(device.Metrics) {
		t.Errorf("metric: %v, want the keys of %v", metrics, device.Metrics)
	}
	for _, m := range metrics {
		if _, ok := device.Metrics[m]; !ok {
			t.Errorf("metric %s has no unit", m)
		}
	}
}
