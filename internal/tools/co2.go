package tools

import (
	"net/http"
	"sort"
)

// CountryFactor is a country's grid emission factor.
type CountryFactor struct {
	Country  string  `json:"country" doc:"ISO 3166-1 alpha-2"`
	KgPerKWh float64 `json:"kgPerKwh"`
	Year     int     `json:"year" doc:"the year the factor describes"`
}

// CO2Factors lists the grid factors and says which one the KPIs use.
type CO2Factors struct {
	KPIFactor float64         `json:"kpiFactorKgPerKwh" doc:"the factor every KPI's carbon reduction uses (--emission-factor)"`
	KPIScope  string          `json:"kpiScope" doc:"fleet: one factor for every station"`
	Countries []CountryFactor `json:"countries"`
}

// gridFactors are average grid emission factors (kg CO₂ per kWh generated), rounded, from
// the national inventories and the IEA's emission factors: the figure a kWh of PV
// displaces on average. They are reference values for planning, not the KPIs' factor.
var gridFactors = map[string]CountryFactor{
	"AU": {"AU", 0.66, 2022}, "BR": {"BR", 0.09, 2022}, "CL": {"CL", 0.33, 2022}, "CN": {"CN", 0.57, 2022},
	"DE": {"DE", 0.38, 2023}, "ES": {"ES", 0.15, 2023}, "FR": {"FR", 0.06, 2023}, "GB": {"GB", 0.21, 2023},
	"IN": {"IN", 0.71, 2022}, "IT": {"IT", 0.26, 2023}, "JP": {"JP", 0.45, 2022}, "KR": {"KR", 0.44, 2022},
	"MX": {"MX", 0.42, 2022}, "TW": {"TW", 0.49, 2023}, "US": {"US", 0.37, 2022}, "ZA": {"ZA", 0.93, 2022},
}

func (s *Service) co2(*http.Request) (any, error) {
	out := CO2Factors{KPIFactor: s.EmissionFactor, KPIScope: "fleet", Countries: make([]CountryFactor, 0, len(gridFactors))}
	for _, f := range gridFactors {
		out.Countries = append(out.Countries, f)
	}
	sort.Slice(out.Countries, func(i, j int) bool { return out.Countries[i].Country < out.Countries[j].Country })
	return out, nil
}
