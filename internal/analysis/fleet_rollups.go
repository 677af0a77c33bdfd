package analysis

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/telemetry"
)

// FleetRollups reads the stations' day and month buckets from the in-memory fleet state
// (kept from the write path, equal to the stored roll-ups) and everything else, devices and
// hours and what the state no longer keeps, from Fallback. A month's overview of the fleet
// then reads no roll-up rows at all instead of one per station, kind and day.
type FleetRollups struct {
	Fleet    *fleet.State
	Fallback Rollups
}

// Stations implements Rollups.
func (r FleetRollups) Stations(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error) {
	figs, ok, err := r.Fleet.Figures(ctx, ids, res, from, to)
	if err != nil {
		return nil, err
	}
	if !ok {
		return r.Fallback.Stations(ctx, ids, res, from, to)
	}
	out := make(map[int64][]Bucket, len(figs))
	for id, pts := range figs {
		list := make([]Bucket, len(pts))
		for i := range pts {
			list[i] = Bucket{Start: pts[i].Start, End: pts[i].End, Totals: figureTotals(&pts[i])}
		}
		out[id] = list
	}
	return out, nil
}

// Devices implements Rollups: devices are read from the roll-ups.
func (r FleetRollups) Devices(ctx context.Context, kinds map[int64]string, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error) {
	return r.Fallback.Devices(ctx, kinds, res, from, to)
}

// figureTotals is addKind over a bucket's kinds at once.
func figureTotals(f *fleet.Figures) Totals {
	t := Totals{PVKWh: f.PVKWh, DischargeKWh: f.DischargeKWh, ChargeKWh: f.ChargeKWh, ImportKWh: f.ImportKWh,
		ExportKWh: f.ExportKWh, LoadKWh: f.LoadKWh, RefEnergyKWh: f.RefKWh, OnlineMin: f.OnlineMin, FaultMin: f.FaultMin,
		GridMeter: f.GridMeter, LoadMeter: f.LoadMeter}
	factor := 1.0
	if f.Samples > 0 {
		factor = TempFactor(f.TempSum / float64(f.Samples))
	}
	t.TempRefKWh = f.RefKWh * factor
	return t
}
