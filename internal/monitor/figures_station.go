package monitor

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// A station's figures over time: its KPIs, day curve, daily and monthly energy, and a device's energy and history.

// KPIs implements station.Telemetry.
func (f *Figures) KPIs(ctx context.Context, st *station.Station) (station.KPIs, error) {
	totals, err := f.stationTotals(ctx, []int64{st.ID})
	if err != nil {
		return station.KPIs{}, err
	}
	t := totals[st.ID]
	pv, ref, err := f.yesterday(ctx, st.ID, location(st.Timezone))
	if err != nil {
		return station.KPIs{}, err
	}
	pr := PerformanceRatio(pv, ref)
	return station.KPIs{
		Unit: "kWh", DayEnergyKWh: r3(t.Today.PVKWh), MonthEnergyKWh: r3(t.Month.PVKWh), YearEnergyKWh: r3(t.Year.PVKWh),
		TotalEnergyKWh: r3(t.Total.PVKWh), EquivalentHours: r3(EquivalentHours(t.Today.PVKWh, st.CapacityKWp)),
		PerformanceRatio: r3(pr), CO2ReductionKg: r3(CO2Reduction(t.Total.PVKWh, f.factorOf(st))),
		ProfitToday: r3(Profit(t.Today.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)),
		ProfitTotal: r3(Profit(t.Total.PVKWh, st.PricePerKWh, st.SubsidyPerKWh)), Currency: st.Currency,
		EmissionFactorKg: f.factorOf(st),
	}, nil
}

// PowerCurve implements station.Telemetry.
func (f *Figures) PowerCurve(ctx context.Context, st *station.Station, day time.Time) (station.Series, error) {
	var cut telemetry.Cutoff
	if f.Fleet != nil {
		cut = f.Fleet.CurveCutoff
	}
	pts, err := f.Reader.StationCurveWith(ctx, st.ID, "inverter", day, cut)
	if errors.Is(err, store.ErrNotFound) {
		pts = [][2]float64{}
	} else if err != nil {
		return station.Series{}, err
	}
	for i := range pts {
		pts[i][1] = r3(pts[i][1])
	}
	return station.Series{Unit: "kW", Points: pts}, nil
}

// DailyEnergy implements station.Telemetry.
func (f *Figures) DailyEnergy(ctx context.Context, st *station.Station, month time.Time) (station.Series, error) {
	loc := location(st.Timezone)
	from := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, loc)
	days, err := f.stationFlows(ctx, []int64{st.ID}, telemetry.Day, from, from.AddDate(0, 1, 0))
	if err != nil {
		return station.Series{}, err
	}
	out := station.Series{Unit: "kWh", Points: [][2]float64{}}
	for _, p := range days[st.ID] {
		out.Points = append(out.Points, [2]float64{float64(p.Start.UnixMilli()), r3(p.PVKWh)})
	}
	return out, nil
}

// MonthlyEnergy implements station.Telemetry.
func (f *Figures) MonthlyEnergy(ctx context.Context, st *station.Station, year time.Time) (station.Series, error) {
	loc := location(st.Timezone)
	from := time.Date(year.Year(), 1, 1, 0, 0, 0, 0, loc)
	months, err := f.stationFlows(ctx, []int64{st.ID}, telemetry.Month, from, from.AddDate(1, 0, 0))
	if err != nil {
		return station.Series{}, err
	}
	out := station.Series{Unit: "kWh", Points: [][2]float64{}}
	now := f.now()
	for _, p := range months[st.ID] {
		if p.Start.After(now) {
			break // months that have not begun
		}
		out.Points = append(out.Points, [2]float64{float64(p.Start.UnixMilli()), r3(p.PVKWh)})
	}
	return out, nil
}

// Latest implements device.Telemetry.
func (f *Figures) Latest(ctx context.Context, ids []int64) (map[int64]telemetry.Sample, error) {
	return f.latest(ctx, ids)
}

// Energy implements device.Telemetry: today (the station's local day) and in all.
func (f *Figures) Energy(ctx context.Context, devs []*device.Device) (map[int64]device.Energy, error) {
	out := map[int64]device.Energy{}
	if len(devs) == 0 {
		return out, nil
	}
	if f.Fleet != nil {
		return f.deviceEnergy(ctx, devs)
	}
	stationIDs := map[int64]bool{}
	for _, d := range devs {
		stationIDs[d.StationID] = true
	}
	tzs, err := f.timezones(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	byTZ := map[string][]int64{}
	all := make([]int64, 0, len(devs))
	for _, d := range devs {
		byTZ[tzs[d.StationID]] = append(byTZ[tzs[d.StationID]], d.ID)
		all = append(all, d.ID)
	}
	years, err := f.Reader.DeviceRollups(ctx, all, telemetry.Year, time.Unix(0, 0), f.now().AddDate(1, 0, 0))
	if err != nil {
		return nil, err
	}
	for id, pts := range years {
		e := out[id]
		for _, p := range pts {
			e.TotalKWh += p.Stats.EnergyKWh
		}
		out[id] = e
	}
	open, err := f.Reader.DeviceOpenings(ctx, all)
	if err != nil {
		return nil, err
	}
	for id, kwh := range open { // lifetime: the opening counter and what was recorded since
		e := out[id]
		e.TotalKWh += kwh
		out[id] = e
	}
	for tz, ids := range byTZ {
		loc := location(tz)
		now := f.now().In(loc)
		day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
		days, err := f.Reader.DeviceRollups(ctx, ids, telemetry.Day, day, day.AddDate(0, 0, 1))
		if err != nil {
			return nil, err
		}
		for id, pts := range days {
			e := out[id]
			for _, p := range pts {
				e.TodayKWh += p.Stats.EnergyKWh
			}
			out[id] = e
		}
	}
	for id, e := range out {
		out[id] = device.Energy{TodayKWh: r3(e.TodayKWh), TotalKWh: r3(e.TotalKWh)}
	}
	return out, nil
}

func (f *Figures) timezones(ctx context.Context, ids map[int64]bool) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(ids))
	for id := range ids {
		args = append(args, id)
	}
	rows, err := f.DB.Query(ctx, "SELECT id, timezone FROM stations WHERE id IN ("+strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var tz string
		if err := rows.Scan(&id, &tz); err != nil {
			return nil, err
		}
		out[id] = tz
	}
	return out, rows.Err()
}

// History implements device.Telemetry.
func (f *Figures) History(ctx context.Context, d *device.Device, metric string, from, to time.Time) (station.Series, string, error) {
	s, err := f.Reader.DeviceSeries(ctx, d.ID, metric, from, to, telemetry.Auto)
	if errors.Is(err, telemetry.ErrResolution) {
		return station.Series{Unit: s.Unit, Points: [][2]float64{}}, s.Resolution, nil
	}
	if err != nil {
		return station.Series{}, "", err
	}
	for i := range s.Points {
		s.Points[i][1] = r3(s.Points[i][1])
	}
	return station.Series{Unit: s.Unit, Points: s.Points}, s.Resolution, nil
}
