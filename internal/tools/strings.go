package tools

import (
	"math"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
)

// StringInput is a string of modules on one MPPT input and the site's air temperatures.
type StringInput struct {
	ModulesPerString int     `json:"modulesPerString" doc:"1 to 100"`
	ModuleVocV       float64 `json:"moduleVocV" doc:"open-circuit voltage at STC, 1 to 200 V"`
	ModuleVmpV       float64 `json:"moduleVmpV" doc:"maximum-power voltage at STC, below Voc"`
	VocCoeffPct      float64 `json:"vocCoeffPctPerC" doc:"Voc temperature coefficient, −1 to 0 %/°C (e.g. −0.27)"`
	VmpCoeffPct      float64 `json:"vmpCoeffPctPerC" doc:"Vmp temperature coefficient, −1 to 0 %/°C (e.g. −0.35)"`
	InverterMaxDCV   float64 `json:"inverterMaxDcV" doc:"the inverter's maximum DC input voltage, 50 to 2000 V"`
	MPPTMinV         float64 `json:"mpptMinV" doc:"lower end of the MPPT range, V"`
	MPPTMaxV         float64 `json:"mpptMaxV" doc:"upper end of the MPPT range, V (at most the maximum DC voltage)"`
	SiteMinAirC      float64 `json:"siteMinAirC" doc:"the site's record low air temperature, −60 to 40 °C"`
	SiteMaxAirC      float64 `json:"siteMaxAirC" doc:"the site's record high air temperature, −20 to 60 °C"`
}

// StringCheck is one check of the string against a limit.
type StringCheck struct {
	Key    string  `json:"key" doc:"vocCold (max DC voltage), vmpHot (MPPT minimum), vmpCold (MPPT maximum)"`
	ValueV float64 `json:"valueV"`
	LimitV float64 `json:"limitV"`
	OK     bool    `json:"ok"`
}

// StringResult is the verdict and the string lengths that would pass.
type StringResult struct {
	CellMinC    float64       `json:"cellMinC" doc:"coldest cell: the record low air temperature (cells at dawn are at air temperature)"`
	CellMaxC    float64       `json:"cellMaxC" doc:"hottest cell: record high air + 30 °C (1000 W/m², little wind)"`
	Checks      []StringCheck `json:"checks"`
	OK          bool          `json:"ok"`
	MinModules  int           `json:"minModules" doc:"fewest modules that stay in the MPPT range when hot"`
	MaxModules  int           `json:"maxModules" doc:"most modules under the maximum DC voltage when cold and in the MPPT range"`
	Recommended bool          `json:"recommendedRangeExists" doc:"false when no string length fits"`
}

// hotCellRise is how much warmer than the air a module's cells run at 1000 W/m² with
// little wind (NOCT 45 °C: (45 − 20) ÷ 800 W/m² × 1000 W/m² ≈ 31 °C).
const hotCellRise = 30

func (in *StringInput) validate() error {
	var v httpapi.Validator
	if in.ModulesPerString < 1 || in.ModulesPerString > 100 {
		v.Add("modulesPerString", "out_of_range", 1, 100)
	}
	v.Range("moduleVocV", in.ModuleVocV, 1, 200)
	v.Range("moduleVmpV", in.ModuleVmpV, 1, 200)
	if in.ModuleVmpV >= in.ModuleVocV && in.ModuleVocV > 0 {
		v.Add("moduleVmpV", "vmp_below_voc")
	}
	v.Range("vocCoeffPctPerC", in.VocCoeffPct, -1, 0)
	v.Range("vmpCoeffPctPerC", in.VmpCoeffPct, -1, 0)
	v.Range("inverterMaxDcV", in.InverterMaxDCV, 50, 2000)
	v.Range("mpptMinV", in.MPPTMinV, 10, 2000)
	v.Range("mpptMaxV", in.MPPTMaxV, 10, 2000)
	if in.MPPTMinV >= in.MPPTMaxV {
		v.Add("mpptMaxV", "mppt_range_order")
	} else if in.MPPTMaxV > in.InverterMaxDCV {
		v.Add("mpptMaxV", "mppt_above_max_dc")
	}
	v.Range("siteMinAirC", in.SiteMinAirC, -60, 40)
	v.Range("siteMaxAirC", in.SiteMaxAirC, -20, 60)
	if in.SiteMinAirC >= in.SiteMaxAirC {
		v.Add("siteMaxAirC", "temp_range_order")
	}
	return v.Err()
}

// atTemp is a voltage at STC moved to a cell temperature by its coefficient.
func atTemp(v, coeffPct, cellC float64) float64 { return v * (1 + coeffPct/100*(cellC-25)) }

func (s *Service) strings(r *http.Request) (any, error) {
	var in StringInput
	if err := s.decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	return CheckString(in), nil
}

// CheckString sizes a string (inputs validated).
func CheckString(in StringInput) StringResult {
	out := StringResult{CellMinC: in.SiteMinAirC, CellMaxC: in.SiteMaxAirC + hotCellRise}
	n := float64(in.ModulesPerString)
	vocCold := atTemp(in.ModuleVocV, in.VocCoeffPct, out.CellMinC)
	vmpHot := atTemp(in.ModuleVmpV, in.VmpCoeffPct, out.CellMaxC)
	vmpCold := atTemp(in.ModuleVmpV, in.VmpCoeffPct, out.CellMinC)
	out.Checks = []StringCheck{
		{Key: "vocCold", ValueV: round(n*vocCold, 1), LimitV: in.InverterMaxDCV, OK: n*vocCold <= in.InverterMaxDCV},
		{Key: "vmpHot", ValueV: round(n*vmpHot, 1), LimitV: in.MPPTMinV, OK: n*vmpHot >= in.MPPTMinV},
		{Key: "vmpCold", ValueV: round(n*vmpCold, 1), LimitV: in.MPPTMaxV, OK: n*vmpCold <= in.MPPTMaxV},
	}
	out.OK = true
	for _, c := range out.Checks {
		out.OK = out.OK && c.OK
	}
	out.MinModules = int(math.Ceil(in.MPPTMinV/vmpHot - 1e-9))
	out.MaxModules = int(math.Floor(min(in.InverterMaxDCV/vocCold, in.MPPTMaxV/vmpCold) + 1e-9))
	out.Recommended = out.MinModules <= out.MaxModules
	return out
}
