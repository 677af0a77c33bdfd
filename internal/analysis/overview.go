package analysis

import (
	"errors"
	"github.com/helio-energy/helio/internal/money"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Scopes of the data overview.
const (
	ScopeFleet   = "fleet"
	ScopeStation = "station"
	ScopeDevice  = "device"
)

// OverviewQuery documents the overview's parameters.
type OverviewQuery struct {
	Scope  string `query:"scope" validate:"required" enum:"fleet,station,device" doc:"fleet, station or device"`
	ID     int64  `query:"id" validate:"id" doc:"the station or device id; required unless the scope is fleet"`
	Period string `query:"period" validate:"required" enum:"day,month,year,custom" doc:"day, month, year or custom"`
	Date   string `query:"date" doc:"yyyy-MM-dd (day), yyyy-MM (month) or yyyy (year); required unless the period is custom"`
	From   string `query:"from" doc:"first date of a custom period, yyyy-MM-dd; required when the period is custom"`
	To     string `query:"to" doc:"last date of a custom period, yyyy-MM-dd (at most 366 days); required when the period is custom"`
	period Period
}

// Check reads the period and asks for the id of a station or device.
func (q *OverviewQuery) Check(v *httpapi.Validator) {
	if (q.Scope == ScopeStation || q.Scope == ScopeDevice) && q.ID == 0 {
		v.Add("id", "required")
	}
	if q.Period == "" {
		return
	}
	per, err := ParsePeriod(q.Period, q.Date, q.From, q.To)
	for k, m := range httpapi.AsError(err).Fields {
		v.Add(k, m.Key, m.Args...)
	}
	q.period = per
}

// Point is one bucket of an overview or comparison.
type Point struct {
	Label  string `json:"label" doc:"local hour HH:mm, date yyyy-MM-dd or month yyyy-MM"`
	Totals Totals `json:"totals"`
	KPIs   KPIs   `json:"kpis"`
}

// Overview is the data overview of the fleet, a station or a device over a period.
type Overview struct {
	Scope  string `json:"scope"`
	Name   string `json:"name"`
	Period Period `json:"period"`
	Site   Site   `json:"site"`
	Totals Totals `json:"totals"`
	KPIs   KPIs   `json:"kpis"`
	// Revenue per currency; RevenueBase all of it in the organisation's base currency
	// (several stations only), which kpis.revenue then carries.
	Revenue     []Money      `json:"revenue"`
	RevenueBase *RevenueBase `json:"revenueBase,omitempty" doc:"fleet and several stations: the revenue in the organisation's base currency, month by month"`
	Series      []Point      `json:"series"`
	Model       Model        `json:"model"`
	// NotApplicable names the KPIs that do not apply to what is measured (a single device
	// has no site meters); they are null.
	NotApplicable []string `json:"notApplicable" doc:"KPI keys that do not apply to this scope: yield, specificYield, equivalentHours, pr, prTemp, availability, co2, revenue, expected, actualVsExpected, selfConsumption, autarky"`
	// Device is the device of a device overview.
	Device *DeviceInfo `json:"device,omitempty"`
}

// Money is an amount in a currency.
type Money struct {
	Currency string  `json:"currency"`
	Amount   float64 `json:"amount"`
}

// Model names the constants the formulas use, so the console can show them.
type Model struct {
	EmissionFactor float64 `json:"emissionFactorKgPerKwh" doc:"CO₂ ÷ kWh of the period: the station's country factor, for several stations theirs weighted by energy"`
	TempCoeff      float64 `json:"tempCoeffPerC"`
	SystemLoss     float64 `json:"systemLoss"`
	InverterEta    float64 `json:"inverterEta"`
}

// Service serves the analysis calls.
type Service struct {
	DB      *store.DB
	Measure *Measurer
	// EmissionFactor is the grid factor of stations whose country the emission table
	// lacks (the Measurer's decides; this one is shown when no energy gives a factor).
	EmissionFactor float64

	compares *Templates[CompareConfig]
}

func (s *Service) model() Model {
	return Model{EmissionFactor: s.EmissionFactor, TempCoeff: TempCoeff, SystemLoss: SystemLoss, InverterEta: InverterEta}
}

// Routes registers the overview and compare calls.
func (s *Service) Routes(api *httpapi.API) {
	s.CompareRoutes(api)
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/analysis/overview", Tag: "analysis",
		Summary: "KPIs of the fleet, a station or a device over a day, month, year or custom range, in each station's time zone",
		Access:  httpapi.Signed, Query: OverviewQuery{}, Resp: Overview{}, Handle: s.overview, Cache: true})
}

func (s *Service) overview(r *http.Request) (any, error) {
	q := httpapi.Query[OverviewQuery](r)
	per, scope, id := q.period, q.Scope, q.ID
	ctx, p := r.Context(), httpapi.Caller(r)
	switch scope {
	case ScopeFleet, ScopeStation:
		var ids []int64
		if scope == ScopeStation {
			ids = []int64{id}
		}
		sts, err := Stations(ctx, s.DB, p, ids)
		if errors.Is(err, store.ErrNotFound) {
			return nil, httpapi.NotFound()
		}
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		return s.stationsOverview(r, scope, sts, per)
	case ScopeDevice:
		return s.deviceOverview(r, id, per)
	default:
		return nil, httpapi.InvalidField("scope", "one_of", "fleet, station, device")
	}
}

func (s *Service) stationsOverview(r *http.Request, scope string, sts []Station, per Period) (any, error) {
	got, err := s.Measure.Stations(r.Context(), sts, per)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	list := make([]*Measured, 0, len(sts))
	for _, st := range sts {
		list = append(list, got[st.ID])
	}
	ms := Combine(list)
	site, name := FleetSite(sts), ""
	if scope == ScopeStation && len(sts) == 1 {
		site, name = sts[0].Site, sts[0].Name
	}
	o := s.answer(scope, name, per, site, ms, Revenues(sts, got))
	if site.Currency == "" && len(sts) > 0 {
		book, err := money.Load(r.Context(), s.DB, httpapi.Caller(r).OrgID)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		base := BaseRevenue(book, sts, got, per)
		o.RevenueBase = &base
		if len(base.Unconverted) == 0 { // else the KPI stays per currency: a partial sum is no total
			v := base.Amount
			o.KPIs.Revenue, o.KPIs.Currency = &v, base.Currency
		}
	}
	return o, nil
}

// Revenues sums each station's revenue per currency.
func Revenues(sts []Station, got map[int64]*Measured) []Money {
	var out []Money
	for _, st := range sts {
		m := got[st.ID]
		if m == nil {
			continue
		}
		amount := m.Total.PVKWh * (st.PricePerKWh + st.SubsidyPerKWh)
		found := false
		for i := range out {
			if out[i].Currency == st.Currency {
				out[i].Amount += amount
				found = true
			}
		}
		if !found {
			out = append(out, Money{Currency: st.Currency, Amount: amount})
		}
	}
	return out
}

func (s *Service) answer(scope, name string, per Period, site Site, ms *Measured, revenue []Money) Overview {
	o := Overview{Scope: scope, Name: name, Period: per, Site: site, Totals: ms.Total, Revenue: revenue, Model: s.model(),
		Series: make([]Point, len(ms.Labels))}
	o.KPIs = Compute(ms.Total, site)
	if ms.Total.PVKWh > 0 {
		o.Model.EmissionFactor = ms.Total.CO2Kg / ms.Total.PVKWh
	}
	if site.Currency == "" && len(revenue) == 1 {
		v := revenue[0].Amount
		o.KPIs.Revenue, o.KPIs.Currency = &v, revenue[0].Currency
	}
	for i, l := range ms.Labels {
		o.Series[i] = Point{Label: l, Totals: ms.Buckets[i], KPIs: Compute(ms.Buckets[i], site)}
	}
	if o.Revenue == nil {
		o.Revenue = []Money{}
	}
	o.NotApplicable = []string{}
	return o
}
