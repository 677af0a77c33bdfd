package crashtest

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The brute force recomputes every day, month and year roll-up of every device and
// station from the stored raw samples, bucket by bucket, following docs/telemetry.md:
// counter energy from telemetry.StepCounter spread evenly over its interval, power and
// irradiance integrated by trapezoids between samples at most maxGap apart, minutes
// online and in fault, and the per-sample counts and sums.

const maxGap = int64(30 * 60 * 1000) // telemetry.DefaultMaxGap, in ms

type bucketKey struct {
	id    int64
	kind  string // "" for a device
	res   telemetry.Resolution
	start int64
}

// stats are the additive roll-up columns the brute force checks.
type stats struct {
	energy, energy2, powerKWh, samples, irrSum, irradiation, refEnergy, faultMin, onlineMin, tempSum, acVoltageSum float64
}

var statNames = []string{"energy_kwh", "energy2_kwh", "power_kwh", "samples", "irradiance_sum", "irradiation_kwh_m2",
	"ref_energy_kwh", "fault_min", "online_min", "temp_sum", "ac_voltage_sum"}

func (s *stats) fields() []*float64 {
	return []*float64{&s.energy, &s.energy2, &s.powerKWh, &s.samples, &s.irrSum, &s.irradiation, &s.refEnergy, &s.faultMin,
		&s.onlineMin, &s.tempSum, &s.acVoltageSum}
}

type rawSample struct {
	t                                 int64
	power, energy, energy2, irr, temp float64
	acV                               float64
	status                            int
}

type deviceRow struct {
	id, station int64
	parentDev   bool
	kind        string
	boundKW     float64
	kwp         float64
}

type stationRow struct {
	parent int64
	zone   string
	kwp    float64
}

func isFault(status int) bool {
	return status == telemetry.StatusFault || status == telemetry.StatusOverTemp || status == telemetry.StatusGridFault
}

// bruteForce reads the raw samples and computes the expected roll-ups.
func bruteForce(ctx context.Context, t *testing.T, db *store.DB) map[bucketKey]*stats {
	t.Helper()
	stations := map[int64]stationRow{}
	rows, err := db.Query(ctx, "SELECT id, parent_id, timezone, capacity_kwp FROM stations")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var parent sql.NullInt64
		var s stationRow
		if err := rows.Scan(&id, &parent, &s.zone, &s.kwp); err != nil {
			t.Fatal(err)
		}
		s.parent = parent.Int64
		stations[id] = s
	}
	rows.Close()
	var devs []deviceRow
	rows, err = db.Query(ctx, "SELECT id, station_id, parent_id, type, meter_position, rated_power_kw, component_capacity_kwp FROM devices")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d deviceRow
		var parent sql.NullInt64
		var typ, pos string
		var rated float64
		if err := rows.Scan(&d.id, &d.station, &parent, &typ, &pos, &rated, &d.kwp); err != nil {
			t.Fatal(err)
		}
		d.parentDev, d.kind, d.boundKW = parent.Valid, typ, rated
		if typ == "meter" && pos != "" {
			d.kind = "meter:" + pos
		}
		if d.boundKW <= 0 {
			d.boundKW = stations[d.station].kwp
		}
		devs = append(devs, d)
	}
	rows.Close()

	out := map[bucketKey]*stats{}
	get := func(k bucketKey) *stats {
		s := out[k]
		if s == nil {
			s = &stats{}
			out[k] = s
		}
		return s
	}
	type owner struct {
		id   int64
		kind string
		cal  *telemetry.Calendar
	}
	// buckets of an owner at a resolution overlapping [a, b); the one holding b−1 when empty
	buckets := func(o owner, res telemetry.Resolution, a, b int64) [][2]int64 {
		if b <= a {
			s, e := o.cal.Bucket(res, b-1)
			return [][2]int64{{s, e}}
		}
		var list [][2]int64
		for x := a; x < b; {
			s, e := o.cal.Bucket(res, x)
			list = append(list, [2]int64{s, e})
			x = e
		}
		return list
	}
	lerp := func(a, b int64, va, vb float64, x int64) float64 {
		return va + (vb-va)*float64(x-a)/float64(b-a)
	}
	for _, d := range devs {
		samples := loadSamples(ctx, t, db, d.id)
		owners := []owner{{id: d.id, cal: telemetry.CalendarFor(stations[d.station].zone)}}
		if !d.parentDev {
			for id, n := d.station, 0; id != 0 && n < 16; n++ {
				owners = append(owners, owner{id: id, kind: d.kind, cal: telemetry.CalendarFor(stations[id].zone)})
				id = stations[id].parent
			}
		}
		midnight := owners[0].cal.Midnight
		var c1, c2 telemetry.CounterState
		for i, c := range samples {
			for _, o := range owners {
				for res := telemetry.Day; res <= telemetry.Year; res++ {
					s, _ := o.cal.Bucket(res, c.t)
					st := get(bucketKey{o.id, o.kind, res, s})
					st.samples++
					st.irrSum += c.irr
					st.tempSum += c.temp
					st.acVoltageSum += c.acV
				}
			}
			if i == 0 {
				c1 = telemetry.CounterState{Ref: c.energy, RefT: c.t}
				c2 = telemetry.CounterState{Ref: c.energy2, RefT: c.t}
				continue
			}
			p := samples[i-1]
			var s1, s2 telemetry.CounterStep
			c1, s1 = telemetry.StepCounter(c1, c.energy, c.t, d.boundKW, midnight)
			c2, s2 = telemetry.StepCounter(c2, c.energy2, c.t, d.boundKW, midnight)
			for _, o := range owners {
				for res := telemetry.Day; res <= telemetry.Year; res++ {
					for n, step := range []telemetry.CounterStep{s1, s2} {
						if step.EnergyKWh == 0 {
							continue
						}
						for _, b := range buckets(o, res, step.From, c.t) {
							share := 1.0
							if c.t > step.From {
								share = float64(min(c.t, b[1])-max(step.From, b[0])) / float64(c.t-step.From)
							}
							st := get(bucketKey{o.id, o.kind, res, b[0]})
							if n == 0 {
								st.energy += step.EnergyKWh * share
							} else {
								st.energy2 += step.EnergyKWh * share
							}
						}
					}
					if c.t-p.t > maxGap {
						continue
					}
					for _, b := range buckets(o, res, p.t, c.t) {
						a, z := max(p.t, b[0]), min(c.t, b[1])
						st := get(bucketKey{o.id, o.kind, res, b[0]})
						h := float64(z-a) / 3.6e6
						st.powerKWh += (lerp(p.t, c.t, p.power, c.power, a) + lerp(p.t, c.t, p.power, c.power, z)) / 2 * h
						irr := (lerp(p.t, c.t, p.irr, c.irr, a) + lerp(p.t, c.t, p.irr, c.irr, z)) / 2 * h / 1000
						st.irradiation += irr
						st.refEnergy += irr * d.kwp
						st.onlineMin += float64(z-a) / 60000
						if isFault(p.status) {
							st.faultMin += float64(z-a) / 60000
						}
					}
				}
			}
		}
	}
	return out
}

func loadSamples(ctx context.Context, t *testing.T, db *store.DB, device int64) []rawSample {
	t.Helper()
	// the raw samples as stored: rows, and the days sealed into blocks
	all, err := telemetry.StoredSamples(ctx, db, device)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]rawSample, 0, len(all))
	for _, x := range all {
		out = append(out, rawSample{t: x.Time.UnixMilli(), power: x.PowerKW, energy: x.EnergyKWh, energy2: x.Energy2KWh,
			irr: x.IrradianceWm2, temp: x.TempC, acV: x.ACVoltageV, status: x.Status})
	}
	return out
}

// storedRollups reads every day, month and year row.
func storedRollups(ctx context.Context, t *testing.T, db *store.DB) map[bucketKey]*stats {
	t.Helper()
	out := map[bucketKey]*stats{}
	cols := "energy_kwh, energy2_kwh, power_kwh, samples, irradiance_sum, irradiation_kwh_m2, ref_energy_kwh, fault_min, online_min, temp_sum, ac_voltage_sum"
	for _, q := range []string{
		"SELECT device_id, '', res, bucket, " + cols + " FROM telemetry_device_rollups",
		"SELECT station_id, kind, res, bucket, " + cols + " FROM telemetry_station_rollups",
	} {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k bucketKey
			var res int
			var s stats
			dest := []any{&k.id, &k.kind, &res, &k.start}
			for _, f := range s.fields() {
				dest = append(dest, f)
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				t.Fatal(err)
			}
			k.res = telemetry.Resolution(res)
			out[k] = &s
		}
		rows.Close()
	}
	return out
}

// near compares a stored figure with the brute force's. The sums that only ever give
// averages (irradiance, temperature, voltages) are kept as float32 per hour, so they
// carry float32's relative precision; everything else float64's.
func near(a, b float64, averageOnly bool) bool {
	rel := 1e-9
	if averageOnly {
		rel = 1e-6
	}
	return math.Abs(a-b) <= 1e-6+rel*math.Max(math.Abs(a), math.Abs(b))
}

// compareRollups lists every bucket whose stored figures differ from the brute force.
func compareRollups(want, got map[bucketKey]*stats) []string {
	var diffs []string
	keys := map[bucketKey]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var order []bucketKey
	for k := range keys {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.id != b.id {
			return a.id < b.id
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.res != b.res {
			return a.res < b.res
		}
		return a.start < b.start
	})
	zero := &stats{}
	for _, k := range order {
		w, g := want[k], got[k]
		if w == nil {
			w = zero
		}
		if g == nil {
			g = zero
		}
		wf, gf := w.fields(), g.fields()
		for i := range wf {
			if !near(*wf[i], *gf[i], statNames[i] == "irradiance_sum" || statNames[i] == "temp_sum" || statNames[i] == "ac_voltage_sum") {
				owner := fmt.Sprintf("device %d", k.id)
				if k.kind != "" {
					owner = fmt.Sprintf("station %d (%s)", k.id, k.kind)
				}
				diffs = append(diffs, fmt.Sprintf("%s, %s from %d: %s stored %v, from the samples %v", owner, k.res, k.start, statNames[i], *gf[i], *wf[i]))
			}
		}
	}
	return diffs
}
