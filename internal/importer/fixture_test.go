package importer

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fleet is a small organisation: a station in Berlin with three inverters.
type fleet struct {
	db      *store.DB
	org     int64
	station int64
	devs    []int64
	sns     []string
}

func newFleet(t testing.TB, db *store.DB) *fleet {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UnixMilli()
	f := &fleet{db: db}
	var err error
	if f.org, err = db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Import Org", now); err != nil {
		t.Fatal(err)
	}
	if f.station, err = db.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, f.org, "Import Plant", "Europe/Berlin", 30, now, now); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		sn := fmt.Sprintf("INV-%d", i)
		id, err := db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, component_capacity_kwp,
			created_at, updated_at) VALUES (?, ?, ?, ?, 'inverter', 10, 10, ?, ?)`, f.org, f.station, "Inverter "+sn, sn, now, now)
		if err != nil {
			t.Fatal(err)
		}
		f.devs = append(f.devs, id)
		f.sns = append(f.sns, sn)
	}
	return f
}

// history makes days of 5-minute samples for the fleet's devices from (a local midnight):
// power (W) on a sun curve, its per-interval energy (Wh) and the counter it adds up to.
// It answers the CSV (time in Berlin local time, interval energy) and the same samples
// with the counter, in time order.
func (f *fleet) history(from time.Time, days int) (string, []telemetry.Sample) {
	var b strings.Builder
	b.WriteString("Time;Inverter SN;AC Power (W);Yield (Wh);Irradiance (W/m2)\n")
	loc, _ := time.LoadLocation("Europe/Berlin")
	counter := make([]float64, len(f.devs))
	var out []telemetry.Sample
	for t := from; t.Before(from.AddDate(0, 0, days)); t = t.Add(5 * time.Minute) {
		lt := t.In(loc)
		h := float64(lt.Hour()) + float64(lt.Minute())/60
		sun := math.Max(0, math.Sin((h-6)/14*math.Pi))
		for i, id := range f.devs {
			w := math.Round(sun * 8000 * (1 - 0.1*float64(i)))
			wh := math.Round(w * 5 / 60)
			counter[i] += wh / 1000
			irr := math.Round(sun * 900)
			fmt.Fprintf(&b, "%s;%s;%s;%s;%g\n", lt.Format("02.01.2006 15:04"), f.sns[i],
				strings.Replace(fmt.Sprintf("%g", w), ".", ",", 1), strings.Replace(fmt.Sprintf("%g", wh), ".", ",", 1), irr)
			s := telemetry.Sample{DeviceID: id, Time: t, PowerKW: w / 1000, EnergyKWh: counter[i], IrradianceWm2: irr}
			if w > 0 {
				s.Status = telemetry.StatusRunning
			}
			out = append(out, s)
		}
	}
	return b.String(), out
}

// figures dumps every roll-up row and latest counter, numbers rounded, one line each.
func figures(t testing.TB, db *store.DB) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, q := range []string{
		`SELECT 'd', device_id, res, bucket, energy_kwh, energy2_kwh, power_kwh, COALESCE(max_power_kw, -1), samples, irradiation_kwh_m2, ref_energy_kwh, online_min FROM telemetry_device_rollups`,
		`SELECT kind, station_id, res, bucket, energy_kwh, energy2_kwh, power_kwh, COALESCE(max_power_kw, -1), samples, irradiation_kwh_m2, ref_energy_kwh, online_min FROM telemetry_station_rollups`,
		`SELECT 'latest', device_id, 0, ts, energy_kwh, energy2_kwh, power_kw, 0, 0, 0, 0, 0 FROM telemetry_latest`,
	} {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var kind string
			var id, res, bucket int64
			v := make([]float64, 8)
			if err := rows.Scan(&kind, &id, &res, &bucket, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]); err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("%s %d %d %s", kind, id, res, time.UnixMilli(bucket).UTC().Format(time.RFC3339))
			for _, x := range v {
				line += fmt.Sprintf(" %.4f", round4(x))
			}
			out = append(out, line)
		}
		rows.Close()
	}
	// the devices' hours (energy and power-energy per hour), rounded like the rest
	ids, err := store.IDs(ctx, db, "SELECT id FROM devices")
	if err != nil {
		t.Fatal(err)
	}
	hours, err := telemetry.NewReader(db, telemetry.Options{}).DeviceRollups(ctx, ids, telemetry.Hour,
		time.Unix(0, 0), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for id, pts := range hours {
		for _, p := range pts {
			out = append(out, fmt.Sprintf("hour %d %s %.4f %.4f", id, p.Start.UTC().Format(time.RFC3339), round4(p.Stats.EnergyKWh), round4(p.Stats.PowerKWh)))
		}
	}
	sort.Strings(out)
	return out
}

func diffFigures(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d roll-up rows, want %d", len(got), len(want))
	}
	n := 0
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
			if n++; n > 8 {
				return
			}
		}
	}
}

// csvOpener opens files held in memory, by id.
func csvOpener(files map[int64]string) Opener {
	return func(_ context.Context, f FileRef) (RowReader, int64, error) {
		rr, err := NewCSV(strings.NewReader(files[f.ID]))
		return rr, int64(len(files[f.ID])), err
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// openLike opens a second fresh database of db's dialect.
func openLike(t *testing.T, db *store.DB) *store.DB {
	if db.Dialect == store.Postgres {
		return storetest.Postgres(t)
	}
	return storetest.SQLite(t)
}

// round4 rounds to 4 decimals, -0 to 0 (sums in another order differ in the last bits).
func round4(x float64) float64 {
	r := math.Round(x*1e4) / 1e4
	if r == 0 {
		return 0
	}
	return r
}
