package device

import (
	"math"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
)

// The visible devices counted: by type and state, and the inverters by state.

// Summary counts visible devices by type and by state.
type Summary struct {
	Total   int                       `json:"total"`
	ByType  map[string]map[string]int `json:"byType" doc:"type → state → count"`
	ByState map[string]int            `json:"byState"`
}

// InverterStatus counts the visible inverters by state, with their capacity.
type InverterStatus struct {
	Total          int            `json:"total"`
	ByState        map[string]int `json:"byState"`
	RatedPowerKW   float64        `json:"ratedPowerKw"`
	CurrentPowerKW float64        `json:"currentPowerKw"`
}

func (s *Service) summary(r *http.Request) (any, error) {
	sum := Summary{ByType: map[string]map[string]int{}, ByState: map[string]int{}}
	for _, t := range Types {
		sum.ByType[t] = map[string]int{StateRunning: 0, StateStandby: 0, StateFault: 0, StateOffline: 0}
	}
	for _, st := range []string{StateRunning, StateStandby, StateFault, StateOffline} {
		sum.ByState[st] = 0
	}
	kept, err := s.keptSummary(r, &sum)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if kept {
		return sum, nil
	}
	items, err := s.all(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for _, it := range items {
		sum.Total++
		sum.ByType[it.Type][it.State]++
		sum.ByState[it.State]++
	}
	return sum, nil
}

func (s *Service) inverterStatus(r *http.Request) (any, error) {
	items, err := s.all(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := InverterStatus{ByState: map[string]int{StateRunning: 0, StateStandby: 0, StateFault: 0, StateOffline: 0}}
	for _, it := range items {
		if it.Type != "inverter" {
			continue
		}
		out.Total++
		out.ByState[it.State]++
		out.RatedPowerKW += it.RatedPowerKW
		out.CurrentPowerKW += it.CurrentPowerKW
	}
	out.RatedPowerKW = math.Round(out.RatedPowerKW*1000) / 1000
	out.CurrentPowerKW = math.Round(out.CurrentPowerKW*1000) / 1000
	return out, nil
}
