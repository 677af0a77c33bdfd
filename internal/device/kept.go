package device

import (
	"context"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Kept is what a Telemetry that keeps the fleet in memory can also answer without the
// database: how many devices a caller sees, by type and state, and the device rows (read
// again after any write through the API).
type Kept interface {
	// DeviceStateCounts counts the devices p may see at now by type (Types' order) and
	// state (States' order); ok false: not kept, list them instead.
	DeviceStateCounts(ctx context.Context, p *httpapi.Principal, now time.Time) (counts [4][4]int, ok bool, err error)
	// KeptDevices returns the devices of stations the caller may see, in List's order,
	// shared (not to be changed); ok false when the rows are not kept (list them in SQL).
	KeptDevices(ctx context.Context, stationIDs []int64) (devs []*Device, ok bool, err error)
	// KeptDevice is Get: the device id when p may see its station, nil otherwise; shared
	// (not to be changed); ok false when the rows are not kept.
	KeptDevice(ctx context.Context, p *httpapi.Principal, id int64) (d *Device, ok bool, err error)
}

// KeptFigures is what a Telemetry that keeps the fleet in memory can also answer: each
// device's figures read in place, so that a sorted list ranks a fleet without asking the
// telemetry for every device.
type KeptFigures interface {
	// EachDeviceFigures calls fn for every device whose own station is one of stationIDs
	// with its latest sample (nil: it never reported) and its energy as Energy gives it;
	// fn may keep d (a row is never changed once read: reading the membership again makes
	// new rows and moves RankingMark), not latest, and must not call the telemetry. ok
	// false: not kept.
	EachDeviceFigures(ctx context.Context, stationIDs []int64, fn func(d *Device, latest *telemetry.Sample, e Energy)) (ok bool, err error)
	// RankingMark is a position in the figures' and the poller's changes: while it stays
	// equal, EachDeviceFigures gives the same figures (ok false: not kept).
	RankingMark(ctx context.Context) (mark [3]uint64, ok bool, err error)
}

// ofStations returns the devices of visible stations, kept or from SQL.
func (s *Service) ofStations(r *http.Request, ids []int64) ([]*Device, error) {
	if k, ok := s.Telemetry.(Kept); ok {
		devs, kept, err := k.KeptDevices(r.Context(), ids)
		if err != nil || kept {
			return devs, err
		}
	}
	devs, _, err := List(r.Context(), s.DB, httpapi.Caller(r), Filter{StationIDs: ids})
	return devs, err
}

// keptSummary counts the caller's devices by type and state from a Kept telemetry (ok
// false when there is none).
func (s *Service) keptSummary(r *http.Request, sum *Summary) (ok bool, err error) {
	k, isKept := s.Telemetry.(Kept)
	if !isKept {
		return false, nil
	}
	n, ok, err := k.DeviceStateCounts(r.Context(), httpapi.Caller(r), s.now())
	if err != nil || !ok {
		return ok, err
	}
	for ti, typ := range Types {
		if ti >= len(n) {
			break
		}
		for si, st := range States {
			sum.ByType[typ][st] += n[ti][si]
			sum.ByState[st] += n[ti][si]
			sum.Total += n[ti][si]
		}
	}
	return true, nil
}

// States are the device states in StateIndex's order.
var States = [4]string{StateRunning, StateStandby, StateFault, StateOffline}

// StateIndex is a state's place in States.
func StateIndex(s string) int {
	switch s {
	case StateRunning:
		return 0
	case StateStandby:
		return 1
	case StateFault:
		return 2
	}
	return 3
}
