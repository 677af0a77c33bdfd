package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/helio-energy/helio/internal/store"
)

// Stored roll-ups: day rows (with their hours, and for stations their 5-minute slots,
// packed) are read, merged with the changes and written back whole; month and year rows
// are updated by adding the changes. A station's power extremes are not additive: when a
// day's extremes move inwards, its month's and year's are recomputed from their children.

const statCols = "energy_kwh, energy2_kwh, power_kwh, max_power_kw, min_power_kw, samples, irradiance_sum, irradiation_kwh_m2, " +
	"ref_energy_kwh, fault_min, online_min, dc_voltage_sum, dc_current_sum, ac_voltage_sum, frequency_sum, temp_sum, soc_sum"

type periodKey struct {
	id    int64
	kind  string // "" for devices
	res   Resolution
	start int64
}

type periodAcc struct {
	end       int64
	delta     Stats
	recompute bool // a station period whose extremes must be recomputed from its children
}

type periods struct {
	m     map[periodKey]*periodAcc
	order []periodKey
}

func newPeriods() *periods { return &periods{m: map[periodKey]*periodAcc{}} }

func (p *periods) add(k periodKey, end int64, s *Stats, recompute bool) {
	a := p.m[k]
	if a == nil {
		a = &periodAcc{end: end, delta: emptyStats()}
		p.m[k] = a
		p.order = append(p.order, k)
	}
	a.delta.add(s)
	a.recompute = a.recompute || recompute
}

func nullable(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

func statArgs(s *Stats) []any {
	return []any{s.EnergyKWh, s.Energy2KWh, s.PowerKWh, nullable(s.MaxPowerKW), nullable(s.MinPowerKW), s.Samples,
		s.IrradianceSum, s.IrradiationKWhM2, s.RefEnergyKWh, s.FaultMin, s.OnlineMin,
		s.DCVoltageSum, s.DCCurrentSum, s.ACVoltageSum, s.FrequencySum, s.TempSum, s.SOCSum}
}

// statScan scans the statCols into s.
func statScan(s *Stats) (dest []any, finish func()) {
	var mx, mn sql.NullFloat64
	dest = []any{&s.EnergyKWh, &s.Energy2KWh, &s.PowerKWh, &mx, &mn, &s.Samples,
		&s.IrradianceSum, &s.IrradiationKWhM2, &s.RefEnergyKWh, &s.FaultMin, &s.OnlineMin,
		&s.DCVoltageSum, &s.DCCurrentSum, &s.ACVoltageSum, &s.FrequencySum, &s.TempSum, &s.SOCSum}
	return dest, func() {
		s.MaxPowerKW, s.MinPowerKW = math.NaN(), math.NaN()
		if mx.Valid {
			s.MaxPowerKW = mx.Float64
		}
		if mn.Valid {
			s.MinPowerKW = mn.Float64
		}
	}
}

// readDays reads the stored day rows for the given keys (all devices, or all stations).
func readDays(ctx context.Context, tx *store.Tx, keys []dayKey, station bool) (map[dayKey]*dayAcc, error) {
	out := map[dayKey]*dayAcc{}
	if len(keys) == 0 {
		return out, nil
	}
	want := make(map[dayKey]bool, len(keys))
	idSet := map[int64]bool{}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, k := range keys {
		want[k] = true
		idSet[k.id] = true
		lo, hi = min(lo, k.start), max(hi, k.start)
	}
	ids := make([]int64, 0, len(idSet))
	for id := range idSet {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, chunk := range chunks(ids, 400) {
		q := "SELECT device_id, '', bucket, bucket_end, hours, NULL FROM telemetry_device_rollups WHERE res = 2 AND device_id IN (%s) AND bucket >= ? AND bucket <= ?"
		if station {
			q = "SELECT station_id, kind, bucket, bucket_end, hours, slots FROM telemetry_station_rollups WHERE res = 2 AND station_id IN (%s) AND bucket >= ? AND bucket <= ?"
		}
		rows, err := queryList(ctx, tx, q, chunk, lo, hi)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
		for rows.Next() {
			var k dayKey
			var end int64
			var hours, slots []byte
			if err := rows.Scan(&k.id, &k.kind, &k.start, &end, &hours, &slots); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
			}
			if !want[k] {
				continue
			}
			d := newDayAcc(k.start, end, station)
			if err := unpackHours(hours, d.hours); err != nil {
				rows.Close()
				return nil, err
			}
			if err := unpackSlots(slots, d.slots); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = d
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
		}
	}
	return out, nil
}

// mergeDays merges the day changes of acc into the stored rows, writes them, and adds the
// changes to the months and years in per; it drops the packed months the old days belong
// to (see packed.go), now being the writer's clock. stored, when not nil, says which days may have
// a stored row (the others are not read).
func mergeDays(ctx context.Context, tx *store.Tx, acc *accum, per *periods, stored func(dayKey) bool, now int64) (int, error) {
	if err := forgetPacked(ctx, tx, acc, now); err != nil {
		return 0, err
	}
	var devKeys, stKeys []dayKey
	for _, k := range acc.order {
		if k.kind == "" {
			devKeys = append(devKeys, k)
		} else {
			stKeys = append(stKeys, k)
		}
	}
	n := 0
	for _, group := range []struct {
		keys    []dayKey
		station bool
	}{{devKeys, false}, {stKeys, true}} {
		read := group.keys
		if stored != nil {
			read = nil
			for _, k := range group.keys {
				if stored(k) {
					read = append(read, k)
				}
			}
		}
		have, err := readDays(ctx, tx, read, group.station)
		if err != nil {
			return n, err
		}
		w := newDayWriter(ctx, tx, group.station)
		for _, k := range group.keys {
			delta := acc.days[k]
			day := have[k]
			oldTotal := emptyStats()
			if day == nil {
				day = newDayAcc(delta.start, delta.end, group.station)
			} else {
				oldTotal = day.total()
			}
			day.merge(delta)
			if group.station {
				day.finishStation()
			}
			total := day.total()
			if err := w.add(k, day, &total); err != nil {
				return n, err
			}
			n++
			change := delta.total()
			change.MaxPowerKW, change.MinPowerKW = total.MaxPowerKW, total.MinPowerKW
			inwards := (!math.IsNaN(oldTotal.MaxPowerKW) && !(total.MaxPowerKW >= oldTotal.MaxPowerKW)) ||
				(!math.IsNaN(oldTotal.MinPowerKW) && !(total.MinPowerKW <= oldTotal.MinPowerKW))
			cal := delta.cal
			ms, me := cal.Month(k.start)
			ys, ye := cal.Year(k.start)
			per.add(periodKey{k.id, k.kind, Month, ms}, me, &change, inwards)
			per.add(periodKey{k.id, k.kind, Year, ys}, ye, &change, inwards)
		}
		if err := w.flush(); err != nil {
			return n, err
		}
	}
	return n, nil
}

type dayWriter struct{ b *bulk }

func newDayWriter(ctx context.Context, tx *store.Tx, station bool) *dayWriter {
	cols := strings.Split(statCols, ", ")
	set := make([]string, 0, len(cols)+3)
	for _, c := range append(cols, "bucket_end", "hours") {
		set = append(set, c+" = excluded."+c)
	}
	if station {
		set = append(set, "slots = excluded.slots")
		return &dayWriter{newBulk(ctx, tx, "INSERT INTO telemetry_station_rollups (station_id, kind, res, bucket, bucket_end, "+statCols+", hours, slots) VALUES ",
			" ON CONFLICT (station_id, kind, res, bucket) DO UPDATE SET "+strings.Join(set, ", "), 24, 32)}
	}
	return &dayWriter{newBulk(ctx, tx, "INSERT INTO telemetry_device_rollups (device_id, res, bucket, bucket_end, "+statCols+", hours) VALUES ",
		" ON CONFLICT (device_id, res, bucket) DO UPDATE SET "+strings.Join(set, ", "), 22, 32)}
}

func (w *dayWriter) add(k dayKey, d *dayAcc, total *Stats) error {
	args := make([]any, 0, 24)
	args = append(args, k.id)
	if k.kind != "" {
		args = append(args, k.kind)
	}
	args = append(args, int(Day), d.start, d.end)
	args = append(args, statArgs(total)...)
	args = append(args, packHours(d.hours))
	if k.kind != "" {
		args = append(args, packSlots(d.slots))
	}
	if err := w.b.add(args...); err != nil {
		w.b.flush()
		return fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
	}
	return nil
}

func (w *dayWriter) flush() error {
	if err := w.b.flush(); err != nil {
		return fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
	}
	return nil
}

// writePeriods adds the month and year changes to their rows and recomputes the station
// extremes that moved inwards.
func writePeriods(ctx context.Context, tx *store.Tx, per *periods) (int, error) {
	cols := strings.Split(statCols, ", ")
	set := func(table string) string {
		parts := make([]string, 0, len(cols))
		for _, c := range cols {
			switch c {
			case "max_power_kw":
				parts = append(parts, fmt.Sprintf("%[2]s = CASE WHEN %[1]s.%[2]s IS NULL OR excluded.%[2]s > %[1]s.%[2]s THEN excluded.%[2]s ELSE %[1]s.%[2]s END", table, c))
			case "min_power_kw":
				parts = append(parts, fmt.Sprintf("%[2]s = CASE WHEN %[1]s.%[2]s IS NULL OR excluded.%[2]s < %[1]s.%[2]s THEN excluded.%[2]s ELSE %[1]s.%[2]s END", table, c))
			default:
				parts = append(parts, fmt.Sprintf("%[2]s = %[1]s.%[2]s + excluded.%[2]s", table, c))
			}
		}
		return strings.Join(parts, ", ")
	}
	dev := newBulk(ctx, tx, "INSERT INTO telemetry_device_rollups (device_id, res, bucket, bucket_end, "+statCols+") VALUES ",
		" ON CONFLICT (device_id, res, bucket) DO UPDATE SET "+set("telemetry_device_rollups"), 21, 32)
	st := newBulk(ctx, tx, "INSERT INTO telemetry_station_rollups (station_id, kind, res, bucket, bucket_end, "+statCols+") VALUES ",
		" ON CONFLICT (station_id, kind, res, bucket) DO UPDATE SET "+set("telemetry_station_rollups"), 22, 32)
	var recompute []periodKey
	for _, k := range per.order {
		p := per.m[k]
		var err error
		if k.kind == "" {
			err = dev.add(append([]any{k.id, int(k.res), k.start, p.end}, statArgs(&p.delta)...)...)
		} else {
			err = st.add(append([]any{k.id, k.kind, int(k.res), k.start, p.end}, statArgs(&p.delta)...)...)
			if p.recompute {
				recompute = append(recompute, k)
			}
		}
		if err != nil {
			dev.flush()
			st.flush()
			return 0, fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
		}
	}
	if err := dev.flush(); err != nil {
		st.flush()
		return 0, fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
	}
	if err := st.flush(); err != nil {
		return 0, fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
	}
	// months before years: a year's extremes come from its months
	sort.SliceStable(recompute, func(i, j int) bool { return recompute[i].res < recompute[j].res })
	for _, k := range recompute {
		child := k.res - 1
		end := per.m[k].end
		_, err := tx.Exec(ctx, `UPDATE telemetry_station_rollups SET
			max_power_kw = (SELECT MAX(c.max_power_kw) FROM telemetry_station_rollups c WHERE c.station_id = ? AND c.kind = ? AND c.res = ? AND c.bucket >= ? AND c.bucket < ?),
			min_power_kw = (SELECT MIN(c.min_power_kw) FROM telemetry_station_rollups c WHERE c.station_id = ? AND c.kind = ? AND c.res = ? AND c.bucket >= ? AND c.bucket < ?)
			WHERE station_id = ? AND kind = ? AND res = ? AND bucket = ?`,
			k.id, k.kind, int(child), k.start, end, k.id, k.kind, int(child), k.start, end, k.id, k.kind, int(k.res), k.start)
		if err != nil {
			return 0, fmt.Errorf("telemetry: unable to store roll-ups: %w", err)
		}
	}
	return len(per.order), nil
}
