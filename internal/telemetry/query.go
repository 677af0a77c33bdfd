package telemetry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Reader answers the dashboards from roll-ups and latest rows; raw samples are read only
// for device series over short ranges. Every function takes explicit device or station
// ids: the caller has already filtered them by the user's station authority.
type Reader struct {
	db  *store.DB
	opt Options
	tx  querier // when set (Within), roll-ups are read through it
}

// NewReader returns a Reader (opt as for the Writer: RawRetention and Now matter).
func NewReader(db *store.DB, opt Options) *Reader {
	return &Reader{db: db, opt: opt.withDefaults()}
}

// Point is one roll-up bucket.
type Point struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Stats Stats     `json:"stats"`
}

// Auto lets DeviceSeries choose the resolution from the range.
const Auto Resolution = -1

// ErrResolution is returned for a metric that has no value at the asked resolution.
var ErrResolution = errors.New("telemetry: metric not available at this resolution")

// Latest returns the last sample of each device that has reported.
func (r *Reader) Latest(ctx context.Context, deviceIDs []int64) (map[int64]Sample, error) {
	return LatestIn(ctx, r.db, deviceIDs)
}

// DeviceRollups returns the devices' buckets of resolution res (Hour, Day, Month or Year)
// starting in [from, to), oldest first. Buckets without data are absent.
func (r *Reader) DeviceRollups(ctx context.Context, deviceIDs []int64, res Resolution, from, to time.Time) (map[int64][]Point, error) {
	pts, err := r.rollups(ctx, false, deviceIDs, res, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]Point, len(pts))
	for k, p := range pts {
		out[k.id] = p
	}
	return out, nil
}

// StationRollups returns the stations' buckets per device kind ("inverter", "battery",
// "storage", "meter:grid", …), each including the station's sub-stations.
func (r *Reader) StationRollups(ctx context.Context, stationIDs []int64, res Resolution, from, to time.Time) (map[int64]map[string][]Point, error) {
	var pts map[ownerKey][]Point
	var err error
	if res == Day {
		pts, err = r.stationDays(ctx, stationIDs, from, to)
	} else {
		pts, err = r.rollups(ctx, true, stationIDs, res, from, to)
	}
	if err != nil {
		return nil, err
	}
	out := map[int64]map[string][]Point{}
	for k, p := range pts {
		if out[k.id] == nil {
			out[k.id] = map[string][]Point{}
		}
		out[k.id][k.kind] = p
	}
	return out, nil
}

type ownerKey struct {
	id   int64
	kind string
}

func (r *Reader) rollups(ctx context.Context, station bool, ids []int64, res Resolution, from, to time.Time) (map[ownerKey][]Point, error) {
	if res < Hour || res > Year {
		return nil, fmt.Errorf("telemetry: no roll-ups at resolution %s", res)
	}
	table, idCol, kindCol := "telemetry_device_rollups", "device_id", "''"
	if station {
		table, idCol, kindCol = "telemetry_station_rollups", "station_id", "kind"
	}
	// A day row's packed hours (and a station day's 5-minute slots) run to kilobytes, kept
	// on overflow pages: read them only for the hours asked for.
	hoursCol := "NULL"
	if res == Hour {
		hoursCol = "hours"
	}
	dbRes, lo, hi := res, from.UnixMilli(), to.UnixMilli()
	cond := "bucket >= ? AND bucket < ?"
	args := []any{lo, hi}
	if res == Hour {
		// the day rows overlapping [from, to): a local day is at most 25 hours long, so
		// the bucket bound keeps the read to the days around the range
		dbRes, cond = Day, "bucket > ? AND bucket < ? AND bucket_end > ?"
		args = []any{lo - 2*24*hourMs, hi, lo}
	}
	out := map[ownerKey][]Point{}
	for _, chunk := range chunks(ids, 400) {
		q := "SELECT " + idCol + ", " + kindCol + ", bucket, bucket_end, " + statCols + ", " + hoursCol + " FROM " + table +
			" WHERE res = ? AND " + idCol + " IN (" + placeholders(len(chunk)) + ") AND " + cond
		var through querier = r.db
		if r.tx != nil {
			through = r.tx
		}
		rows, err := through.Query(ctx, q, append(append([]any{int(dbRes)}, int64Args(chunk)...), args...)...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
		for rows.Next() {
			var k ownerKey
			var start, end int64
			var hours []byte
			var s Stats
			dest, finish := statScan(&s)
			if err := rows.Scan(append(append([]any{&k.id, &k.kind, &start, &end}, dest...), &hours)...); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
			}
			finish()
			if res != Hour {
				out[k] = append(out[k], Point{Start: time.UnixMilli(start).UTC(), End: time.UnixMilli(end).UTC(), Stats: s})
				continue
			}
			d := newDayAcc(start, end, false)
			if err := unpackHours(hours, d.hours); err != nil {
				rows.Close()
				return nil, err
			}
			for i := range d.hours {
				hs := start + int64(i)*hourMs
				if hs < from.UnixMilli() || hs >= to.UnixMilli() {
					continue
				}
				out[k] = append(out[k], Point{Start: time.UnixMilli(hs).UTC(), End: time.UnixMilli(min(hs+hourMs, end)).UTC(), Stats: d.hours[i]})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
	}
	// each owner's rows come in index order, by bucket, in practice: sorting them here (a
	// check of an ordered list) spares the database a sort of every row read across owners
	for _, pts := range out {
		sortPoints(pts)
	}
	return out, nil
}

// Flows are a station's energy flows in kWh.
type Flows struct {
	PVKWh        float64 `json:"pvKwh"`        // produced by the inverters
	DischargeKWh float64 `json:"dischargeKwh"` // discharged by batteries and all-in-one storage
	ChargeKWh    float64 `json:"chargeKwh"`    // charged into them
	ImportKWh    float64 `json:"importKwh"`    // imported from the grid (grid meters)
	ExportKWh    float64 `json:"exportKwh"`    // exported to the grid
	LoadKWh      float64 `json:"loadKwh"`      // consumed (load meters)
}

func (f *Flows) add(kind string, s *Stats) {
	switch kind {
	case "inverter":
		f.PVKWh += s.EnergyKWh
	case "battery", "storage":
		f.DischargeKWh += s.EnergyKWh
		f.ChargeKWh += s.Energy2KWh
	case "meter", "meter:grid":
		f.ImportKWh += s.EnergyKWh
		f.ExportKWh += s.Energy2KWh
	case "meter:load":
		f.LoadKWh += s.EnergyKWh
	}
}

func (f *Flows) sum(o Flows) {
	f.PVKWh += o.PVKWh
	f.DischargeKWh += o.DischargeKWh
	f.ChargeKWh += o.ChargeKWh
	f.ImportKWh += o.ImportKWh
	f.ExportKWh += o.ExportKWh
	f.LoadKWh += o.LoadKWh
}

// EnergyPoint is one bucket of a station's energy.
type EnergyPoint struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Flows
	// PVMaxKW is the highest 5-minute PV power in the bucket (nil without data).
	PVMaxKW *float64 `json:"pvMaxKw"`
	// RefEnergyKWh is the PV reference energy: PR = PVKWh ÷ RefEnergyKWh (IEC 61724).
	RefEnergyKWh float64 `json:"refEnergyKwh"`
	// FaultMin is device-minutes in a fault status, all kinds together.
	FaultMin float64 `json:"faultMin"`
}

// StationEnergy returns every bucket of resolution res starting in [from, to) of each
// station's local calendar (zero where nothing was measured), oldest first.
func (r *Reader) StationEnergy(ctx context.Context, stationIDs []int64, res Resolution, from, to time.Time) (map[int64][]EnergyPoint, error) {
	cals, err := r.stationCalendars(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	roll, err := r.StationRollups(ctx, stationIDs, res, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]EnergyPoint, len(stationIDs))
	for _, id := range stationIDs {
		cal, ok := cals[id]
		if !ok {
			continue
		}
		var pts []EnergyPoint
		index := map[int64]int{}
		for t := from.UnixMilli(); t < to.UnixMilli(); {
			s, e := cal.Bucket(res, t)
			if s >= from.UnixMilli() {
				index[s] = len(pts)
				pts = append(pts, EnergyPoint{Start: time.UnixMilli(s).UTC(), End: time.UnixMilli(e).UTC()})
			}
			t = e
		}
		for kind, list := range roll[id] {
			for _, p := range list {
				i, ok := index[p.Start.UnixMilli()]
				if !ok {
					continue
				}
				ep := &pts[i]
				ep.Flows.add(kind, &p.Stats)
				ep.FaultMin += p.Stats.FaultMin
				if kind == "inverter" {
					ep.RefEnergyKWh += p.Stats.RefEnergyKWh
					if !math.IsNaN(p.Stats.MaxPowerKW) {
						v := p.Stats.MaxPowerKW
						ep.PVMaxKW = &v
					}
				}
			}
		}
		out[id] = pts
	}
	return out, nil
}

// Totals are a station's (or a fleet's) flows today, this month, this year and in all,
// by each station's own calendar.
type Totals struct {
	Today Flows `json:"today"`
	Month Flows `json:"month"`
	Year  Flows `json:"year"`
	Total Flows `json:"total"`
}

// StationTotals returns each station's totals (sub-stations included) at the clock's now.
func (r *Reader) StationTotals(ctx context.Context, stationIDs []int64) (map[int64]Totals, error) {
	cals, err := r.stationCalendars(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	now := r.opt.Now().UnixMilli()
	monthLo, dayLo := int64(math.MaxInt64), int64(math.MaxInt64)
	for _, cal := range cals {
		m, _ := cal.Month(now)
		d, _ := cal.Day(now)
		monthLo, dayLo = min(monthLo, m), min(dayLo, d)
	}
	out := make(map[int64]Totals, len(stationIDs))
	for _, chunk := range chunks(stationIDs, 400) {
		// every year, this month and today: an index range each per station (an OR would
		// walk all of the station's rows)
		sel := "SELECT station_id, kind, res, bucket, energy_kwh, energy2_kwh FROM telemetry_station_rollups WHERE station_id IN (" + placeholders(len(chunk)) + ")"
		var args []any
		for _, a := range [][]any{{int(Year), int64(math.MinInt64)}, {int(Month), monthLo}, {int(Day), dayLo}} {
			args = append(append(args, int64Args(chunk)...), a...)
		}
		rows, err := r.db.Query(ctx, sel+" AND res = ? AND bucket >= ? UNION ALL "+sel+" AND res = ? AND bucket >= ? UNION ALL "+sel+" AND res = ? AND bucket >= ?", args...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
		for rows.Next() {
			var id, bucket int64
			var kind string
			var res int
			var s Stats
			if err := rows.Scan(&id, &kind, &res, &bucket, &s.EnergyKWh, &s.Energy2KWh); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
			}
			cal, ok := cals[id]
			if !ok {
				continue
			}
			t := out[id]
			switch Resolution(res) {
			case Year:
				t.Total.add(kind, &s)
				if ys, _ := cal.Year(now); ys == bucket {
					t.Year.add(kind, &s)
				}
			case Month:
				if ms, _ := cal.Month(now); ms == bucket {
					t.Month.add(kind, &s)
				}
			case Day:
				if ds, _ := cal.Day(now); ds == bucket {
					t.Today.add(kind, &s)
				}
			}
			out[id] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
	}
	// lifetime: the devices' opening counters and what was recorded since
	open, err := r.StationOpenings(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	for id, f := range open {
		if _, ok := cals[id]; ok {
			t := out[id]
			t.Total.sum(f)
			out[id] = t
		}
	}
	return out, nil
}

// FleetTotals sums StationTotals over the stations, counting a sub-station only when its
// parent is not in the list (the parent's totals include it).
func (r *Reader) FleetTotals(ctx context.Context, stationIDs []int64) (Totals, error) {
	parents := map[int64]int64{}
	rows, err := r.db.Query(ctx, "SELECT id, parent_id FROM stations")
	if err != nil {
		return Totals{}, fmt.Errorf("telemetry: unable to read stations: %w", err)
	}
	for rows.Next() {
		var id int64
		var p sql.NullInt64
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return Totals{}, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
		parents[id] = p.Int64
	}
	rows.Close()
	in := map[int64]bool{}
	for _, id := range stationIDs {
		in[id] = true
	}
	var top []int64
	for _, id := range stationIDs {
		covered := false
		for p, n := parents[id], 0; p != 0 && n < 16; p, n = parents[p], n+1 {
			if in[p] {
				covered = true
				break
			}
		}
		if !covered {
			top = append(top, id)
		}
	}
	per, err := r.StationTotals(ctx, top)
	if err != nil {
		return Totals{}, err
	}
	var t Totals
	for _, s := range per {
		t.Today.sum(s.Today)
		t.Month.sum(s.Month)
		t.Year.sum(s.Year)
		t.Total.sum(s.Total)
	}
	return t, nil
}

func (r *Reader) stationCalendars(ctx context.Context, ids []int64) (map[int64]*Calendar, error) {
	out := make(map[int64]*Calendar, len(ids))
	for _, chunk := range chunks(ids, 400) {
		rows, err := r.db.Query(ctx, "SELECT id, timezone FROM stations WHERE id IN ("+placeholders(len(chunk))+")", int64Args(chunk)...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
		for rows.Next() {
			var id int64
			var tz string
			if err := rows.Scan(&id, &tz); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
			}
			out[id] = CalendarFor(tz)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read stations: %w", err)
		}
	}
	return out, nil
}

// StationPowerCurve returns a station's PV power (sum over its inverters, sub-stations
// included) as 5-minute averages over one local day, in kW: [[unixMillis, kW], …].
// localDay's year, month and day name the day in the station's timezone.
func (r *Reader) StationPowerCurve(ctx context.Context, stationID int64, localDay time.Time) ([][2]float64, error) {
	return r.StationCurve(ctx, stationID, "inverter", localDay)
}

// StationCurve is StationPowerCurve for any device kind (batteries and meters: signed).
func (r *Reader) StationCurve(ctx context.Context, stationID int64, kind string, localDay time.Time) ([][2]float64, error) {
	return r.StationCurveWith(ctx, stationID, kind, localDay, nil)
}

// Cutoff answers CurveCutoff from elsewhere (the fleet state's latest samples): ok false
// when it cannot.
type Cutoff func(ctx context.Context, stationID int64, kind string, start, end int64) (cutoff int64, ok bool, err error)

// StationCurveWith is StationCurve with the curve's cutoff from cut when it answers.
func (r *Reader) StationCurveWith(ctx context.Context, stationID int64, kind string, localDay time.Time, cut Cutoff) ([][2]float64, error) {
	cals, err := r.stationCalendars(ctx, []int64{stationID})
	if err != nil {
		return nil, err
	}
	cal, ok := cals[stationID]
	if !ok {
		return nil, store.ErrNotFound
	}
	start, end := cal.LocalDate(localDay)
	var slots []byte
	err = r.db.QueryRow(ctx, "SELECT slots FROM telemetry_station_rollups WHERE station_id = ? AND kind = ? AND res = ? AND bucket = ?",
		stationID, kind, int(Day), start).Scan(&slots)
	if errors.Is(err, sql.ErrNoRows) {
		return [][2]float64{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
	}
	d := newDayAcc(start, end, true)
	if err := unpackSlots(slots, d.slots); err != nil {
		return nil, err
	}
	var cutoff int64
	ok = false
	if cut != nil {
		if cutoff, ok, err = cut(ctx, stationID, kind, start, end); err != nil {
			return nil, err
		}
	}
	if !ok {
		if cutoff, err = r.CurveCutoff(ctx, stationID, kind, start, end); err != nil {
			return nil, err
		}
	}
	out := make([][2]float64, 0, len(d.slots))
	for i, v := range d.slots {
		if !math.IsNaN(v) && start+int64(i+1)*slotMs <= cutoff {
			out = append(out, [2]float64{float64(start + int64(i)*slotMs), v * float64(hourMs/slotMs)})
		}
	}
	return out, nil
}

// liveWindow is how far behind the station's newest sample a device may be and still count
// as reporting (three 5-minute intervals): one that has gone quiet does not hold the curve back.
const liveWindow = 15 * 60 * 1000

// CurveCutoff is the end of the part of a day's curve every reporting device has covered.
// A slot's energy is integrated between each device's samples, so the slots after the
// oldest of the reporting devices' latest samples are still open: drawn, they would show a
// false drop at the end of today's curve. A finished day's cutoff is its end.
func (r *Reader) CurveCutoff(ctx context.Context, stationID int64, kind string, start, end int64) (int64, error) {
	typ, pos := kind, ""
	if t, p, ok := strings.Cut(kind, ":"); ok {
		typ, pos = t, p
	}
	q := `SELECT l.ts FROM telemetry_latest l JOIN devices d ON d.id = l.device_id
		WHERE d.parent_id IS NULL AND d.type = ? AND l.ts >= ?
		AND (d.station_id = ? OR d.station_id IN (SELECT id FROM stations WHERE parent_id = ?))`
	args := []any{typ, start, stationID, stationID}
	if pos != "" {
		q += " AND d.meter_position = ?"
		args = append(args, pos)
	}
	rows, err := r.db.Query(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
	}
	defer rows.Close()
	var ts []int64
	newest := int64(math.MinInt64)
	for rows.Next() {
		var t int64
		if err := rows.Scan(&t); err != nil {
			return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
		}
		ts = append(ts, t)
		newest = max(newest, t)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("telemetry: unable to read the latest samples: %w", err)
	}
	return CutoffOf(ts, newest, end), nil
}

// CutoffOf is the cutoff of a day [start, end) whose reporting devices' latest samples
// are ts (each at or after start), newest the latest of them: the oldest of those within
// liveWindow of the newest, or end when none is before it.
func CutoffOf(ts []int64, newest, end int64) int64 {
	cutoff := end
	for _, t := range ts {
		if t >= newest-liveWindow {
			cutoff = min(cutoff, t)
		}
	}
	return cutoff
}

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
