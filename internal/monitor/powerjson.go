package monitor

import (
	"slices"
	"strconv"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/jsonnum"
	"github.com/helio-energy/helio/internal/telemetry"
)

// AppendJSON implements httpapi.Appender: a month of the fleet's flows with profit per
// currency is among the larger dashboard answers, and reflection over its maps and floats
// was a quarter of its cost. The bytes are encoding/json's (TestPowerDataAsEncodingJSON).
func (d PowerData) AppendJSON(b []byte) ([]byte, error) {
	b = jsonnum.AppendString(append(b, `{"period":`...), d.Period)
	b = jsonnum.AppendString(append(b, `,"timezone":`...), d.Timezone)
	b = jsonnum.AppendString(append(b, `,"unit":`...), d.Unit)
	b = append(b, `,"points":`...)
	var keys []string // the profit's currencies, sorted as encoding/json sorts map keys
	var err error
	if d.Points == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range d.Points {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = d.Points[i].appendJSON(b, &keys); err != nil {
				return b, err
			}
		}
		b = append(b, ']')
	}
	b = jsonnum.AppendString(append(b, `,"baseCurrency":`...), d.BaseCurrency)
	b = append(b, `,"unconverted":`...)
	if d.Unconverted == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range d.Unconverted {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonnum.AppendString(b, c)
		}
		b = append(b, ']')
	}
	if d.Opening != nil {
		if b, err = d.Opening.appendJSON(append(b, `,"opening":`...), &keys); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func (p *PowerPoint) appendJSON(b []byte, keys *[]string) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"time":`...), p.Time, 10)
	b, ok := appendFlows(append(b, ','), &p.Flows)
	if !ok {
		return b, httpapi.ErrUnsupportedFloat
	}
	b = append(b, `,"profit":`...)
	if p.Profit == nil {
		b = append(b, "null"...)
		return p.appendBase(b)
	}
	ks := (*keys)[:0]
	for k := range p.Profit {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	*keys = ks
	b = append(b, '{')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonnum.AppendString(b, k), ':')
		if b, ok = jsonnum.AppendFloat(b, p.Profit[k]); !ok {
			return b, httpapi.ErrUnsupportedFloat
		}
	}
	return p.appendBase(append(b, '}'))
}

// appendBase writes the point's profitBase and closes it.
func (p *PowerPoint) appendBase(b []byte) ([]byte, error) {
	b = append(b, `,"profitBase":`...)
	if p.ProfitBase == nil {
		return append(b, "null}"...), nil
	}
	b, ok := jsonnum.AppendFloat(b, *p.ProfitBase)
	if !ok {
		return b, httpapi.ErrUnsupportedFloat
	}
	return append(b, '}'), nil
}

// appendFlows writes the fields of f (no braces) as encoding/json does; false on a NaN
// or an infinity.
func appendFlows(b []byte, f *telemetry.Flows) ([]byte, bool) {
	var ok [6]bool
	b, ok[0] = jsonnum.AppendFloat(append(b, `"pvKwh":`...), f.PVKWh)
	b, ok[1] = jsonnum.AppendFloat(append(b, `,"dischargeKwh":`...), f.DischargeKWh)
	b, ok[2] = jsonnum.AppendFloat(append(b, `,"chargeKwh":`...), f.ChargeKWh)
	b, ok[3] = jsonnum.AppendFloat(append(b, `,"importKwh":`...), f.ImportKWh)
	b, ok[4] = jsonnum.AppendFloat(append(b, `,"exportKwh":`...), f.ExportKWh)
	b, ok[5] = jsonnum.AppendFloat(append(b, `,"loadKwh":`...), f.LoadKWh)
	return b, ok == [6]bool{true, true, true, true, true, true}
}
