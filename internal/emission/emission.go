// Package emission is the one table of grid CO₂ emission factors per country: the KPIs'
// carbon reduction (monitor, station, analysis, reports) uses the factor of each station's
// country, and the console's Tools page shows the same table (GET /v2/tools/co2factors).
package emission

import (
	"sort"
	"strings"
)

// Country is a country's grid emission factor.
type Country struct {
	Country  string  `json:"country" doc:"ISO 3166-1 alpha-2"`
	KgPerKWh float64 `json:"kgPerKwh"`
	Year     int     `json:"year" doc:"the year the factor describes"`
}

// table holds average grid emission factors (kg CO₂ per kWh generated), rounded, from the
// national inventories and the IEA's emission factors: the figure a kWh of PV displaces
// on average in that country.
var table = map[string]Country{
	"AU": {"AU", 0.66, 2022}, "BR": {"BR", 0.09, 2022}, "CL": {"CL", 0.33, 2022}, "CN": {"CN", 0.57, 2022},
	"DE": {"DE", 0.38, 2023}, "ES": {"ES", 0.15, 2023}, "FR": {"FR", 0.06, 2023}, "GB": {"GB", 0.21, 2023},
	"IN": {"IN", 0.71, 2022}, "IT": {"IT", 0.26, 2023}, "JP": {"JP", 0.45, 2022}, "KR": {"KR", 0.44, 2022},
	"MX": {"MX", 0.42, 2022}, "TW": {"TW", 0.49, 2023}, "US": {"US", 0.37, 2022}, "ZA": {"ZA", 0.93, 2022},
}

// Factor is the grid emission factor (kg CO₂/kWh) of a station in the country (ISO 3166-1
// alpha-2, any case): the table's, or fallback (the deployment's --emission-factor) for a
// country the table lacks or a station without a country.
func Factor(country string, fallback float64) float64 {
	if c, ok := table[strings.ToUpper(strings.TrimSpace(country))]; ok {
		return c.KgPerKWh
	}
	return fallback
}

// Countries returns the table by country code.
func Countries() []Country {
	out := make([]Country, 0, len(table))
	for _, c := range table {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Country < out[j].Country })
	return out
}
