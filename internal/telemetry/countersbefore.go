package telemetry

import (
	"cmp"
	"context"
	"time"
)

// CountersBefore answers a device's stored counters (EnergyKWh, Energy2KWh) just before t,
// given its latest stored sample: the latest sample's when that is earlier (readings
// appended after it), else the last raw sample before t within two days (readings slotted
// in before later ones, inside the raw window), else zero. Per-interval energy (a history
// file's interval column, a vendor cloud's energy per interval) is summed onto them, so
// the counter logic yields the same day totals as a device's own counter would.
func (r *Reader) CountersBefore(ctx context.Context, deviceID int64, latest Sample, t time.Time) ([2]float64, error) {
	if latest.Time.IsZero() {
		return [2]float64{}, nil
	}
	if latest.Time.Before(t) {
		return [2]float64{latest.EnergyKWh, latest.Energy2KWh}, nil
	}
	var out [2]float64
	var first error
	for i, metric := range []string{"energyCounter", "energy2Counter"} {
		s, err := r.DeviceSeries(ctx, deviceID, metric, t.Add(-48*time.Hour), t.Add(-time.Millisecond), Raw)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		if len(s.Points) > 0 {
			out[i] = s.Points[len(s.Points)-1][1]
		}
	}
	return out, first
}
