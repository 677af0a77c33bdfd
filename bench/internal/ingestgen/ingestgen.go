// Package ingestgen is the ingest benchmark's sample generator, shared by bench/ingest and
// the InfluxDB peer in bench, so that both are fed the same samples.
package ingestgen

import (
	"math"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Sample is device i's reading at 5-minute step k: solar-shaped power and an energy
// counter that is not monotonic — its (k mod 288) term makes it fall back for hours every
// afternoon, a noisy meter's worst case. Since the counter rule of 73aa3a4 those readings
// are noise below the last trusted one, and about half the rows carry a counter state.
func Sample(start time.Time, i, k int) telemetry.Sample {
	at := start.Add(time.Duration(k) * 5 * time.Minute)
	h := float64(at.UTC().Hour()) + float64(at.Minute())/60
	p := math.Max(0, math.Sin((h-6)/12*math.Pi)) * 80
	e := 1000 + float64(i) + float64(k)*0.05 + p*float64(k%288)/12/100
	return telemetry.Sample{Time: at, PowerKW: p, EnergyKWh: math.Round(e*1000) / 1000, DCVoltageV: 600 + p, DCCurrentA: p / 6,
		ACVoltageV: 400, FrequencyHz: 50, TempC: 25 + p/10, IrradianceWm2: p * 12, Status: 1, StringsActive: 8}
}
