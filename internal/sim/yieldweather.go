package sim

import "github.com/helio-energy/helio/internal/pvmodel"

// The simulator's weather for pvmodel's yield estimator.

// The keys of the planned array's station, sub-station and inverter: they seed its weather
// and noise as if it were a one-inverter station of the fleet.
const (
	planStation    = "plan"
	planSubStation = "plan-1"
	planInverter   = "plan-1-inv"
)

// YieldWeather is the simulator's generated weather at the site of a yield request (its
// place, climate and Seed): the weather, passing clouds and device noise a one-inverter
// station there would have (pvmodel.EstimateYield runs under it). Each estimate needs its
// own: it keeps the current week's weather.
func YieldWeather(r pvmodel.YieldRequest) pvmodel.Weather {
	seed := hash2(uint64(r.Seed), strHash(planStation))
	return &yieldWeather{
		wx:  weatherModel{seed: seed, clim: r.Climate.Resolve(r.Lat), lat: r.Lat, lng: r.Lng, south: r.Lat < 0},
		sub: hash2(seed, strHash(planSubStation)),
		inv: hash2(seed, strHash(planInverter)),
	}
}

type yieldWeather struct {
	wx       weatherModel
	wxc      wxCache
	sub, inv uint64 // seeds of the sub-station (passing clouds) and the inverter (noise)
}

func (w *yieldWeather) Sky(sec int64) pvmodel.Sky {
	cond := w.wx.at(float64(sec), &w.wxc)
	return pvmodel.Sky{
		ClearSkyIndex: cond.csi,
		ArrayIndex:    cloudIndex(&cond, w.sub, sec),
		AmbientC:      cond.ambient,
		WindMS:        cond.wind,
		Scatter:       scatter(signed(hash3(w.inv, saltDevice, uint64(sec)))),
	}
}
