package fusionsolar

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// MaxDevices is the most devices one /thirdData/getDevFiveMinutes call may name.
const MaxDevices = 10

// BatchSize lets the sync ask for up to ten inverters of a plant in one call: Huawei's
// allowance of five-minute calls is per call, not per device.
func (c *Client) BatchSize() int { return MaxDevices }

// DeviceData returns one inverter's five-minute readings in (from, to] as samples.
func (c *Client) DeviceData(ctx context.Context, siteID, serial string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	got, err := c.DevicesData(ctx, siteID, []string{serial}, loc, from, to)
	return got[serial], err
}

// DevicesData returns the inverters' five-minute readings in (from, to], keyed by serial
// number: one /thirdData/getDevFiveMinutes call per local day (in loc) the range touches
// and device type, naming up to ten devices, each asking with that day's local midnight in
// epoch milliseconds.
func (c *Client) DevicesData(ctx context.Context, siteID string, serials []string, loc *time.Location, from, to time.Time) (map[string][]telemetry.Sample, error) {
	out := map[string][]telemetry.Sample{}
	if !to.After(from) || len(serials) == 0 {
		return out, nil
	}
	if len(serials) > MaxDevices {
		return nil, fmt.Errorf("fusionsolar: %d devices in one call, at most %d", len(serials), MaxDevices)
	}
	serialOf := map[int64]string{}
	byType := map[int][]string{} // device type → its ids, in the order asked
	var types []int
	for _, sn := range serials {
		dev, err := c.device(ctx, siteID, sn)
		if err != nil {
			return nil, err
		}
		serialOf[dev.ID] = sn
		if _, ok := byType[dev.DevTypeID]; !ok {
			types = append(types, dev.DevTypeID)
		}
		byType[dev.DevTypeID] = append(byType[dev.DevTypeID], strconv.FormatInt(dev.ID, 10))
	}
	for day := localDay(from.Add(time.Millisecond), loc); !day.After(to); day = day.AddDate(0, 0, 1) {
		for _, typ := range types {
			var rows []FiveMinutes
			req := FiveMinutesRequest{DevIDs: strings.Join(byType[typ], ","), DevTypeID: typ, CollectTime: day.UnixMilli()}
			if err := c.call(ctx, "/thirdData/getDevFiveMinutes", req, &rows); err != nil {
				return nil, err
			}
			for _, r := range rows {
				at := time.UnixMilli(r.CollectTime).UTC()
				sn, ok := serialOf[r.DevID]
				if !ok || !at.After(from) || at.After(to) {
					continue
				}
				out[sn] = append(out[sn], Sample(at, r))
			}
		}
	}
	// oldest first whatever order the answers had: the cursor moves to the last
	for sn, list := range out {
		slices.SortStableFunc(list, func(a, b telemetry.Sample) int { return a.Time.Compare(b.Time) })
		out[sn] = slices.CompactFunc(list, func(a, b telemetry.Sample) bool { return a.Time.Equal(b.Time) })
	}
	return out, nil
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
