package solaredge

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// DeviceData returns the inverter's readings in (from, to] (at most a week) as samples.
// The API takes and gives local times of the site; the answer is read in loc.
func (c *Client) DeviceData(ctx context.Context, siteID, serial string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	if to.Sub(from) > EquipmentSpan {
		return nil, fmt.Errorf("solaredge: equipment data spans at most a week")
	}
	var a EquipmentDataAnswer
	// the API's range is whole seconds and inclusive: ask from the next second
	start := from.Truncate(time.Second).Add(time.Second)
	if start.After(to) {
		return nil, nil // nothing to ask for: the API would refuse the range
	}
	q := url.Values{"startTime": {start.In(loc).Format(TimeLayout)}, "endTime": {to.In(loc).Format(TimeLayout)}}
	if err := c.get(ctx, "/equipment/"+url.PathEscape(siteID)+"/"+url.PathEscape(serial)+"/data", q, &a); err != nil {
		return nil, err
	}
	out := make([]telemetry.Sample, 0, len(a.Data.Telemetries))
	for _, t := range a.Data.Telemetries {
		at, err := time.ParseInLocation(TimeLayout, t.Date, loc)
		if err != nil {
			return nil, fmt.Errorf("solaredge: telemetry date %q: %w", t.Date, err)
		}
		if !at.After(from) || at.After(to) {
			continue
		}
		s := telemetry.Sample{Time: at.UTC(), PowerKW: t.TotalActivePower / 1000, EnergyKWh: t.TotalEnergy / 1000,
			TempC: t.Temperature, Status: Status(t.InverterMode)}
		if t.DCVoltage != nil {
			s.DCVoltageV = *t.DCVoltage
		}
		if t.L1Data != nil {
			s.ACVoltageV, s.FrequencyHz = t.L1Data.ACVoltage, t.L1Data.ACFrequency
		}
		out = append(out, s)
	}
	// oldest first whatever order the answer had: the cursor moves to the last
	sortByTime(out)
	return out, nil
}

// Status maps SolarEdge's inverterMode to Helio's status codes.
func Status(mode string) int {
	switch mode {
	case "MPPT", "THROTTLED", "PRODUCTION", "STARTING", "LOCKED_PRODUCTION":
		return telemetry.StatusRunning
	case "FAULT", "SHUTTING_DOWN", "LOCKED", "LOCKED_STDBY", "LOCKED_FAULT":
		return telemetry.StatusFault
	default: // OFF, SLEEPING, NIGHT_MODE, STANDBY, IDLE, …
		return telemetry.StatusStandby
	}
}

func sortByTime(s []telemetry.Sample) {
	slices.SortStableFunc(s, func(a, b telemetry.Sample) int { return a.Time.Compare(b.Time) })
}
