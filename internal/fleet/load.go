package fleet

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

var (
	lastBuild atomic.Uint64 // seconds, as float64 bits
	heapBytes atomic.Uint64 // heap growth across the last build
)

var buildSeconds = gauge{&lastBuild}

type gauge struct{ v *atomic.Uint64 }

func (g gauge) Set(v float64) { g.v.Store(math.Float64bits(v)) }

// reads counts the fleet state's reads from the database, by what: the whole state
// (build), the stations and devices (membership), the alarm index (alarms).
var reads = metrics.Default.NewCounter("helio_fleet_reads_total",
	"Reads of the in-memory fleet state from the database, by what: build (the whole state), membership (stations and devices read again), alarms (the alarm index read again). Each makes every kept fleet-wide figure be computed again.", "what")

func init() {
	metrics.Default.NewGaugeFunc("helio_fleet_build_seconds", "How long the last build of the in-memory fleet state took.",
		func() float64 { return math.Float64frombits(lastBuild.Load()) })
	metrics.Default.NewGaugeFunc("helio_fleet_build_heap_bytes", "Heap growth across the last build of the fleet state (after a collection): about the memory the state takes on a first build.",
		func() float64 { return float64(heapBytes.Load()) })
}

// structure is the fleet's stations, devices and grants.
type structure struct {
	stations map[int64]*stationInfo
	devices  map[int64]*deviceInfo
	list     []*station.Station
	grants   map[int64]map[int64]bool
}

// loadStructure reads every station (with its parent and time zone), every device's
// station and the departments' grants.
func loadStructure(ctx context.Context, db *store.DB) (*structure, error) {
	list, err := station.All(ctx, db)
	if err != nil {
		return nil, err
	}
	grants, err := station.Grants(ctx, db)
	if err != nil {
		return nil, err
	}
	stations := map[int64]*stationInfo{}
	byID := make(map[int64]*station.Station, len(list))
	for _, st := range list {
		byID[st.ID] = st
		stations[st.ID] = &stationInfo{id: st.ID, parent: st.ParentID, cal: telemetry.CalendarFor(st.Timezone)}
	}
	for _, st := range stations {
		if p := stations[st.parent]; p != nil {
			p.kids = append(p.kids, st)
			st.up = p
		}
	}
	// the device rows in the device list's order (device.List's), which their place keeps
	rows, err := db.Query(ctx, `SELECT `+device.Columns+`, d.parent_id IS NULL, COALESCE(o.energy_kwh, 0), COALESCE(o.energy2_kwh, 0)
		FROM devices d JOIN stations s ON s.id = d.station_id LEFT JOIN device_openings o ON o.device_id = d.id
		ORDER BY s.name, d.type, d.name, d.id`)
	if err != nil {
		return nil, err
	}
	type read struct {
		d  *deviceInfo
		e2 float64
	}
	var all []read
	for rows.Next() {
		d := &deviceInfo{place: len(all)}
		var e2 float64
		row, err := device.Scan(rows, &d.top, &d.opening, &e2)
		if err != nil {
			rows.Close()
			return nil, err
		}
		if st := byID[row.StationID]; st != nil {
			row.StationName = st.Name // one copy of the name for all its devices
		}
		d.row, d.id, d.station, d.typ, d.meterPos = row, row.ID, row.StationID, row.Type, row.MeterPosition
		d.name, d.sn, d.kwp = row.Name, row.SN, row.ComponentCapacityKWp
		all = append(all, read{d, e2})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// the sums below add in the order of the ids, as the roll-ups' do
	slices.SortFunc(all, func(a, b read) int { return cmp.Compare(a.d.id, b.d.id) })
	devices := make(map[int64]*deviceInfo, len(all))
	for _, r := range all {
		d := r.d
		devices[d.id] = d
		st := stations[d.station]
		if st == nil {
			continue
		}
		st.devs = append(st.devs, d)
		if d.top && (d.opening != 0 || r.e2 != 0) { // as the station roll-ups count it
			kind := telemetry.OpeningKind(d.typ, d.meterPos)
			st.opening.AddOpening(kind, d.opening, r.e2)
			if p := stations[st.parent]; p != nil {
				p.opening.AddOpening(kind, d.opening, r.e2)
			}
		}
	}
	if err := rankDevices(ctx, db, devices); err != nil {
		return nil, err
	}
	return &structure{stations: stations, devices: devices, list: list, grants: grants}, nil
}

// loadFigures reads the kept roll-ups and latest samples through q (the build's
// snapshot of db): every year row, the month rows and day rows of the kept windows.
func loadFigures(ctx context.Context, db *store.DB, q store.Querier, now time.Time) (map[int64]*stationFig, map[int64]*deviceFig, error) {
	dayCut, monthCut := now.Add(-keepDays).UnixMilli(), now.Add(-keepMonths).UnixMilli()
	devCut := now.Add(-keepDeviceDays).UnixMilli()
	st := map[int64]*stationFig{}
	stIDs, err := store.IDs(ctx, q, "SELECT id FROM stations")
	if err != nil {
		return nil, nil, err
	}
	for _, chunk := range chunks(stIDs, 400) {
		// an index range per station and resolution (telemetry_station_rollups_figures)
		sel := "SELECT station_id, kind, res, bucket, energy_kwh, energy2_kwh, ref_energy_kwh, samples, temp_sum, online_min, fault_min FROM telemetry_station_rollups WHERE station_id IN (" +
			placeholders(len(chunk)) + ") AND res = ? AND bucket >= ?"
		var args []any
		for _, a := range [][]any{{int(telemetry.Year), int64(math.MinInt64)}, {int(telemetry.Month), monthCut}, {int(telemetry.Day), dayCut}} {
			args = append(append(args, int64Args(chunk)...), a...)
		}
		rows, err := q.Query(ctx, sel+" UNION ALL "+sel+" UNION ALL "+sel, args...)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var id, bucket int64
			var kind string
			var res int
			var s telemetry.Stats
			if err := rows.Scan(&id, &kind, &res, &bucket, &s.EnergyKWh, &s.Energy2KWh, &s.RefEnergyKWh, &s.Samples, &s.TempSum, &s.OnlineMin, &s.FaultMin); err != nil {
				rows.Close()
				return nil, nil, err
			}
			f := st[id]
			if f == nil {
				f = newStationFig()
				st[id] = f
			}
			m := f.years
			switch telemetry.Resolution(res) {
			case telemetry.Month:
				m = f.months
			case telemetry.Day:
				m = f.days
			}
			at(m, bucket).add(kind, &s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}

	for _, f := range st {
		for _, y := range f.years {
			f.total.Sum(y.Flows)
		}
	}
	if err := loadFirstDays(ctx, q, stIDs, st); err != nil {
		return nil, nil, err
	}

	// the hours of the recent days, unpacked from the day rows
	reader := telemetry.NewReader(db, telemetry.Options{Now: func() time.Time { return now }}).Within(q)
	hours, err := reader.StationRollups(ctx, stIDs, telemetry.Hour, now.Add(-keepHours), now.Add(48*time.Hour))
	if err != nil {
		return nil, nil, err
	}
	for id, kinds := range hours {
		f := st[id]
		if f == nil {
			f = newStationFig()
			st[id] = f
		}
		for kind, pts := range kinds {
			for i := range pts {
				if pts[i].Stats.EnergyKWh != 0 || pts[i].Stats.Energy2KWh != 0 {
					f.hourAt(pts[i].Start.UnixMilli()).Flows.Add(kind, &pts[i].Stats)
				}
			}
		}
	}

	dev := map[int64]*deviceFig{}
	devIDs, err := store.IDs(ctx, q, "SELECT id FROM devices")
	if err != nil {
		return nil, nil, err
	}
	get := func(id int64) *deviceFig {
		d := dev[id]
		if d == nil {
			d = newDeviceFig()
			dev[id] = d
		}
		return d
	}
	for _, chunk := range chunks(devIDs, 400) {
		sel := "SELECT device_id, res, bucket, energy_kwh FROM telemetry_device_rollups WHERE device_id IN (" +
			placeholders(len(chunk)) + ") AND res = ? AND bucket >= ?"
		var args []any
		for _, a := range [][]any{{int(telemetry.Year), int64(math.MinInt64)}, {int(telemetry.Day), devCut}} {
			args = append(append(args, int64Args(chunk)...), a...)
		}
		rows, err := q.Query(ctx, sel+" UNION ALL "+sel, args...)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var id, bucket int64
			var res int
			var e float64
			if err := rows.Scan(&id, &res, &bucket, &e); err != nil {
				rows.Close()
				return nil, nil, err
			}
			d := get(id)
			if telemetry.Resolution(res) == telemetry.Year {
				d.total += e
			} else {
				d.addDay(bucket, e)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		latest, err := telemetry.LatestIn(ctx, q, chunk)
		if err != nil {
			return nil, nil, err
		}
		for id, l := range latest {
			d := get(id)
			d.latest, d.hasLatest = l, true
		}
	}
	return st, dev, nil
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func chunks(xs []int64, n int) [][]int64 {
	var out [][]int64
	for len(xs) > n {
		out = append(out, xs[:n])
		xs = xs[n:]
	}
	if len(xs) > 0 {
		out = append(out, xs)
	}
	return out
}

// loadFirstDays reads the start of each station's first day roll-up: one index range of
// telemetry_station_rollups_figures per station.
func loadFirstDays(ctx context.Context, q store.Querier, stIDs []int64, st map[int64]*stationFig) error {
	for _, chunk := range chunks(stIDs, 400) {
		rows, err := q.Query(ctx, "SELECT station_id, MIN(bucket) FROM telemetry_station_rollups WHERE res = ? AND station_id IN ("+
			placeholders(len(chunk))+") GROUP BY station_id", append([]any{int(telemetry.Day)}, int64Args(chunk)...)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, first int64
			if err := rows.Scan(&id, &first); err != nil {
				rows.Close()
				return err
			}
			f := st[id]
			if f == nil {
				f = newStationFig()
				st[id] = f
			}
			f.firstDay, f.hasFirst = first, true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
