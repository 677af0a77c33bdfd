package analysis

// Metrics a comparison or report can show, with their units.
var Metrics = []struct{ Key, Unit string }{
	{"yield", "kWh"}, {"specificYield", "kWh/kWp"}, {"equivalentHours", "h"}, {"pr", "%"}, {"prTemp", "%"},
	{"availability", "%"}, {"co2", "kg"}, {"revenue", ""}, {"expected", "kWh"}, {"actualVsExpected", "%"},
	{"selfConsumption", "%"}, {"autarky", "%"},
}

// MetricKeys lists the metric keys.
func MetricKeys() []string {
	out := make([]string, len(Metrics))
	for i, m := range Metrics {
		out[i] = m.Key
	}
	return out
}

// MetricUnit is a metric's unit (revenue: the currency).
func MetricUnit(key, currency string) string {
	if key == "revenue" {
		return currency
	}
	for _, m := range Metrics {
		if m.Key == key {
			return m.Unit
		}
	}
	return ""
}

// Metric reads one metric from KPIs (nil when it cannot be computed).
func Metric(k KPIs, key string) *float64 {
	switch key {
	case "yield":
		v := k.YieldKWh
		return &v
	case "specificYield":
		return k.SpecificYield
	case "equivalentHours":
		return k.EquivalentHours
	case "pr":
		return k.PR
	case "prTemp":
		return k.PRTemp
	case "availability":
		return k.Availability
	case "co2":
		v := k.CO2Kg
		return &v
	case "revenue":
		return k.Revenue
	case "expected":
		return k.ExpectedKWh
	case "actualVsExpected":
		return k.ActualVsExpect
	case "selfConsumption":
		return k.SelfConsumption
	case "autarky":
		return k.Autarky
	}
	return nil
}
