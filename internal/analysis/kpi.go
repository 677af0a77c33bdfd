// Package analysis answers "how did we do, and why": the KPIs of a station, a device or the
// fleet over a period, comparisons, and (in package report) the files built from them. It
// reads only roll-ups, through one narrow function (Rollups).
package analysis

import "math"

// Model constants of the expected yield: the simulator's own (internal/sim), so "expected"
// means what the model predicts from the measured irradiance and temperature.
const (
	// TempCoeff is the module power temperature coefficient, per °C above 25 °C.
	TempCoeff = -0.004
	// SystemLoss is soiling, wiring, mismatch and availability losses (kept share).
	SystemLoss = 0.93
	// InverterEta is the inverter's nominal efficiency.
	InverterEta = 0.97
)

// Totals are the roll-up quantities of one period (a bucket or a whole period) of a
// station, a device or the fleet: everything a KPI is computed from. They add up.
type Totals struct {
	PVKWh        float64 `json:"pvKwh"`        // produced by the inverters
	DischargeKWh float64 `json:"dischargeKwh"` // out of batteries and all-in-one storage
	ChargeKWh    float64 `json:"chargeKwh"`    // into them
	ImportKWh    float64 `json:"importKwh"`    // from the grid (grid meters)
	ExportKWh    float64 `json:"exportKwh"`    // to the grid
	LoadKWh      float64 `json:"loadKwh"`      // measured by load meters
	// RefEnergyKWh is Σ kWp × plane-of-array irradiation ÷ 1 kW/m² (IEC 61724 reference).
	RefEnergyKWh float64 `json:"refEnergyKwh"`
	// TempRefKWh is the reference energy corrected to the measured temperature:
	// Σ over buckets of RefEnergyKWh × (1 + TempCoeff × (T̄ − 25 °C)).
	TempRefKWh float64 `json:"tempRefKwh"`
	// InverterMin is inverters × minutes in the period (elapsed part), OnlineMin the
	// minutes inverters reported, FaultMin the minutes they spent in a fault status.
	InverterMin float64 `json:"inverterMin"`
	OnlineMin   float64 `json:"onlineMin"`
	FaultMin    float64 `json:"faultMin"`
	// GridMeter and LoadMeter say whether the site measures its grid and its load.
	GridMeter bool `json:"gridMeter"`
	LoadMeter bool `json:"loadMeter"`
	// Sites is set once each site's share figures are fixed (Sited), so that totals of
	// several sites add them up rather than mixing one site's meters with another's flows:
	// MeteredPVKWh is the PV of the sites with a grid meter, SiteLoadKWh their load.
	Sites        bool    `json:"sites"`
	MeteredPVKWh float64 `json:"meteredPvKwh"`
	SiteLoadKWh  float64 `json:"siteLoadKwh"`
	// CO2Kg is the CO₂ the PV energy avoided: each station's kWh × its country's grid
	// factor (internal/emission), so that totals of several countries add up.
	CO2Kg float64 `json:"co2Kg"`
}

// Sited fixes a single site's shares: its PV counts towards self-consumption and its load
// (metered, or the balance) towards autarky only when it has a grid meter.
func (t Totals) Sited() Totals {
	t.Sites = true
	t.MeteredPVKWh, t.SiteLoadKWh = 0, 0
	if t.GridMeter {
		t.MeteredPVKWh, t.SiteLoadKWh = t.PVKWh, Load(t)
	}
	return t
}

// Add adds o into t.
func (t *Totals) Add(o Totals) {
	t.PVKWh += o.PVKWh
	t.DischargeKWh += o.DischargeKWh
	t.ChargeKWh += o.ChargeKWh
	t.ImportKWh += o.ImportKWh
	t.ExportKWh += o.ExportKWh
	t.LoadKWh += o.LoadKWh
	t.RefEnergyKWh += o.RefEnergyKWh
	t.TempRefKWh += o.TempRefKWh
	t.InverterMin += o.InverterMin
	t.OnlineMin += o.OnlineMin
	t.FaultMin += o.FaultMin
	t.GridMeter = t.GridMeter || o.GridMeter
	t.LoadMeter = t.LoadMeter || o.LoadMeter
	t.Sites = t.Sites || o.Sites
	t.MeteredPVKWh += o.MeteredPVKWh
	t.SiteLoadKWh += o.SiteLoadKWh
	t.CO2Kg += o.CO2Kg
}

// Site is what the KPIs need to know about the thing measured.
type Site struct {
	CapacityKWp   float64 `json:"capacityKwp"`
	PricePerKWh   float64 `json:"pricePerKwh"`
	SubsidyPerKWh float64 `json:"subsidyPerKwh"`
	Currency      string  `json:"currency"`
	// Storage marks a site with batteries or all-in-one storage.
	Storage bool `json:"storage"`
}

// KPIs are the figures of the data overview. A nil figure cannot be computed for the
// period (no capacity, no irradiation, no meter, several currencies).
type KPIs struct {
	YieldKWh        float64  `json:"yieldKwh" doc:"PV energy, kWh"`
	SpecificYield   *float64 `json:"specificYield" doc:"kWh ÷ kWp, kWh/kWp"`
	EquivalentHours *float64 `json:"equivalentHours" doc:"kWh ÷ kWp, h"`
	PR              *float64 `json:"pr" doc:"IEC 61724 performance ratio, %"`
	PRTemp          *float64 `json:"prTemp" doc:"temperature-corrected performance ratio, %"`
	Availability    *float64 `json:"availability" doc:"inverter time availability, %"`
	CO2Kg           float64  `json:"co2Kg" doc:"CO₂ avoided, kg"`
	Revenue         *float64 `json:"revenue" doc:"kWh × (price + subsidy), in Currency"`
	Currency        string   `json:"currency"`
	ExpectedKWh     *float64 `json:"expectedKwh" doc:"model yield from measured irradiance and temperature, kWh"`
	ActualVsExpect  *float64 `json:"actualVsExpected" doc:"actual ÷ expected, %"`
	SelfConsumption *float64 `json:"selfConsumption" doc:"(PV − export) ÷ PV, %"`
	Autarky         *float64 `json:"autarky" doc:"(load − import) ÷ load, %"`
	LoadKWh         *float64 `json:"loadKwh" doc:"consumption, measured or from the energy balance, kWh"`
}

// TempFactor is the model's power factor at an average module temperature tempC.
func TempFactor(tempC float64) float64 { return 1 + TempCoeff*(tempC-25) }

// SpecificYield is kWh ÷ kWp (kWh/kWp). EquivalentHours is the same quotient read as
// hours at full power (DESIGN.md: daily equivalent hours = daily kWh ÷ installed kWp).
func SpecificYield(kwh, kwp float64) *float64 { return ratio(kwh, kwp, 1) }

// PerformanceRatio is IEC 61724's final yield ÷ reference yield = kWh ÷ (kWp × H_POA ÷
// 1 kW/m²), in percent; refKWh is the reference energy kWp × H_POA ÷ 1 kW/m².
func PerformanceRatio(kwh, refKWh float64) *float64 { return ratio(kwh, refKWh, 100) }

// Availability is (online − fault minutes) ÷ (inverters × minutes), in percent.
func Availability(onlineMin, faultMin, inverterMin float64) *float64 {
	if inverterMin <= 0 {
		return nil
	}
	v := math.Min(100, math.Max(0, (onlineMin-faultMin)/inverterMin*100))
	return &v
}

// ExpectedKWh is the model's yield: temperature-corrected reference energy × system
// losses × inverter efficiency.
func ExpectedKWh(tempRefKWh float64) float64 { return tempRefKWh * SystemLoss * InverterEta }

// Load is the site's consumption: measured by load meters, else the energy balance
// PV + import + discharge − export − charge.
func Load(t Totals) float64 {
	if t.LoadMeter {
		return t.LoadKWh
	}
	return t.PVKWh + t.ImportKWh + t.DischargeKWh - t.ExportKWh - t.ChargeKWh
}

// Compute returns the KPIs of t for site (CO₂ as measured into t: Measurer).
func Compute(t Totals, s Site) KPIs {
	k := KPIs{YieldKWh: t.PVKWh, CO2Kg: t.CO2Kg, Currency: s.Currency}
	k.SpecificYield = SpecificYield(t.PVKWh, s.CapacityKWp)
	k.EquivalentHours = SpecificYield(t.PVKWh, s.CapacityKWp)
	k.PR = PerformanceRatio(t.PVKWh, t.RefEnergyKWh)
	k.PRTemp = PerformanceRatio(t.PVKWh, t.TempRefKWh)
	k.Availability = Availability(t.OnlineMin, t.FaultMin, t.InverterMin)
	if s.Currency != "" {
		v := t.PVKWh * (s.PricePerKWh + s.SubsidyPerKWh)
		k.Revenue = &v
	}
	if t.TempRefKWh > 0 {
		e := ExpectedKWh(t.TempRefKWh)
		k.ExpectedKWh = &e
		k.ActualVsExpect = ratio(t.PVKWh, e, 100)
	}
	if t.GridMeter {
		if !t.Sites {
			t = t.Sited()
		}
		k.SelfConsumption = bounded(ratio(t.MeteredPVKWh-t.ExportKWh, t.MeteredPVKWh, 100))
		load := t.SiteLoadKWh
		k.LoadKWh = &load
		k.Autarky = bounded(ratio(load-t.ImportKWh, load, 100))
	}
	return k
}

// bounded keeps a share within 0–100 %: a battery discharging to the grid can export more
// than the PV produced, and meters and inverters do not tick at the same instant.
func bounded(v *float64) *float64 {
	if v != nil {
		*v = math.Min(100, math.Max(0, *v))
	}
	return v
}

// ratio is a ÷ b × scale, nil when b is not positive or the result is not finite.
func ratio(a, b, scale float64) *float64 {
	if b <= 0 {
		return nil
	}
	v := a / b * scale
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
