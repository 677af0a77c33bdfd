package sim

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
)

func TestWeatherCodeTable(t *testing.T) {
	codes := WeatherCodes()
	if len(codes) != 68 {
		t.Fatalf("%d codes, want 68 (001–070 without 043 and 044)", len(codes))
	}
	keys := map[string]bool{}
	for i, w := range codes {
		if w.Code == 43 || w.Code == 44 {
			t.Errorf("code %s must be absent", w.ID())
		}
		if i > 0 && w.Code <= codes[i-1].Code {
			t.Errorf("codes out of order at %s", w.ID())
		}
		if keys[w.Key] || w.Key == "" || w.Group == "" {
			t.Errorf("code %s: key %q empty or duplicate", w.ID(), w.Key)
		}
		keys[w.Key] = true
		if w.ClearSkyIndex <= 0 || w.ClearSkyIndex > 1 || w.AirQuality < 1 || w.AirQuality > 6 || AirQualityKey(w.AirQuality) == "" {
			t.Errorf("code %s: bad factors %+v", w.ID(), w)
		}
		if got, ok := LookupWeather(w.Code); !ok || got != w {
			t.Errorf("lookup %s", w.ID())
		}
	}
	if codes[0].ID() != "001" || codes[len(codes)-1].ID() != "070" {
		t.Errorf("first %s last %s", codes[0].ID(), codes[len(codes)-1].ID())
	}
	for _, c := range []int{0, 43, 44, 71} {
		if _, ok := LookupWeather(c); ok {
			t.Errorf("code %d should not exist", c)
		}
	}
	if l := AirQualityLevels(); len(l) != 6 || l[0].Key != "excellent" || l[5].Key != "severe" {
		t.Errorf("air-quality levels %v", l)
	}
}

func TestWeatherProcess(t *testing.T) {
	s := mustNew(t, 13)
	type stats struct {
		hours, changes, precip, snow int
		csi                          [12]float64
		n                            [12]int
	}
	year := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	all := map[string]*stats{}
	for _, st := range s.stations {
		x := &stats{}
		all[st.key] = x
		var cache wxCache
		prev := uint8(0)
		for h := range 365 * 24 {
			tt := year.Add(time.Duration(h) * time.Hour)
			hour := tt.Unix() / 3600
			c := cache.code(&st.wx, hour)
			w, ok := LookupWeather(int(c))
			if !ok {
				t.Fatalf("%s: code %d not in the table", st.key, c)
			}
			// The cache and the pure function agree.
			if h%97 == 0 && st.wx.codeAt(hour) != c {
				t.Fatalf("%s: cached weather differs at %v", st.key, tt)
			}
			if h > 0 && c != prev {
				x.changes++
			}
			prev = c
			x.hours++
			if w.Precipitation {
				x.precip++
			}
			if w.Group == "snow" {
				x.snow++
			}
			m := int(tt.Month()) - 1
			x.csi[m] += w.ClearSkyIndex
			x.n[m]++
		}
	}
	for k, x := range all {
		// Persistent: codes last a few hours on average.
		if run := float64(x.hours) / float64(x.changes+1); run < 1.5 || run > 24 {
			t.Errorf("%s: mean spell %.1f h", k, run)
		}
	}
	mean := func(k string, months ...int) float64 {
		sum, n := 0.0, 0
		for _, m := range months {
			sum += all[k].csi[m-1]
			n += all[k].n[m-1]
		}
		return sum / float64(n)
	}
	// Seasons and climates: Munich is clearer in summer than in winter, Perth in its
	// summer (December–February) than in its winter, the desert clearer than Munich;
	// snow falls in Golmud and Munich, never in Tainan.
	if mean("de-munich", 6, 7, 8) <= mean("de-munich", 11, 12, 1) {
		t.Error("Munich winter not cloudier than summer")
	}
	if mean("au-perth", 12, 1, 2) <= mean("au-perth", 6, 7, 8) {
		t.Error("Perth winter not cloudier than summer")
	}
	if mean("us-kern", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) <= mean("de-munich", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)+0.1 {
		t.Error("the Mojave is not clearer than Bavaria")
	}
	if all["de-munich"].snow == 0 || all["tw-tainan"].snow != 0 {
		t.Errorf("snow hours: Munich %d, Tainan %d", all["de-munich"].snow, all["tw-tainan"].snow)
	}
	if all["de-munich"].precip < 100 || all["us-kern"].precip > all["de-munich"].precip {
		t.Errorf("precipitation hours: Munich %d, Kern %d", all["de-munich"].precip, all["us-kern"].precip)
	}

	// Conditions: pure, and consistent with the physics (no light at night).
	at := time.Date(2025, 8, 1, 21, 0, 0, 0, time.UTC)
	c1, ok := s.Conditions("es-merida-2", at)
	c2, _ := mustNew(t, 13).Conditions("es-merida", at)
	if !ok || c1 != c2 {
		t.Errorf("conditions differ: %+v vs %+v", c1, c2)
	}
	if c1.Sun.ElevationDeg < 0 && (c1.Irradiance.GHI != 0 || c1.ClearSkyGHI != 0) {
		t.Errorf("irradiance at night: %+v", c1)
	}
	if _, ok := s.Conditions("nowhere", at); ok {
		t.Error("unknown station accepted")
	}
}

// The estimator under the simulator's weather.
func TestEstimateYield(t *testing.T) {
	f := DemoFleet()
	merida, _ := f.Station("es-merida")
	estimate := func(r pvmodel.YieldRequest) (pvmodel.YieldEstimate, error) {
		return pvmodel.EstimateYield(r, YieldWeather(r))
	}
	e, err := estimate(pvmodel.YieldRequest{
		Lat: merida.Lat, Lng: merida.Lng, AltitudeM: merida.AltitudeM, CapacityKWp: 100,
		TiltDeg: 30, AzimuthDeg: 180, Climate: merida.Climate, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if e.SpecificYield < 1400 || e.SpecificYield > 1900 || e.PerformanceRatio < 0.75 || e.PerformanceRatio > 0.92 {
		t.Errorf("Mérida estimate %+v", e)
	}
	if e.MonthlyKWh[6] < 1.5*e.MonthlyKWh[11] {
		t.Errorf("July %.0f not well above December %.0f", e.MonthlyKWh[6], e.MonthlyKWh[11])
	}
	// Facing the pole costs energy.
	n, _ := estimate(pvmodel.YieldRequest{
		Lat: merida.Lat, Lng: merida.Lng, CapacityKWp: 100, TiltDeg: 30, AzimuthDeg: 0,
		Climate: merida.Climate, Seed: 1,
	})
	if n.AnnualKWh > 0.8*e.AnnualKWh {
		t.Errorf("north-facing %.0f kWh vs south-facing %.0f", n.AnnualKWh, e.AnnualKWh)
	}
	if _, err := estimate(pvmodel.YieldRequest{Lat: 100, CapacityKWp: 1}); err == nil {
		t.Error("bad request accepted")
	}
}
