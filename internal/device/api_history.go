package device

import (
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/jsonnum"
)

// A device's attributes and its history of one metric.

// HistoryQuery documents the history parameters.
type HistoryQuery struct {
	Metric   string `query:"metric" validate:"required" enum:"power,energy,energy2,dcVoltage,dcCurrent,acVoltage,frequency,temperature,soc,irradiance" doc:"power, energy, energy2, dcVoltage, dcCurrent, acVoltage, frequency, temperature, soc or irradiance"`
	From     string `query:"from" validate:"required" doc:"RFC 3339"`
	To       string `query:"to" validate:"required" doc:"RFC 3339; after from, at most 1098 days after it"`
	from, to time.Time
}

// Check reads the instants and their order.
func (q *HistoryQuery) Check(v *httpapi.Validator) {
	parse := func(name, s string) time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if s != "" && err != nil {
			v.Add(name, "wrong_type", "a date-time (RFC 3339)")
		}
		return t
	}
	q.from, q.to = parse("from", q.From), parse("to", q.To)
	if q.from.IsZero() || q.to.IsZero() {
		return
	}
	switch {
	case !q.to.After(q.from):
		v.Add("to", "out_of_range", q.from.Format(time.RFC3339), "…")
	case q.to.Sub(q.from) > MaxHistoryRange:
		v.Add("to", "out_of_range", q.from.Format(time.RFC3339), q.from.Add(MaxHistoryRange).Format(time.RFC3339))
	}
}

// History is a device's series of one metric.
type History struct {
	Metric     string       `json:"metric"`
	Resolution string       `json:"resolution" doc:"5m, hour, day or month: chosen from the range"`
	Unit       string       `json:"unit"`
	Points     [][2]float64 `json:"points"`
}

// AppendJSON implements httpapi.Appender: a day of 5-minute points is the largest
// answer of the device screens, and reflection over its floats showed in its cost.
func (h History) AppendJSON(b []byte) ([]byte, error) {
	b = jsonnum.AppendString(append(b, `{"metric":`...), h.Metric)
	b = jsonnum.AppendString(append(b, `,"resolution":`...), h.Resolution)
	b = jsonnum.AppendString(append(b, `,"unit":`...), h.Unit)
	b, ok := jsonnum.AppendPairs(append(b, `,"points":`...), h.Points)
	if !ok {
		return b, httpapi.ErrUnsupportedFloat
	}
	return append(b, '}'), nil
}

func (s *Service) attributes(r *http.Request) (any, error) {
	d, err := s.get(r, "uid")
	if err != nil {
		return nil, err
	}
	items, latest, err := s.items(r.Context(), []*Device{d})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	np := func(k string, v any, unit string) Attribute {
		return Attribute{Key: k, Value: v, Unit: unit, Group: "nameplate"}
	}
	out := []Attribute{np("sn", d.SN, ""), np("type", d.Type, ""), np("model", d.Model, ""), np("customType", d.CustomType, "")}
	switch d.Type {
	case "inverter":
		out = append(out, np("ratedPowerKw", d.RatedPowerKW, "kW"), np("componentCapacityKwp", d.ComponentCapacityKWp, "kWp"),
			np("componentRatedPowerW", d.ComponentRatedPowerW, "W"), np("componentCount", d.ComponentCount, ""),
			np("stringsTotal", d.StringsTotal, ""), np("stringsEnabled", d.StringsEnabled, ""))
	case "battery", "storage":
		out = append(out, np("ratedPowerKw", d.RatedPowerKW, "kW"), np("capacityKwh", d.CapacityKWh, "kWh"))
	case "meter":
		out = append(out, np("meterPosition", d.MeterPosition, ""))
	}
	out = append(out, np("collectorSn", d.CollectorSN, ""))
	if l, ok := latest[d.ID]; ok {
		lv := func(k string, v any, unit string) Attribute {
			return Attribute{Key: k, Value: v, Unit: unit, Group: "live"}
		}
		out = append(out, lv("state", items[0].State, ""), lv("time", l.Time.UTC().Format(time.RFC3339), ""),
			lv("power", l.PowerKW, "kW"), lv("energy", l.EnergyKWh, "kWh"), lv("dcVoltage", l.DCVoltageV, "V"),
			lv("dcCurrent", l.DCCurrentA, "A"), lv("acVoltage", l.ACVoltageV, "V"), lv("frequency", l.FrequencyHz, "Hz"),
			lv("temperature", l.TempC, "°C"))
		if d.Type == "inverter" {
			out = append(out, lv("irradiance", l.IrradianceWm2, "W/m²"), lv("stringsActive", l.StringsActive, ""))
		}
		if d.Type == "battery" || d.Type == "storage" {
			out = append(out, lv("soc", l.SOC, "%"), lv("energy2", l.Energy2KWh, "kWh"))
		}
		if d.Type == "meter" {
			out = append(out, lv("energy2", l.Energy2KWh, "kWh"))
		}
	}
	return out, nil
}

func (s *Service) history(r *http.Request) (any, error) {
	d, err := s.get(r, "deviceId")
	if err != nil {
		return nil, err
	}
	q := httpapi.Query[HistoryQuery](r)
	metric, from, to := q.Metric, q.from, q.to
	unit := Metrics[metric]
	if from.After(s.now().Add(time.Hour)) {
		return nil, httpapi.InvalidField("from", "out_of_range", "…", s.now().Format(time.RFC3339))
	}
	series, res, err := s.Telemetry.History(r.Context(), d, metric, from, to)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if series.Unit == "" {
		series.Unit = unit
	}
	return History{Metric: metric, Resolution: res, Unit: series.Unit, Points: series.Points}, nil
}
