package demo

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// FaultInput is the body of POST /v2/demo/fault.
type FaultInput struct {
	DeviceID int64  `json:"deviceId" validate:"required" doc:"a device of a station the caller may see"`
	Kind     string `json:"kind" validate:"required" doc:"string_down, inverter_trip, collector_lost, over_temperature, grid_fault or battery_fault"`
	Minutes  int    `json:"minutes" doc:"how long the fault lasts, 1-1440 (default 30)"`
}

// FaultView is an injected fault.
type FaultView struct {
	ID    string    `json:"id"`
	Kind  string    `json:"kind"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// FaultService lets an administrator inject a fault into the demo simulator, to see
// the alarm engine, messages and push at work. It answers 404 without --demo.
type FaultService struct {
	DB     *store.DB
	Engine func() *Engine
}

// Routes registers POST /v2/demo/fault.
func (s *FaultService) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/demo/fault", Tag: "demo",
		Summary: "Inject a fault into the demo simulator (admin; demo mode only)", Access: httpapi.Admin,
		Body: FaultInput{}, Resp: FaultView{}, Handle: s.inject})
}

var faultKinds = []string{string(sim.FaultStringDown), string(sim.FaultInverterTrip), string(sim.FaultCollectorLost),
	string(sim.FaultOverTemp), string(sim.FaultGrid), string(sim.FaultBattery)}

func (s *FaultService) inject(r *http.Request) (any, error) {
	eng := s.Engine()
	if eng == nil {
		return nil, httpapi.NotFound()
	}
	var in FaultInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if in.DeviceID <= 0 {
		v.Add("deviceId", "required")
	}
	if v.Required("kind", in.Kind) {
		v.OneOf("kind", in.Kind, faultKinds...)
	}
	if in.Minutes == 0 {
		in.Minutes = 30
	}
	v.Range("minutes", float64(in.Minutes), 1, 1440)
	if err := v.Err(); err != nil {
		return nil, err
	}
	key, err := s.deviceKey(r.Context(), httpapi.Caller(r), in.DeviceID)
	if err != nil {
		return nil, err
	}
	f, err := eng.Sim.InjectFault(sim.FaultRequest{Kind: sim.FaultKind(in.Kind), Target: key,
		Start: time.Now().Truncate(time.Second), Duration: time.Duration(in.Minutes) * time.Minute})
	if err != nil {
		return nil, httpapi.InvalidField("kind", "invalid_format")
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "demo.fault", key, in.Kind, httpapi.ClientAddr(r))
	return FaultView{ID: f.ID, Kind: string(f.Kind), Start: f.Start.UTC(), End: f.End.UTC()}, nil
}

// deviceKey finds the simulator key of a device the caller may see.
func (s *FaultService) deviceKey(ctx context.Context, p *httpapi.Principal, id int64) (string, error) {
	where, args := station.Scope(p)
	var key string
	err := s.DB.QueryRow(ctx, "SELECT d.sim_key FROM devices d JOIN stations s ON s.id = d.station_id WHERE d.id = ? AND "+where,
		append([]any{id}, args...)...).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && strings.TrimSpace(key) == "") {
		return "", httpapi.InvalidField("deviceId", "not_found")
	}
	if err != nil {
		return "", httpapi.Internal(err)
	}
	return key, nil
}
