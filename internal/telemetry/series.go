package telemetry

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"
)

// One device's series of one metric, at a resolution chosen for its range.

// Series is a device metric over time: [[unixMillis, value], …].
type Series struct {
	Metric     string       `json:"metric"`
	Unit       string       `json:"unit"`
	Resolution string       `json:"resolution"`
	Points     [][2]float64 `json:"points"`
}

type metricDef struct {
	unit   string
	column string                         // raw column; "" = roll-ups only
	value  func(s *Stats) (float64, bool) // from a bucket; nil = raw only
}

func avg(sum func(*Stats) float64) func(*Stats) (float64, bool) {
	return func(s *Stats) (float64, bool) {
		if s.Samples == 0 {
			return 0, false
		}
		return sum(s) / float64(s.Samples), true
	}
}

// Metrics are the device series DeviceSeries knows, with their units.
var metricDefs = map[string]metricDef{
	"power": {"kW", "power_kw", func(s *Stats) (float64, bool) {
		if s.OnlineMin <= 0 {
			return 0, false
		}
		return s.PowerKWh / (s.OnlineMin / 60), true
	}},
	"maxPower":       {"kW", "power_kw", func(s *Stats) (float64, bool) { return s.MaxPowerKW, !math.IsNaN(s.MaxPowerKW) }},
	"energy":         {"kWh", "", func(s *Stats) (float64, bool) { return s.EnergyKWh, true }},
	"energy2":        {"kWh", "", func(s *Stats) (float64, bool) { return s.Energy2KWh, true }},
	"irradiation":    {"kWh/m²", "", func(s *Stats) (float64, bool) { return s.IrradiationKWhM2, true }},
	"faultMinutes":   {"min", "", func(s *Stats) (float64, bool) { return s.FaultMin, true }},
	"energyCounter":  {"kWh", "energy_kwh", nil},
	"energy2Counter": {"kWh", "energy2_kwh", nil},
	"irradiance":     {"W/m²", "irradiance_wm2", avg(func(s *Stats) float64 { return s.IrradianceSum })},
	"dcVoltage":      {"V", "dc_voltage_v", avg(func(s *Stats) float64 { return s.DCVoltageSum })},
	"dcCurrent":      {"A", "dc_current_a", avg(func(s *Stats) float64 { return s.DCCurrentSum })},
	"acVoltage":      {"V", "ac_voltage_v", avg(func(s *Stats) float64 { return s.ACVoltageSum })},
	"frequency":      {"Hz", "frequency_hz", avg(func(s *Stats) float64 { return s.FrequencySum })},
	"temperature":    {"°C", "temp_c", avg(func(s *Stats) float64 { return s.TempSum })},
	"soc":            {"%", "soc", avg(func(s *Stats) float64 { return s.SOCSum })},
	"status":         {"", "status", nil},
	"stringsActive":  {"", "strings_active", nil},
}

// MetricNames lists the metrics DeviceSeries knows, sorted.
func MetricNames() []string {
	out := make([]string, 0, len(metricDefs))
	for k := range metricDefs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ChooseResolution picks the resolution DeviceSeries uses for a range: raw samples up to
// 2 days (within the raw window), hours up to 62 days, days up to 2 years, then months.
func (r *Reader) ChooseResolution(from, to time.Time) Resolution {
	d := to.Sub(from)
	switch {
	case d <= 48*time.Hour && !from.Before(r.opt.Now().Add(-r.opt.RawRetention)):
		return Raw
	case d <= 62*24*time.Hour:
		return Hour
	case d <= 731*24*time.Hour:
		return Day
	default:
		return Month
	}
}

// DeviceSeries returns one metric of a device over [from, to) at resolution res (Auto
// chooses from the range; bucket-only metrics such as energy use hours at least). Bucket
// points carry the bucket's start.
func (r *Reader) DeviceSeries(ctx context.Context, deviceID int64, metric string, from, to time.Time, res Resolution) (Series, error) {
	def, ok := metricDefs[metric]
	if !ok {
		return Series{}, fmt.Errorf("telemetry: unknown metric %q", metric)
	}
	if res == Auto {
		res = r.ChooseResolution(from, to)
		if res == Raw && def.column == "" {
			res = Hour
		}
		if res != Raw && def.value == nil {
			res = Raw
		}
	}
	out := Series{Metric: metric, Unit: def.unit, Resolution: res.String(), Points: [][2]float64{}}
	if res == Raw {
		if def.column == "" {
			return out, ErrResolution
		}
		return r.rawSeries(ctx, deviceID, def.column, from.UnixMilli(), to.UnixMilli(), out)
	}
	if def.value == nil {
		return out, ErrResolution
	}
	pts, err := r.DeviceRollups(ctx, []int64{deviceID}, res, from, to)
	if err != nil {
		return out, err
	}
	for _, p := range pts[deviceID] {
		if v, ok := def.value(&p.Stats); ok {
			out.Points = append(out.Points, [2]float64{float64(p.Start.UnixMilli()), v})
		}
	}
	return out, nil
}
