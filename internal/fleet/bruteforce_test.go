package fleet

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The brute force: every figure the state answers, recomputed by plain SQL over the
// stored roll-ups and latest rows, with calendar arithmetic done afresh by package time.

func sqlFlows(t testing.TB, db *store.DB, station int64, res telemetry.Resolution, bucket *int64) (telemetry.Flows, float64) {
	t.Helper()
	q := "SELECT kind, energy_kwh, energy2_kwh, ref_energy_kwh FROM telemetry_station_rollups WHERE station_id = ? AND res = ?"
	args := []any{station, int(res)}
	if bucket != nil {
		q += " AND bucket = ?"
		args = append(args, *bucket)
	}
	rows, err := db.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var f telemetry.Flows
	var ref float64
	for rows.Next() {
		var kind string
		var s telemetry.Stats
		if err := rows.Scan(&kind, &s.EnergyKWh, &s.Energy2KWh, &s.RefEnergyKWh); err != nil {
			t.Fatal(err)
		}
		f.Add(kind, &s)
		if kind == "inverter" {
			ref += s.RefEnergyKWh
		}
	}
	return f, ref
}

// sqlOpenings is the opening counters of the devices a station counts: its own and its
// sub-stations', not the packs inside a unit.
func sqlOpenings(t testing.TB, db *store.DB, station int64) telemetry.Flows {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT d.type, d.meter_position, o.energy_kwh, o.energy2_kwh
		FROM device_openings o JOIN devices d ON d.id = o.device_id JOIN stations s ON s.id = d.station_id
		WHERE d.parent_id IS NULL AND (d.station_id = ? OR s.parent_id = ?)`, station, station)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var f telemetry.Flows
	for rows.Next() {
		var typ, pos string
		var s telemetry.Stats
		if err := rows.Scan(&typ, &pos, &s.EnergyKWh, &s.Energy2KWh); err != nil {
			t.Fatal(err)
		}
		if typ == "meter" && pos != "" {
			typ += ":" + pos
		}
		f.Add(typ, &s)
	}
	return f
}

type bounds struct{ day, prevDay, month, prevMonth, year, prevYear int64 }

func localBounds(now time.Time, tz string) bounds {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	l := now.In(loc)
	d := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	m := time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, loc)
	y := time.Date(l.Year(), 1, 1, 0, 0, 0, 0, loc)
	return bounds{d.UnixMilli(), d.AddDate(0, 0, -1).UnixMilli(), m.UnixMilli(), m.AddDate(0, -1, 0).UnixMilli(),
		y.UnixMilli(), y.AddDate(-1, 0, 0).UnixMilli()}
}

// checkState compares every figure of s with the brute force at the clock's now.
func checkState(t testing.TB, db *store.DB, s *State, now time.Time, when string) {
	t.Helper()
	ctx := context.Background()
	type st struct {
		id int64
		tz string
	}
	var stations []st
	rows, err := db.Query(ctx, "SELECT id, timezone FROM stations ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var x st
		if err := rows.Scan(&x.id, &x.tz); err != nil {
			t.Fatal(err)
		}
		stations = append(stations, x)
		ids = append(ids, x.id)
	}
	rows.Close()
	totals, err := s.Totals(ctx, append(ids, 1<<40)) // an unknown id is absent
	if err != nil {
		t.Fatal(err)
	}
	prev, err := s.Previous(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != len(ids) || len(prev) != len(ids) {
		t.Fatalf("%s: %d stations, state answers %d totals and %d previous", when, len(ids), len(totals), len(prev))
	}
	for _, x := range stations {
		b := localBounds(now, x.tz)
		want := telemetry.Totals{}
		want.Today, _ = sqlFlows(t, db, x.id, telemetry.Day, &b.day)
		want.Month, _ = sqlFlows(t, db, x.id, telemetry.Month, &b.month)
		want.Year, _ = sqlFlows(t, db, x.id, telemetry.Year, &b.year)
		want.Total, _ = sqlFlows(t, db, x.id, telemetry.Year, nil)
		want.Total.Sum(sqlOpenings(t, db, x.id))
		// the roll-ups read afresh give the same lifetime
		if rt, err := telemetry.NewReader(db, telemetry.Options{Now: func() time.Time { return now }}).StationTotals(ctx, []int64{x.id}); err != nil {
			t.Fatal(err)
		} else if !nearFlows(rt[x.id].Total, want.Total) {
			t.Fatalf("%s: station %d lifetime: roll-ups read %+v, SQL %+v", when, x.id, rt[x.id].Total, want.Total)
		}
		got := totals[x.id]
		for _, c := range []struct {
			name      string
			got, want telemetry.Flows
		}{{"today", got.Today, want.Today}, {"month", got.Month, want.Month}, {"year", got.Year, want.Year}, {"total", got.Total, want.Total}} {
			if !nearFlows(c.got, c.want) {
				t.Fatalf("%s: station %d (%s) %s: state %+v, SQL %+v", when, x.id, x.tz, c.name, c.got, c.want)
			}
		}
		pd, pdRef := sqlFlows(t, db, x.id, telemetry.Day, &b.prevDay)
		pm, _ := sqlFlows(t, db, x.id, telemetry.Month, &b.prevMonth)
		py, _ := sqlFlows(t, db, x.id, telemetry.Year, &b.prevYear)
		p := prev[x.id]
		if !near(p.DayPV, pd.PVKWh) || !near(p.DayRefKWh, pdRef) || !near(p.MonthPV, pm.PVKWh) || !near(p.YearPV, py.PVKWh) {
			t.Fatalf("%s: station %d (%s) previous: state %+v, SQL day %v ref %v month %v year %v", when, x.id, x.tz, p, pd.PVKWh, pdRef, pm.PVKWh, py.PVKWh)
		}
	}

	// the chart series: every bucket of this month's days, this year's months and every
	// year, as the roll-ups give them
	reader := telemetry.NewReader(db, telemetry.Options{Now: func() time.Time { return now }})
	for _, c := range []struct {
		res      telemetry.Resolution
		from, to time.Time
	}{{telemetry.Hour, now.Add(-50 * time.Hour), now.Add(26 * time.Hour)}, {telemetry.Day, now.AddDate(0, 0, -33), now.AddDate(0, 0, 2)}, {telemetry.Month, now.AddDate(-1, 0, -2), now.AddDate(0, 1, 1)},
		{telemetry.Year, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), now.AddDate(1, 0, 0)}} {
		got, ok, err := s.Flows(ctx, ids, c.res, c.from, c.to)
		if err != nil || !ok {
			t.Fatalf("%s: %s series: ok %v, %v", when, c.res, ok, err)
		}
		want, err := reader.StationEnergy(ctx, ids, c.res, c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			g, w := got[id], want[id]
			if len(g) != len(w) {
				t.Fatalf("%s: station %d %s series: %d buckets, roll-ups %d", when, id, c.res, len(g), len(w))
			}
			for i := range g {
				if !g[i].Start.Equal(w[i].Start) || !nearFlows(g[i].Flows, w[i].Flows) {
					t.Fatalf("%s: station %d %s bucket %s: state %+v, roll-ups %s %+v", when, id, c.res, g[i].Start, g[i].Flows, w[i].Start, w[i].Flows)
				}
			}
		}
	}

	// devices: latest sample, energy today (the station's day) and in all
	rows, err = db.Query(ctx, `SELECT d.id, COALESCE(s.timezone, ''), l.ts, l.power_kw, l.energy_kwh, l.status
		FROM devices d LEFT JOIN stations s ON s.id = d.station_id LEFT JOIN telemetry_latest l ON l.device_id = d.id ORDER BY d.id`)
	if err != nil {
		t.Fatal(err)
	}
	type dv struct {
		id     int64
		tz     string
		ts     *int64
		power  *float64
		energy *float64
		status *int
	}
	var devs []dv
	var devIDs []int64
	for rows.Next() {
		var d dv
		if err := rows.Scan(&d.id, &d.tz, &d.ts, &d.power, &d.energy, &d.status); err != nil {
			t.Fatal(err)
		}
		devs = append(devs, d)
		devIDs = append(devIDs, d.id)
	}
	rows.Close()
	latest, err := s.Latest(ctx, devIDs)
	if err != nil {
		t.Fatal(err)
	}
	energy, err := s.DeviceEnergy(ctx, devIDs)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range devs {
		l, ok := latest[d.id]
		if ok != (d.ts != nil) {
			t.Fatalf("%s: device %d latest present %v in the state, %v in SQL", when, d.id, ok, d.ts != nil)
		}
		if ok && (l.Time.UnixMilli() != *d.ts || l.PowerKW != *d.power || l.EnergyKWh != *d.energy || l.Status != *d.status) {
			t.Fatalf("%s: device %d latest: state %v %v %v %v, SQL %v %v %v %v", when, d.id, l.Time.UnixMilli(), l.PowerKW, l.EnergyKWh, l.Status, *d.ts, *d.power, *d.energy, *d.status)
		}
		b := localBounds(now, d.tz)
		loc, _ := time.LoadLocation(d.tz)
		end := time.UnixMilli(b.day).In(loc).AddDate(0, 0, 1).UnixMilli()
		var today, total, days, opening float64
		var n int
		if err := db.QueryRow(ctx, `SELECT COALESCE(SUM(CASE WHEN res = 2 AND bucket >= ? AND bucket < ? THEN energy_kwh END), 0),
			COALESCE(SUM(CASE WHEN res = 4 THEN energy_kwh END), 0), COALESCE(SUM(CASE WHEN res = 2 THEN energy_kwh END), 0), COUNT(*)
			FROM telemetry_device_rollups WHERE device_id = ?`, b.day, end, d.id).Scan(&today, &total, &days, &n); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(ctx, "SELECT COALESCE(SUM(energy_kwh), 0) FROM device_openings WHERE device_id = ?", d.id).Scan(&opening); err != nil {
			t.Fatal(err)
		}
		e := energy[d.id]
		if !near(e.TodayKWh, today) || !near(e.TotalKWh, total+opening) {
			t.Fatalf("%s: device %d energy: state %+v, SQL today %v total %v", when, d.id, e, today, total)
		}
		if !near(days, total) { // the roll-ups agree with each other
			t.Fatalf("%s: device %d: days add up to %v, years to %v", when, d.id, days, total)
		}
	}

	// membership: the devices under each station, as the SQL with its OR lists them
	got, err := s.DevicesUnder(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	var gotS, wantS []string
	for _, m := range got {
		gotS = append(gotS, fmt.Sprint(m.ID, m.StationID, m.TopID, m.Type, m.MeterPosition))
	}
	rows, err = db.Query(ctx, `SELECT d.id, d.station_id, COALESCE(s.parent_id, 0), d.type, d.meter_position FROM devices d
		JOIN stations s ON s.id = d.station_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var m Member
		var parent int64
		if err := rows.Scan(&m.ID, &m.StationID, &parent, &m.Type, &m.MeterPosition); err != nil {
			t.Fatal(err)
		}
		wantS = append(wantS, fmt.Sprint(m.ID, m.StationID, m.StationID, m.Type, m.MeterPosition))
		if parent != 0 {
			wantS = append(wantS, fmt.Sprint(m.ID, m.StationID, parent, m.Type, m.MeterPosition))
		}
	}
	rows.Close()
	sort.Strings(gotS)
	sort.Strings(wantS)
	if fmt.Sprint(gotS) != fmt.Sprint(wantS) {
		t.Fatalf("%s: devices under the stations:\nstate %v\nSQL   %v", when, gotS, wantS)
	}
}
