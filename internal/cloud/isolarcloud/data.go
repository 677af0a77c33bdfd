package isolarcloud

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// The inverter points asked for, and the sample fields they feed.
const (
	PointPower     = "p24" // total active power, W
	PointTotal     = "p2"  // total yield, Wh, lifetime
	PointTemp      = "p4"  // internal air temperature, °C
	PointDCVoltage = "p5"  // MPPT 1 voltage, V
	PointACVoltage = "p18" // phase A voltage, V
	PointFrequency = "p27" // grid frequency, Hz
)

// Points is the minute-data call's points parameter.
var Points = strings.Join([]string{PointPower, PointTotal, PointTemp, PointDCVoltage, PointACVoltage, PointFrequency}, ",")

// MaxKeys is the most inverters one minute-data call names. ps_key_list takes a list, and
// the documentation Helio is built from states no bound for it; ten is the bound Huawei
// states for its own five-minute call, kept here so a call's answer stays small (ten
// inverters × three hours × six points).
const MaxKeys = 10

// BatchSize lets the sync ask for up to MaxKeys inverters of a plant in one call:
// iSolarCloud counts calls, not inverters.
func (c *Client) BatchSize() int { return MaxKeys }

// DeviceData returns one inverter's readings in (from, to] (at most three hours) as samples;
// key is the inverter's ps_key.
func (c *Client) DeviceData(ctx context.Context, siteID, key string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	got, err := c.DevicesData(ctx, siteID, []string{key}, loc, from, to)
	return got[key], err
}

// DevicesData returns the inverters' readings in (from, to] (at most three hours), keyed
// by ps_key, from one minute-data call naming them all. The API takes and gives the plant's
// local time, read in loc. A reading without the total yield takes the one before it in the
// answer and is left out when there is none, so a missing counter never reads as a reset.
func (c *Client) DevicesData(ctx context.Context, siteID string, keys []string, loc *time.Location, from, to time.Time) (map[string][]telemetry.Sample, error) {
	out := map[string][]telemetry.Sample{}
	if to.Sub(from) > MinuteSpan {
		return nil, fmt.Errorf("isolarcloud: minute data spans at most three hours")
	}
	if len(keys) > MaxKeys {
		return nil, fmt.Errorf("isolarcloud: %d inverters in one call, at most %d", len(keys), MaxKeys)
	}
	for _, key := range keys {
		if !strings.HasPrefix(key, siteID+"_") {
			return nil, fmt.Errorf("isolarcloud: %q is not a ps_key of plant %s", key, siteID)
		}
	}
	// whole seconds, both ends included: ask from the next second
	start := from.Truncate(time.Second).Add(time.Second)
	if len(keys) == 0 || start.After(to) {
		return out, nil
	}
	var a MinuteDataAnswer
	body := map[string]any{"ps_key_list": keys, "points": Points, "minute_interval": Interval,
		"start_time_stamp": start.In(loc).Format(TimeLayout), "end_time_stamp": to.In(loc).Format(TimeLayout)}
	if err := c.call(ctx, PathMinuteData, body, &a); err != nil {
		return nil, err
	}
	for _, key := range keys {
		got, err := readings(a[key], loc, from, to)
		if err != nil {
			return nil, err
		}
		out[key] = got
	}
	return out, nil
}

// readings turns one inverter's rows of a minute-data answer into samples in (from, to],
// oldest first, the total yield carried over rows without it.
func readings(rows []map[string]any, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error) {
	out := make([]telemetry.Sample, 0, len(rows))
	for _, row := range rows {
		stamp, _ := row["time_stamp"].(string)
		at, err := time.ParseInLocation(TimeLayout, stamp, loc)
		if err != nil {
			return nil, fmt.Errorf("isolarcloud: time_stamp %q: %w", stamp, err)
		}
		if !at.After(from) || at.After(to) {
			continue
		}
		s := telemetry.Sample{Time: at.UTC(), EnergyKWh: -1}
		if v, ok := number(row[PointTotal]); ok {
			s.EnergyKWh = v / 1000
		}
		w, _ := number(row[PointPower])
		s.PowerKW = w / 1000
		s.TempC, _ = number(row[PointTemp])
		s.DCVoltageV, _ = number(row[PointDCVoltage])
		s.ACVoltageV, _ = number(row[PointACVoltage])
		s.FrequencyHz, _ = number(row[PointFrequency])
		s.Status = Status(w)
		out = append(out, s)
	}
	// oldest first whatever order the answer had, then the counter carried
	slices.SortStableFunc(out, func(a, b telemetry.Sample) int { return a.Time.Compare(b.Time) })
	kept := out[:0]
	last := -1.0
	for _, s := range out {
		if s.EnergyKWh < 0 {
			s.EnergyKWh = last
		}
		if s.EnergyKWh < 0 {
			continue
		}
		last = s.EnergyKWh
		kept = append(kept, s)
	}
	return kept, nil
}

// number reads a point's value: a string or a number; null, "" and "--" are none.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// Status derives Helio's status from the power: the minute points carry no inverter
// state, so a producing inverter is running and any other standing by.
func Status(powerW float64) int {
	if powerW > 0 {
		return telemetry.StatusRunning
	}
	return telemetry.StatusStandby
}

// halfHours are the zones of UTC offsets that are not whole hours (Etc/GMT±N covers the
// rest).
var halfHours = map[string]string{"+3:30": "Asia/Tehran", "+4:30": "Asia/Kabul", "+5:30": "Asia/Kolkata",
	"+5:45": "Asia/Kathmandu", "+6:30": "Asia/Yangon", "+9:30": "Australia/Darwin", "-3:30": "America/St_Johns",
	"-9:30": "Pacific/Marquesas"}

// Zone turns the plant's UTC offset as the API gives it ("GMT+8", "GMT-3", "GMT+5:30") into
// a zone name Go can load: Etc/GMT-8 (whose sign is reversed by convention), or a city
// zone for the offsets of half and three-quarter hours. An IANA name is kept; anything
// else is UTC. The offset is fixed: summer time is not followed.
func Zone(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		if _, err := time.LoadLocation(s); err == nil {
			return s
		}
	}
	off, ok := strings.CutPrefix(strings.ToUpper(s), "GMT")
	if !ok {
		if off, ok = strings.CutPrefix(strings.ToUpper(s), "UTC"); !ok {
			return "UTC"
		}
	}
	if off == "" || off == "+0" || off == "-0" || off == "+00:00" {
		return "UTC"
	}
	if z, ok := halfHours[strings.Replace(off, ":00", "", 1)]; ok {
		return z
	}
	off = strings.TrimSuffix(off, ":00")
	h, err := strconv.Atoi(off)
	if err != nil || h < -12 || h > 14 || (off[0] != '+' && off[0] != '-') {
		return "UTC"
	}
	if h > 0 {
		return "Etc/GMT-" + strconv.Itoa(h)
	}
	return "Etc/GMT+" + strconv.Itoa(-h)
}
