package device

import (
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// States a device can be in (StateOf).
const (
	StateRunning = "running"
	StateStandby = "standby"
	StateFault   = "fault"
	StateOffline = "offline" // no sample for OfflineAfter, or the field poller cannot read it
)

// The field poller's communication states StateOf reads (internal/scada).
const (
	CommConnecting = "connecting"
	CommOffline    = "offline"
)

// OfflineAfter is how long a device may be silent before it counts as offline.
const OfflineAfter = 15 * time.Minute

// StateOf judges a device from its latest sample (nil when it never reported) and the
// field poller's communication state (comm: "" when no poller reads it). It is the one
// rule behind every state shown (device list, page, station tree, counts, station
// header, map): offline when the poller says offline or has not read the device since it
// started (connecting), or when the latest sample is older than OfflineAfter; else the
// sample's status.
func StateOf(latest *telemetry.Sample, comm string, now time.Time) string {
	switch {
	case comm == CommOffline || comm == CommConnecting:
		return StateOffline
	case latest == nil || now.Sub(latest.Time) > OfflineAfter:
		return StateOffline
	case latest.Status == telemetry.StatusFault || latest.Status == telemetry.StatusOverTemp || latest.Status == telemetry.StatusGridFault:
		return StateFault
	case latest.Status == telemetry.StatusRunning:
		return StateRunning
	default:
		return StateStandby
	}
}

// Comms is what a Telemetry that knows the field poller also answers: the communication
// state of each device a poller reads (absent: not read). The map is shared.
type Comms interface {
	CommStates() map[int64]string
}

// comms returns the poller's communication states (none without a poller).
func (s *Service) comms() map[int64]string {
	if c, ok := s.Telemetry.(Comms); ok {
		return c.CommStates()
	}
	return nil
}
