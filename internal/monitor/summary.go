package monitor

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Period is a figure for the current period beside the previous one.
type Period struct {
	Value    float64 `json:"value"`
	Previous float64 `json:"previous" doc:"the same stretch of the previous period (docs/kpi.md): yesterday up to the same local time, last month or last year up to the same day and time; 0 when not compared"`
	Change   float64 `json:"change" doc:"(value − previous) ÷ previous over the stations compared, in %; 0 when there is no previous value"`
	Compare  string  `json:"compare,omitempty" doc:"what is compared: sameTimeYesterday, sameDaysLastMonth or sameDaysLastYear"`
	// compared is the current value of the stations that have a previous stretch.
	compared float64
}

// Periods holds a figure by day, month, year and in total.
type Periods struct {
	Day   Period `json:"day"`
	Month Period `json:"month"`
	Year  Period `json:"year"`
	Total Period `json:"total"`
}

// Money is an amount per period in one currency.
type Money struct {
	Currency string  `json:"currency"`
	Day      float64 `json:"day"`
	Month    float64 `json:"month"`
	Year     float64 `json:"year"`
	Total    float64 `json:"total"`
}

// All is the fleet summary of the monitoring centre.
type All struct {
	Stations         int        `json:"stations"`
	CapacityKWp      float64    `json:"capacityKwp"`
	Devices          int        `json:"devices"`
	DevicesOnline    int        `json:"devicesOnline"`
	DevicesFault     int        `json:"devicesFault"`
	OnlineRatio      float64    `json:"onlineRatio" doc:"devices online ÷ devices, %"`
	FaultRatio       float64    `json:"faultRatio" doc:"devices in fault ÷ devices, %"`
	CurrentPowerKW   float64    `json:"currentPowerKw"`
	Normalization    float64    `json:"powerNormalization" doc:"current kW ÷ installed kWp, %"`
	EnergyKWh        Periods    `json:"energyKwh" doc:"PV energy, kWh, by each station's calendar"`
	CO2ReductionKg   Periods    `json:"co2ReductionKg"`
	Profit           []Money    `json:"profit" doc:"per currency"`
	ProfitBase       *BaseMoney `json:"profitBase" doc:"the profit in the organisation's base currency (docs/kpi.md, Money)"`
	EmissionFactorKg float64    `json:"emissionFactorKgPerKwh" doc:"CO₂ ÷ energy in all: the stations' country factors weighted by their lifetime energy (the deployment's factor when there is none)"`
}

// PowerPoint is one bucket of the fleet's energy flows.
type PowerPoint struct {
	Time int64 `json:"time" doc:"bucket start, unix ms"`
	telemetry.Flows
	// Profit is the PV energy's value per currency (kWh × (price + subsidy)).
	Profit map[string]float64 `json:"profit"`
	// ProfitBase is the bucket's profit in the organisation's base currency, the
	// currencies without a rate left out (docs/kpi.md, Money).
	ProfitBase *float64 `json:"profitBase"`
}

// PowerData is the fleet's energy flows over a day (hours), month (days) or year (months).
type PowerData struct {
	Period   string       `json:"period"`
	Timezone string       `json:"timezone"`
	Unit     string       `json:"unit"`
	Points   []PowerPoint `json:"points"`
	// Opening is, for the total period, the energy before the recorded history (the
	// devices' opening counters, docs/kpi.md): in no point, part of the lifetime total.
	// BaseCurrency is the organisation's base currency; Unconverted its stations'
	// currencies without a rate, left out of every profitBase.
	BaseCurrency string      `json:"baseCurrency"`
	Unconverted  []string    `json:"unconverted"`
	Opening      *PowerPoint `json:"opening,omitempty" doc:"total period only: energy before the recorded history (opening counters), in no point; time is the first point's"`
}

// PowerQuery names the calendar the fleet series is drawn in.
type PowerQuery struct {
	TZ  string `query:"tz" default:"UTC" doc:"IANA timezone of the viewer (default UTC)"`
	loc *time.Location
}

// Check reads the zone.
func (q *PowerQuery) Check(v *httpapi.Validator) {
	cal, ok := telemetry.LookupCalendar(q.TZ)
	if !ok || q.TZ == "Local" {
		v.Add("tz", "invalid_format")
		return
	}
	q.loc = cal.Loc
}

// Summary serves the /v2/summary calls.
type Summary struct {
	Figures *Figures
}

// Routes registers the summary calls.
func (s *Summary) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/summary/all", Tag: "summary", Summary: "Fleet totals of the visible stations",
		Access: httpapi.Signed, Resp: All{}, Handle: s.all})
	for _, p := range []string{"day", "month", "year", "total"} {
		api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/summary/powerdata/" + p, Tag: "summary",
			Summary: "Fleet energy flows: hours of today, days of this month, months of this year, or every year (total)",
			Access:  httpapi.Signed, Query: PowerQuery{}, Resp: PowerData{}, Handle: s.powerData(p)})
	}
	s.rankingRoutes(api)
}

// roots are the visible stations whose parent is not visible: their roll-ups cover the
// visible fleet exactly once.
func roots(list []*station.Station) []*station.Station { return fleet.Roots(list) }

func change(v, prev float64) float64 {
	if prev == 0 {
		return 0
	}
	return r3((v - prev) / prev * 100)
}

func (s *Summary) all(r *http.Request) (any, error) {
	ctx := r.Context()
	f := s.Figures
	list, rs, err := f.visibleRoots(r)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	var out All
	ok := false
	if f.keepsParts(p) {
		// the whole organisation: its roots' parts are kept (allkept.go)
		if out, ok, err = f.keptAll(ctx, p.OrgID, list, rs); err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	if !ok {
		if out, err = f.computeAll(ctx, r, list, rs); err != nil {
			return nil, err
		}
	}
	if out.ProfitBase, err = f.baseProfit(ctx, p.OrgID, rs, out.Profit); err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

// computeAll is the fleet summary of the stations list (roots rs) computed afresh.
func (f *Figures) computeAll(ctx context.Context, r *http.Request, list, rs []*station.Station) (All, error) {
	ids := make([]int64, len(rs))
	for i, st := range rs {
		ids[i] = st.ID
	}
	totals, err := f.stationTotals(ctx, ids)
	if err != nil {
		return All{}, httpapi.Internal(err)
	}
	prev, err := f.likeEnergies(ctx, rs, telemetry.Day, telemetry.Month, telemetry.Year)
	if err != nil {
		return All{}, httpapi.Internal(err)
	}
	live, err := f.live(ctx, rs, livePower)
	if err != nil {
		return All{}, httpapi.Internal(err)
	}
	states, err := f.stateCounts(ctx, r, list)
	if err != nil {
		return All{}, httpapi.Internal(err)
	}
	var a allSum
	for _, st := range rs {
		t := totals[st.ID]
		pv := [4]float64{t.Today.PVKWh, t.Month.PVKWh, t.Year.PVKWh, t.Total.PVKWh}
		var pr [3]float64
		var ok [3]bool
		for i := range pr {
			pr[i], ok[i] = prev[i][st.ID]
		}
		a.add(st, pv, f.factorOf(st), pr, ok, live[st.ID].CurrentPowerKW)
	}
	return a.finish(f, list, rs, states), nil
}

// allSum adds up the fleet summary station by station, in the roots' order (the same
// order, so the same sums, whether the parts were kept or computed).
type allSum struct {
	e, c    Periods // energy, and CO₂ at each station's country factor
	money   map[string]*Money
	powerKW float64
}

// add takes a root: its PV today, this month, this year and in total, its emission
// factor, its compared stretches (ok: compared) and its power now.
func (a *allSum) add(st *station.Station, pv [4]float64, factor float64, prev [3]float64, ok [3]bool, powerKW float64) {
	a.addEnergy(pv, factor, prev, ok)
	if a.money == nil {
		a.money = map[string]*Money{}
	}
	m := a.money[st.Currency]
	if m == nil {
		m = &Money{Currency: st.Currency}
		a.money[st.Currency] = m
	}
	a.addMoney(m, st, pv, powerKW)
}

// addEnergy adds a root's energy and CO₂ by period, and its compared stretches.
func (a *allSum) addEnergy(pv [4]float64, factor float64, prev [3]float64, ok [3]bool) {
	a.e.add(1, pv, prev, ok)
	a.c.add(factor, pv, prev, ok)
}

// add adds k × a root's periods.
func (p *Periods) add(k float64, pv [4]float64, prev [3]float64, ok [3]bool) {
	p.Day.Value += k * pv[0]
	p.Month.Value += k * pv[1]
	p.Year.Value += k * pv[2]
	p.Total.Value += k * pv[3]
	for i, q := range [3]*Period{&p.Day, &p.Month, &p.Year} {
		if ok[i] {
			q.Previous += k * prev[i]
			q.compared += k * pv[i]
		}
	}
}

// addMoney adds a root's profit into m (its currency's) and its power.
func (a *allSum) addMoney(m *Money, st *station.Station, pv [4]float64, powerKW float64) {
	m.Day += Profit(pv[0], st.PricePerKWh, st.SubsidyPerKWh)
	m.Month += Profit(pv[1], st.PricePerKWh, st.SubsidyPerKWh)
	m.Year += Profit(pv[2], st.PricePerKWh, st.SubsidyPerKWh)
	m.Total += Profit(pv[3], st.PricePerKWh, st.SubsidyPerKWh)
	a.powerKW += powerKW
}

// finish is the summary of the stations list (roots rs) whose devices count states.
func (a *allSum) finish(f *Figures, list, rs []*station.Station, states [4]int) All {
	capacity, roots := fleetSize(list, rs)
	return a.finishOf(f, capacity, roots, states)
}

// fleetSize is the roots' capacity and how many stations of list are roots.
func fleetSize(list, rs []*station.Station) (capacity float64, roots int) {
	for _, st := range rs {
		capacity += st.CapacityKWp
	}
	for _, st := range list {
		if st.ParentID == 0 {
			roots++
		}
	}
	return capacity, roots
}

// finishOf is finish with the fleet's capacity and root count given.
func (a *allSum) finishOf(f *Figures, capacity float64, roots int, states [4]int) All {
	out := All{Profit: []Money{}, EmissionFactorKg: f.factor(), CapacityKWp: capacity, Stations: roots}
	finish := func(p *Periods) Periods {
		p.Day.Compare, p.Month.Compare, p.Year.Compare = CompareDay, CompareMonth, CompareYear
		one := func(p *Period) Period {
			return Period{Value: r3(p.Value), Previous: r3(p.Previous), Change: change(p.compared, p.Previous), Compare: p.Compare}
		}
		return Periods{Day: one(&p.Day), Month: one(&p.Month), Year: one(&p.Year), Total: one(&p.Total)}
	}
	out.EnergyKWh, out.CO2ReductionKg = finish(&a.e), finish(&a.c)
	if a.e.Total.Value > 0 { // the fleet's factor: its stations' weighted by their lifetime energy
		out.EmissionFactorKg = r3(a.c.Total.Value / a.e.Total.Value)
	}
	for _, m := range a.money {
		out.Profit = append(out.Profit, Money{Currency: m.Currency, Day: r3(m.Day), Month: r3(m.Month), Year: r3(m.Year), Total: r3(m.Total)})
	}
	sort.Slice(out.Profit, func(i, j int) bool { return out.Profit[i].Currency < out.Profit[j].Currency })
	out.CurrentPowerKW = a.powerKW
	for si, n := range states {
		out.Devices += n
		if device.States[si] != device.StateOffline {
			out.DevicesOnline += n
		}
		if device.States[si] == device.StateFault {
			out.DevicesFault += n
		}
	}
	if out.Devices > 0 {
		out.OnlineRatio = r3(float64(out.DevicesOnline) / float64(out.Devices) * 100)
		out.FaultRatio = r3(float64(out.DevicesFault) / float64(out.Devices) * 100)
	}
	out.CapacityKWp = r3(out.CapacityKWp)
	out.CurrentPowerKW = r3(out.CurrentPowerKW)
	out.Normalization = r3(Normalization(out.CurrentPowerKW, out.CapacityKWp))
	return out
}

// firstYear is the earliest year with a yearly roll-up for the stations (at most
// `latest`, and no earlier than 2000).
func (f *Figures) firstYear(ctx context.Context, ids []int64, latest int) (int, error) {
	pts, err := f.stationFlows(ctx, ids, telemetry.Year, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), f.now())
	if err != nil {
		return 0, err
	}
	first := latest
	for _, list := range pts {
		for _, p := range list {
			if p.PVKWh > 0 || p.ImportKWh > 0 || p.LoadKWh > 0 {
				first = min(first, p.Start.Add(48*time.Hour).Year())
				break
			}
		}
	}
	return first, nil
}

func addFlows(a *telemetry.Flows, b telemetry.Flows) {
	a.PVKWh += b.PVKWh
	a.DischargeKWh += b.DischargeKWh
	a.ChargeKWh += b.ChargeKWh
	a.ImportKWh += b.ImportKWh
	a.ExportKWh += b.ExportKWh
	a.LoadKWh += b.LoadKWh
}

func roundFlows(f telemetry.Flows) telemetry.Flows {
	return telemetry.Flows{PVKWh: r3(f.PVKWh), DischargeKWh: r3(f.DischargeKWh), ChargeKWh: r3(f.ChargeKWh),
		ImportKWh: r3(f.ImportKWh), ExportKWh: r3(f.ExportKWh), LoadKWh: r3(f.LoadKWh)}
}
