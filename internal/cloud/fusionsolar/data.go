package fusionsolar

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// DeviceData returns the inverter's five-minute readings in (from, to] as samples: one
// /thirdData/getDevFiveMinutes call per local day (in loc) the range touches, each asking
// with that day's local midnight in epoch milliseconds.
func (c *Client) DeviceData(ctx context.Context, siteID, serial string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	if !to.After(from) {
		return nil, nil
	}
	dev, err := c.device(ctx, siteID, serial)
	if err != nil {
		return nil, err
	}
	var out []telemetry.Sample
	for day := localDay(from.Add(time.Millisecond), loc); !day.After(to); day = day.AddDate(0, 0, 1) {
		var rows []FiveMinutes
		req := FiveMinutesRequest{DevIDs: strconv.FormatInt(dev.ID, 10), DevTypeID: dev.DevTypeID, CollectTime: day.UnixMilli()}
		if err := c.call(ctx, "/thirdData/getDevFiveMinutes", req, &rows); err != nil {
			return nil, err
		}
		for _, r := range rows {
			at := time.UnixMilli(r.CollectTime).UTC()
			if r.DevID != dev.ID || !at.After(from) || at.After(to) {
				continue
			}
			out = append(out, Sample(at, r))
		}
	}
	// oldest first whatever order the answers had: the cursor moves to the last
	slices.SortStableFunc(out, func(a, b telemetry.Sample) int { return a.Time.Compare(b.Time) })
	return slices.CompactFunc(out, func(a, b telemetry.Sample) bool { return a.Time.Equal(b.Time) }), nil
}

func localDay(t time.Time, loc *time.Location) time.Time {
	lt := t.In(loc)
	return time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, loc)
}

// Sample maps one five-minute row of an inverter to a sample.
func Sample(at time.Time, r FiveMinutes) telemetry.Sample {
	s := telemetry.Sample{Time: at, Status: telemetry.StatusStandby}
	s.PowerKW, _ = r.Num("active_power")  // kW
	s.EnergyKWh, _ = r.Num("total_cap")   // kWh, lifetime
	s.TempC, _ = r.Num("temperature")     // °C
	s.DCVoltageV, _ = r.Num("pv1_u")      // V, string 1
	s.ACVoltageV, _ = r.Num("a_u")        // V, phase A
	s.FrequencyHz, _ = r.Num("elec_freq") // Hz
	if st, ok := r.Num("inverter_state"); ok {
		s.Status = Status(int(st))
	}
	return s
}

// Status maps Huawei's inverter_state to Helio's status codes: on-grid (512 and its
// limited and derating variants, grid scheduling 1025/1026) and starting (256) → running;
// shut down by a fault (768) → fault; standby, other shutdowns, checks, no irradiation
// and anything unknown → standby.
func Status(state int) int {
	switch state {
	case 256, 512, 513, 514, 1025, 1026:
		return telemetry.StatusRunning
	case 768:
		return telemetry.StatusFault
	default:
		return telemetry.StatusStandby
	}
}
