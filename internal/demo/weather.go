package demo

import (
	"time"

	"github.com/helio-energy/helio/internal/monitor"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/station"
)

// WeatherSource is the stations' weather for the monitor: the simulator's conditions at
// the station's simulator key (none for a station the simulator does not run).
func WeatherSource(s *sim.Simulator) monitor.WeatherSource {
	return func(st *station.Station, t time.Time) (monitor.Conditions, bool) {
		c, ok := s.Conditions(st.SimKey, t)
		if !ok {
			return monitor.Conditions{}, false
		}
		return monitor.Conditions{Time: c.Time, Code: c.Weather.ID(), Key: c.Weather.Key, Group: c.Weather.Group,
			AirQuality: c.Weather.AirQuality, AirQualityKey: sim.AirQualityKey(c.Weather.AirQuality),
			AmbientC: c.AmbientC, GHIWm2: c.Irradiance.GHI, WindMS: c.Weather.WindMS,
			SunElevationDeg: c.Sun.ElevationDeg}, true
	}
}
