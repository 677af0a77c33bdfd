// Package tools serves the console's planning tools: an expected-yield estimator on the
// PV model (internal/pvmodel) under the simulator's weather, a string sizing check, and
// the grid CO₂ factors per country.
package tools

import (
	"context"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves /v2/tools.
type Service struct {
	DB *store.DB
	// EmissionFactor is the KPIs' factor for stations of countries the table lacks (kg CO₂/kWh).
	EmissionFactor float64
	// Climate returns the simulator's climate of a station (by its simulator key), when
	// it has one: the estimator then draws that station's weather.
	Climate func(simKey string) (pvmodel.Climate, bool)
	// Weather draws the weather an estimate runs under (the server's is the simulator's,
	// sim.YieldWeather); without it the estimator answers an internal error.
	Weather pvmodel.WeatherSource
	// Now is the clock (default time.Now).
	Now func() time.Time

	busy chan struct{}
}

// estimators bounds the yield estimates computed at once (each is a year of 5-minute
// steps, about a tenth of a second of one core).
const estimators = 2

// Routes registers the tools calls.
func (s *Service) Routes(api *httpapi.API) {
	s.busy = make(chan struct{}, estimators)
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/tools/yield", Tag: "tools", Access: httpapi.Signed,
		Summary: "Expected yield of a planned array: monthly and yearly kWh from the simulator's sun, weather and array model",
		Body:    YieldInput{}, Resp: YieldResult{}, Handle: s.yield})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/tools/strings", Tag: "tools", Access: httpapi.Signed,
		Summary: "String sizing check: modules per string against an inverter's MPPT range and maximum DC voltage at the site's extreme cell temperatures",
		Body:    StringInput{}, Resp: StringResult{}, Handle: s.strings})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/tools/co2factors", Tag: "tools", Access: httpapi.Signed,
		Summary: "Grid CO₂ emission factors per country, and the factor the KPIs use",
		Resp:    CO2Factors{}, Handle: s.co2})
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// acquire waits for an estimator slot (or the request's end).
func (s *Service) acquire(ctx context.Context) (func(), error) {
	select {
	case s.busy <- struct{}{}:
		return func() { <-s.busy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Service) decode(r *http.Request, dst any) error { return httpapi.DecodeLimit(r, dst, 4<<10) }
