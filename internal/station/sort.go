package station

import "github.com/helio-energy/helio/internal/httpapi"

// Sorts are the columns the station list ranks by: live figures of the fleet state (or
// of the roll-ups without it), so a sorted list judges every match, ranks it in memory and
// cuts the page.
// dailyEquivalentHours is also the specific yield (today's kWh ÷ kWp, docs/kpi.md).
var Sorts = httpapi.Enum(ListQuery{}, "sort")

// ranked is a station with the figure it ranks by.
type ranked struct {
	st *Station
	v  float64
}

// sortValue reads the figure a station ranks by under key from its live flags.
func sortValue(key string) func(*Live) float64 {
	switch key {
	case "dailyEquivalentHours":
		return func(l *Live) float64 { return l.DailyEquivalentHours }
	case "currentPowerKw":
		return func(l *Live) float64 { return l.CurrentPowerKW }
	case "performanceRatio":
		return func(l *Live) float64 { return l.PerformanceRatio }
	case "alarmExist":
		return func(l *Live) float64 { return float64(l.AlarmExist) }
	}
	return func(l *Live) float64 { return l.DailyEnergyKWh }
}
