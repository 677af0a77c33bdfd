package enphase

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// DeviceData returns the system's production in (from, to] (at most a week) as samples,
// one per interval at its end: production_micro from from with granularity=week (a week a
// call, whatever part of it is asked for). The lifetime counter continues the device's
// stored one (cloud.Deps.EnergyBefore) by each interval's energy, so a range asked again
// after a restart gives the same counters.
func (c *Client) DeviceData(ctx context.Context, siteID, serial string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	if to.Sub(from) > WeekSpan {
		return nil, fmt.Errorf("enphase: production spans at most a week a call")
	}
	if !to.After(from) {
		return nil, nil
	}
	var a ProductionMicroAnswer
	q := url.Values{"start_at": {strconv.FormatInt(from.Unix(), 10)}, "granularity": {"week"}}
	if err := c.get(ctx, "/systems/"+url.PathEscape(siteID)+"/telemetry/production_micro", q, &a); err != nil {
		return nil, err
	}
	ivs := make([]Interval, 0, len(a.Intervals))
	for _, iv := range a.Intervals {
		at := time.Unix(iv.EndAt, 0)
		if at.After(from) && !at.After(to) {
			ivs = append(ivs, iv)
		}
	}
	if len(ivs) == 0 {
		return nil, nil
	}
	// oldest first whatever order the answer had: the counter runs forward, the cursor
	// moves to the last
	slices.SortStableFunc(ivs, func(x, y Interval) int { return int(x.EndAt - y.EndAt) })
	kwh := 0.0
	if c.counter != nil {
		var err error
		if kwh, err = c.counter(ctx, serial, time.Unix(ivs[0].EndAt, 0)); err != nil {
			return nil, err
		}
	}
	out := make([]telemetry.Sample, 0, len(ivs))
	for _, iv := range ivs {
		kwh += float64(max(iv.Enwh, 0)) / 1000
		s := telemetry.Sample{Time: time.Unix(iv.EndAt, 0).UTC(), PowerKW: float64(iv.Powr) / 1000, EnergyKWh: kwh,
			Status: telemetry.StatusStandby}
		if iv.Powr > 0 {
			s.Status = telemetry.StatusRunning
		}
		out = append(out, s)
	}
	return out, nil
}
