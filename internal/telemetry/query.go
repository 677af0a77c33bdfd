package telemetry

import (
	"context"
	"errors"
	"fmt"
	"math"
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
