package analysis

import (
	"errors"
	"net/http"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// KPI keys, as Overview.NotApplicable names them.
const (
	KPIYield           = "yield"
	KPISpecificYield   = "specificYield"
	KPIEquivalentHours = "equivalentHours"
	KPIPR              = "pr"
	KPIPRTemp          = "prTemp"
	KPIAvailability    = "availability"
	KPICO2             = "co2"
	KPIRevenue         = "revenue"
	KPIExpected        = "expected"
	KPIActualVsExpect  = "actualVsExpected"
	KPISelfConsumption = "selfConsumption"
	KPIAutarky         = "autarky"
)

// Where a device overview's kWp comes from (DeviceInfo.CapacitySource).
const (
	CapacityModules = "modules" // the PV array behind the inverter, kWp
	CapacityRated   = "rated"   // the inverter's rated AC power, kW, when its array is not recorded
)

// DeviceInfo names the device of a device overview.
type DeviceInfo struct {
	ID   int64  `json:"id"`
	Type string `json:"type" doc:"inverter, battery, storage or meter"`
	// MeterPosition is a meter's place: grid (import and export) or load (consumption).
	MeterPosition string `json:"meterPosition" doc:"grid or load for a meter, else empty"`
	StationID     int64  `json:"stationId"`
	StationName   string `json:"stationName"`
	// CapacitySource says what Site.CapacityKWp is: the modules' kWp, the rated power
	// in kW, or empty when neither is known (specific yield and full-load hours are null).
	CapacitySource string `json:"capacitySource" doc:"modules, rated or empty"`
}

// DeviceNotApplicable lists the KPIs that do not apply to a single device of a kind: an
// inverter has every PV figure but no site meters (self-consumption and autarky are the
// site's); a battery, storage unit or meter produces no PV, so none of them applies.
func DeviceNotApplicable(kind string) []string {
	if kind == "inverter" {
		return []string{KPISelfConsumption, KPIAutarky}
	}
	return []string{KPIYield, KPISpecificYield, KPIEquivalentHours, KPIPR, KPIPRTemp, KPIAvailability, KPICO2,
		KPIRevenue, KPIExpected, KPIActualVsExpect, KPISelfConsumption, KPIAutarky}
}

// DeviceCapacity is the capacity a device's specific yield and full-load hours divide by:
// its modules' kWp when recorded, else its rated power, else none.
func DeviceCapacity(d *device.Device) (float64, string) {
	switch {
	case d.ComponentCapacityKWp > 0:
		return d.ComponentCapacityKWp, CapacityModules
	case d.RatedPowerKW > 0:
		return d.RatedPowerKW, CapacityRated
	}
	return 0, ""
}

// deviceOverview answers scope=device: the device is found only under a station the caller
// may see (another organisation's device, or one outside the caller's grant, is 404).
func (s *Service) deviceOverview(r *http.Request, id int64, per Period) (any, error) {
	ctx, p := r.Context(), httpapi.Caller(r)
	d, err := device.Get(ctx, s.DB, p, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	st, err := station.Get(ctx, s.DB, p, d.StationID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	kind := d.Type
	if kind == "meter" {
		kind = "meter:" + d.MeterPosition
	}
	ms, err := s.Measure.Device(ctx, d.ID, kind, st.Timezone, st.Country, per)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	capacity, source := DeviceCapacity(d)
	site := Site{CapacityKWp: capacity, PricePerKWh: st.PricePerKWh, SubsidyPerKWh: st.SubsidyPerKWh,
		Currency: st.Currency, Storage: d.Type == "battery" || d.Type == "storage"}
	revenue := []Money{{Currency: st.Currency, Amount: ms.Total.PVKWh * (st.PricePerKWh + st.SubsidyPerKWh)}}
	na := DeviceNotApplicable(d.Type)
	if d.Type != "inverter" {
		revenue = []Money{}
	}
	o := s.answer(ScopeDevice, d.Name, per, site, ms, revenue)
	o.NotApplicable = na
	o.KPIs = withoutKPIs(o.KPIs, na)
	for i := range o.Series {
		o.Series[i].KPIs = withoutKPIs(o.Series[i].KPIs, na)
	}
	o.Device = &DeviceInfo{ID: d.ID, Type: d.Type, MeterPosition: d.MeterPosition, StationID: d.StationID, StationName: d.StationName, CapacitySource: source}
	return o, nil
}

// withoutKPIs nulls the named KPIs (a figure that does not apply reads as none, never as 0).
func withoutKPIs(k KPIs, keys []string) KPIs {
	for _, key := range keys {
		switch key {
		case KPISpecificYield:
			k.SpecificYield = nil
		case KPIEquivalentHours:
			k.EquivalentHours = nil
		case KPIPR:
			k.PR = nil
		case KPIPRTemp:
			k.PRTemp = nil
		case KPIAvailability:
			k.Availability = nil
		case KPIRevenue:
			k.Revenue = nil
		case KPIExpected:
			k.ExpectedKWh = nil
		case KPIActualVsExpect:
			k.ActualVsExpect = nil
		case KPISelfConsumption:
			k.SelfConsumption = nil
		case KPIAutarky:
			k.Autarky, k.LoadKWh = nil, nil
		}
	}
	return k
}
