package device

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// StateOf: the poller's offline or connecting wins over a fresh sample; a stale sample is
// offline whatever the poller says; else the sample's status.
func TestStateOf(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fresh := func(status int) *telemetry.Sample {
		return &telemetry.Sample{Time: now.Add(-time.Minute), Status: status}
	}
	stale := &telemetry.Sample{Time: now.Add(-OfflineAfter - time.Second), Status: telemetry.StatusRunning}
	for _, tc := range []struct {
		name   string
		latest *telemetry.Sample
		comm   string
		want   string
	}{
		{"never reported", nil, "", StateOffline},
		{"running, no poller", fresh(telemetry.StatusRunning), "", StateRunning},
		{"running, poller online", fresh(telemetry.StatusRunning), "online", StateRunning},
		{"running, poller offline", fresh(telemetry.StatusRunning), CommOffline, StateOffline},
		{"running, poller connecting", fresh(telemetry.StatusRunning), CommConnecting, StateOffline},
		{"fault, poller online", fresh(telemetry.StatusFault), "online", StateFault},
		{"grid fault", fresh(telemetry.StatusGridFault), "", StateFault},
		{"stale, poller online", stale, "online", StateOffline},
		{"just within OfflineAfter", &telemetry.Sample{Time: now.Add(-OfflineAfter), Status: telemetry.StatusRunning}, "", StateRunning},
	} {
		if got := StateOf(tc.latest, tc.comm, now); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
