package analysis

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/emission"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Measured is a station's (or device's) period: its totals per slot and in all.
type Measured struct {
	Labels  []string
	Buckets []Totals
	Total   Totals
}

// Measurer reads periods through Rollups.
type Measurer struct {
	Rollups Rollups
	Now     func() time.Time
	// EmissionFactor is the grid factor (kg CO₂/kWh) of stations whose country the
	// emission table lacks (--emission-factor); others use their country's.
	EmissionFactor float64
}

// factor is the grid emission factor of a station in the country.
func (m *Measurer) factor(country string) float64 { return emission.Factor(country, m.EmissionFactor) }

func (m *Measurer) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Stations measures each station over the period, each in its own calendar. Stations of
// one time zone are read together.
func (m *Measurer) Stations(ctx context.Context, stations []Station, p Period) (map[int64]*Measured, error) {
	byZone := map[string][]Station{}
	for _, s := range stations {
		byZone[s.Timezone] = append(byZone[s.Timezone], s)
	}
	out := make(map[int64]*Measured, len(stations))
	for zone, list := range byZone {
		cal := telemetry.CalendarFor(zone)
		from, to := p.Range(cal)
		ids := make([]int64, len(list))
		for i, s := range list {
			ids[i] = s.ID
		}
		got, err := m.Rollups.Stations(ctx, ids, p.Res(), from, to)
		if err != nil {
			return nil, err
		}
		slots := p.Slots(cal)
		for _, s := range list {
			out[s.ID] = m.fill(slots, got[s.ID], s.Inverters, m.factor(s.Country))
		}
	}
	return out, nil
}

// Device measures one device over the period in its station's calendar (zone) at its
// station's country's CO₂ factor; kind as for Rollups.Devices, inverters 1 for an inverter.
func (m *Measurer) Device(ctx context.Context, id int64, kind, zone, country string, p Period) (*Measured, error) {
	cal := telemetry.CalendarFor(zone)
	from, to := p.Range(cal)
	got, err := m.Rollups.Devices(ctx, map[int64]string{id: kind}, p.Res(), from, to)
	if err != nil {
		return nil, err
	}
	inv := 0
	if kind == "inverter" {
		inv = 1
	}
	return m.fill(p.Slots(cal), got[id], inv, m.factor(country)), nil
}

// fill lays buckets on the period's slots and adds each slot's inverter time (inverters ×
// the elapsed minutes of the slot) and the CO₂ its PV energy avoided at the factor.
func (m *Measurer) fill(slots []Slot, buckets []Bucket, inverters int, factor float64) *Measured {
	now := m.now().UnixMilli()
	at := make(map[int64]*Bucket, len(buckets))
	for i := range buckets {
		at[buckets[i].Start.UnixMilli()] = &buckets[i]
	}
	ms := &Measured{Labels: make([]string, len(slots)), Buckets: make([]Totals, len(slots))}
	for i, sl := range slots {
		ms.Labels[i] = sl.Label
		if b, ok := at[sl.Start]; ok {
			ms.Buckets[i] = b.Totals.Sited()
			ms.Buckets[i].CO2Kg = ms.Buckets[i].PVKWh * factor
		}
		if elapsed := min(sl.End, now) - sl.Start; elapsed > 0 {
			ms.Buckets[i].InverterMin = float64(inverters) * float64(elapsed) / 60000
		}
		ms.Total.Add(ms.Buckets[i])
	}
	return ms
}

// Combine adds several stations' measurements slot by slot, aligned by label (stations in
// zones whose DST days differ still line up by local hour), labels in first-seen order.
func Combine(list []*Measured) *Measured {
	out := &Measured{}
	index := map[string]int{}
	for _, ms := range list {
		for i, l := range ms.Labels {
			j, ok := index[l]
			if !ok {
				j = len(out.Labels)
				index[l] = j
				out.Labels = append(out.Labels, l)
				out.Buckets = append(out.Buckets, Totals{})
			}
			out.Buckets[j].Add(ms.Buckets[i])
		}
		out.Total.Add(ms.Total)
	}
	return out
}

// FleetSite is the site of several stations: capacities add up; it has no price, as
// revenue is summed per station and per currency (Revenues).
func FleetSite(stations []Station) Site {
	var s Site
	for _, st := range stations {
		s.CapacityKWp += st.CapacityKWp
		s.Storage = s.Storage || st.Storage
	}
	return s
}
