package sim

import (
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
)

// solarNoon finds the instant of maximum elevation on the UTC day around approx.
func solarNoon(lat, lng float64, approx time.Time) (time.Time, pvmodel.SunPosition) {
	best, bestPos := approx, pvmodel.SunAt(lat, lng, approx)
	for dt := -4 * time.Hour; dt <= 4*time.Hour; dt += 30 * time.Second {
		tt := approx.Add(dt)
		p := pvmodel.SunAt(lat, lng, tt)
		if p.ElevationDeg > bestPos.ElevationDeg {
			best, bestPos = tt, p
		}
	}
	return best, bestPos
}
