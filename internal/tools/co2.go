package tools

import (
	"net/http"

	"github.com/helio-energy/helio/internal/emission"
)

// CO2Factors lists the grid factors the KPIs use, per country.
type CO2Factors struct {
	KPIFactor float64            `json:"kpiFactorKgPerKwh" doc:"the factor of stations whose country is not listed (--emission-factor)"`
	KPIScope  string             `json:"kpiScope" doc:"country: each station's carbon reduction uses its country's factor"`
	Countries []emission.Country `json:"countries"`
}

func (s *Service) co2(*http.Request) (any, error) {
	return CO2Factors{KPIFactor: s.EmissionFactor, KPIScope: "country", Countries: emission.Countries()}, nil
}
