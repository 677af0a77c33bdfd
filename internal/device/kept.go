package device

import (
	"context"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Kept is what a Telemetry that keeps the fleet in memory can also answer: the type and
// latest sample of every device of some stations, without listing the devices from the
// database.
type Kept interface {
	// DeviceTypes returns the id and type of every device p may see (ok false: not kept,
	// list them instead).
	DeviceTypes(ctx context.Context, p *httpapi.Principal) (ids []int64, types []string, ok bool, err error)
}

// keptStates returns the type and state of every device the caller sees, from a Kept
// telemetry (ok false when there is none).
func (s *Service) keptStates(r *http.Request) (types, states []string, ok bool, err error) {
	k, isKept := s.Telemetry.(Kept)
	if !isKept {
		return nil, nil, false, nil
	}
	ctx := r.Context()
	ids, types, ok, err := k.DeviceTypes(ctx, httpapi.Caller(r))
	if err != nil || !ok {
		return nil, nil, ok, err
	}
	latest, err := s.Telemetry.Latest(ctx, ids)
	if err != nil {
		return nil, nil, false, err
	}
	now := s.now()
	states = make([]string, len(ids))
	for i, id := range ids {
		if l, found := latest[id]; found {
			states[i] = State(&l, now)
		} else {
			states[i] = State(nil, now)
		}
	}
	return types, states, true, nil
}
