package analysis

import (
	"math"
	"testing"
)

func p(v float64) *float64 { return &v }

// Every case is worked by hand in its comment; the figures are what an analyst would get
// with a calculator from the same inputs.
func TestCompute(t *testing.T) {
	cases := []struct {
		name   string
		totals Totals
		site   Site
		want   KPIs
	}{{
		// 1 MWp ground plant, one day. 4200 kWh ÷ 1000 kWp = 4.2 kWh/kWp = 4.2 h.
		// PR = 4200 ÷ 5000 = 84 %. At a 35 °C average: factor 1 − 0.004 × 10 = 0.96,
		// temperature reference 5000 × 0.96 = 4800 kWh, PR_T = 4200 ÷ 4800 = 87.5 %.
		// Expected = 4800 × 0.93 × 0.97 = 4330.08 kWh; actual ÷ expected = 96.9959 %.
		// Availability: 10 inverters × 1440 min = 14400; (14400 − 144) ÷ 14400 = 99 %.
		// CO₂ 4200 × 0.475 = 1995 kg; revenue 4200 × (0.40 + 0.10) = 2100 CNY.
		name: "PV plant",
		totals: Totals{PVKWh: 4200, CO2Kg: 1995, RefEnergyKWh: 5000, TempRefKWh: 5000 * TempFactor(35),
			InverterMin: 14400, OnlineMin: 14400, FaultMin: 144},
		site: Site{CapacityKWp: 1000, PricePerKWh: 0.40, SubsidyPerKWh: 0.10, Currency: "CNY"},
		want: KPIs{YieldKWh: 4200, SpecificYield: p(4.2), EquivalentHours: p(4.2), PR: p(84), PRTemp: p(87.5),
			Availability: p(99), CO2Kg: 1995, Revenue: p(2100), Currency: "CNY", ExpectedKWh: p(4330.08),
			ActualVsExpect: p(96.99590), SelfConsumption: nil, Autarky: nil},
	}, {
		// 10 kWp home with a battery and a grid meter, no load meter, one day at 25 °C.
		// Load by balance = PV 40 + import 5 + discharge 9 − export 12 − charge 10 = 32 kWh.
		// Self-consumption = (40 − 12) ÷ 40 = 70 %; autarky = (32 − 5) ÷ 32 = 84.375 %.
		// PR = 40 ÷ 50 = 80 %; expected = 50 × 0.9021 = 45.105 kWh → 88.6820 %.
		// Availability: 1 inverter × 1440 min, online 1380, no fault → 95.8333 %.
		// Revenue 40 × 0.30 = 12 EUR; CO₂ 40 × 0.475 = 19 kg.
		name: "storage home, load by balance",
		totals: Totals{PVKWh: 40, CO2Kg: 19, ExportKWh: 12, ImportKWh: 5, ChargeKWh: 10, DischargeKWh: 9,
			RefEnergyKWh: 50, TempRefKWh: 50, InverterMin: 1440, OnlineMin: 1380, GridMeter: true},
		site: Site{CapacityKWp: 10, PricePerKWh: 0.30, Currency: "EUR", Storage: true},
		want: KPIs{YieldKWh: 40, SpecificYield: p(4), EquivalentHours: p(4), PR: p(80), PRTemp: p(80),
			Availability: p(95.83333), CO2Kg: 19, Revenue: p(12), Currency: "EUR", ExpectedKWh: p(45.105),
			ActualVsExpect: p(88.68196), SelfConsumption: p(70), Autarky: p(84.375), LoadKWh: p(32)},
	}, {
		// The same home with a load meter reading 30 kWh: autarky = (30 − 5) ÷ 30 = 83.3333 %.
		name: "storage home, measured load",
		totals: Totals{PVKWh: 40, CO2Kg: 19, ExportKWh: 12, ImportKWh: 5, ChargeKWh: 10, DischargeKWh: 9, LoadKWh: 30,
			RefEnergyKWh: 50, TempRefKWh: 50, InverterMin: 1440, OnlineMin: 1380, GridMeter: true, LoadMeter: true},
		site: Site{CapacityKWp: 10, PricePerKWh: 0.30, Currency: "EUR", Storage: true},
		want: KPIs{YieldKWh: 40, SpecificYield: p(4), EquivalentHours: p(4), PR: p(80), PRTemp: p(80),
			Availability: p(95.83333), CO2Kg: 19, Revenue: p(12), Currency: "EUR", ExpectedKWh: p(45.105),
			ActualVsExpect: p(88.68196), SelfConsumption: p(70), Autarky: p(83.33333), LoadKWh: p(30)},
	}, {
		// Night, nothing known: no capacity, irradiation, inverters or currency → no ratios.
		name: "nothing measured",
		want: KPIs{},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Compute(c.totals, c.site)
			num := func(field string, g, w float64) {
				if math.Abs(g-w) > 1e-4 {
					t.Errorf("%s = %.6f, want %.6f", field, g, w)
				}
			}
			ptr := func(field string, g, w *float64) {
				switch {
				case g == nil && w == nil:
				case g == nil || w == nil:
					t.Errorf("%s = %v, want %v", field, show(g), show(w))
				default:
					num(field, *g, *w)
				}
			}
			num("yield", got.YieldKWh, c.want.YieldKWh)
			num("co2", got.CO2Kg, c.want.CO2Kg)
			ptr("specific yield", got.SpecificYield, c.want.SpecificYield)
			ptr("equivalent hours", got.EquivalentHours, c.want.EquivalentHours)
			ptr("PR", got.PR, c.want.PR)
			ptr("PR temperature-corrected", got.PRTemp, c.want.PRTemp)
			ptr("availability", got.Availability, c.want.Availability)
			ptr("revenue", got.Revenue, c.want.Revenue)
			ptr("expected", got.ExpectedKWh, c.want.ExpectedKWh)
			ptr("actual vs expected", got.ActualVsExpect, c.want.ActualVsExpect)
			ptr("self-consumption", got.SelfConsumption, c.want.SelfConsumption)
			ptr("autarky", got.Autarky, c.want.Autarky)
			ptr("load", got.LoadKWh, c.want.LoadKWh)
			if got.Currency != c.want.Currency {
				t.Errorf("currency %q, want %q", got.Currency, c.want.Currency)
			}
		})
	}
}

// A fleet of a metered storage home and a plant without meters: the plant's PV neither
// counts as self-consumed nor feeds the home's load balance.
func TestSharesAcrossSites(t *testing.T) {
	home := Totals{PVKWh: 40, ExportKWh: 12, ImportKWh: 5, ChargeKWh: 10, DischargeKWh: 9, GridMeter: true}.Sited()
	plant := Totals{PVKWh: 1000}.Sited()
	var fleet Totals
	fleet.Add(home)
	fleet.Add(plant)
	k := Compute(fleet, Site{})
	// as for the home alone: (40 − 12) ÷ 40 = 70 %, load 32, (32 − 5) ÷ 32 = 84.375 %
	if *k.SelfConsumption != 70 || *k.LoadKWh != 32 || *k.Autarky != 84.375 {
		t.Errorf("self-consumption %v load %v autarky %v", *k.SelfConsumption, *k.LoadKWh, *k.Autarky)
	}
}

func TestSharesBounded(t *testing.T) {
	// a battery discharging to the grid exports more than the PV made: no self-consumption,
	// not a negative one
	k := Compute(Totals{PVKWh: 10, ExportKWh: 14, DischargeKWh: 6, GridMeter: true}, Site{})
	if *k.SelfConsumption != 0 {
		t.Errorf("self-consumption %v, want 0", *k.SelfConsumption)
	}
	// load 10 + 0 + 6 − 14 = 2 kWh, none imported: autarky 100 %
	if *k.Autarky != 100 || *k.LoadKWh != 2 {
		t.Errorf("autarky %v load %v", *k.Autarky, *k.LoadKWh)
	}
}

func TestAvailabilityBounded(t *testing.T) {
	// more fault than online time (a device stuck in fault while reporting) cannot go
	// below zero; rounding in the roll-ups cannot lift it over 100
	if a := Availability(10, 20, 100); *a != 0 {
		t.Errorf("got %v, want 0", *a)
	}
	if a := Availability(101, 0, 100); *a != 100 {
		t.Errorf("got %v, want 100", *a)
	}
	if Availability(1, 0, 0) != nil {
		t.Error("no inverter time must give no availability")
	}
}

func show(f *float64) any {
	if f == nil {
		return "nil"
	}
	return *f
}
