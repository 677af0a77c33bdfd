package device_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// BenchmarkSortedDeviceList times the device list at 1,000 stations of 20 devices
// (16 inverters of random array sizes, 2 batteries, 2 meters; every device reporting
// twice today), as admin, a page of 20 among the first five: unsorted (the floor), sorted
// by each column in the steady state, sorted right after a sample changed a device's
// figures (the write itself is not timed), and sorted at the last pages (deep). It reports the p50 and p95 of the calls beside ns/op:
// go test ./internal/device -run - -bench SortedDeviceList -benchtime 200x
func BenchmarkSortedDeviceList(b *testing.B) {
	e := apitest.New(b)
	ctx := context.Background()
	devs := seedLargeFleet(b, e, 1000, 20)
	rng := rand.New(rand.NewPCG(7, 7))
	now := time.Now().UTC().Truncate(time.Minute)
	seq := 0
	change := func() {
		seq++
		id := devs[rng.IntN(len(devs))]
		s := telemetry.Sample{DeviceID: id, Time: now.Add(time.Duration(seq) * time.Millisecond), PowerKW: rng.Float64() * 100,
			EnergyKWh: 1000 + float64(seq), Status: telemetry.StatusRunning, FrequencyHz: 50, ACVoltageV: 230}
		if _, err := e.Server.Writer.Write(ctx, "bench", []telemetry.Sample{s}); err != nil {
			b.Fatal(err)
		}
	}
	calls := []string{"", "todayKwh", "specificYield", "currentPowerKw", "totalKwh"}
	for _, key := range calls {
		for _, mode := range []string{"steady", "changed", "deep"} {
			if key == "" && mode != "steady" || key != "todayKwh" && mode == "deep" {
				continue
			}
			name := "unsorted"
			if key != "" {
				name = key + "/" + mode
			}
			b.Run(name, func(b *testing.B) {
				var took []time.Duration
				i := 0
				for b.Loop() {
					if mode == "changed" {
						b.StopTimer()
						change()
						b.StartTimer()
					}
					page := 1 + i%5
					if mode == "deep" {
						page = 995 + i%5 // the last pages
					}
					u := fmt.Sprintf("/v2/dev/listbytype?page=%d&pageSize=20", page)
					if key != "" {
						u += "&sort=" + key + "&order=" + []string{"desc", "asc"}[i/5%2]
					}
					i++
					t0 := time.Now()
					if r := e.Do(b, apitest.Scenario{Method: "GET", URL: u, As: "admin"}); r.Status != 200 {
						b.Fatal(r.Body)
					}
					took = append(took, time.Since(t0))
				}
				slices.Sort(took)
				b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
			})
		}
	}
}

// seedLargeFleet adds n stations of per devices each to admin's organisation, writes two
// samples of every device today and builds the fleet state; it returns the device ids.
func seedLargeFleet(b *testing.B, e *apitest.Env, n, per int) []int64 {
	ctx := context.Background()
	var org int64
	if err := e.DB.QueryRow(ctx, "SELECT org_id FROM users WHERE username = 'admin'").Scan(&org); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	zones := []string{"UTC", "Asia/Shanghai", "America/Los_Angeles", "Europe/Berlin"}
	var devs []int64
	kinds := map[int64]string{}
	err := e.DB.InTx(ctx, func(tx *store.Tx) error {
		for i := range n {
			st, err := tx.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`,
				org, fmt.Sprintf("Bench %04d", i), zones[i%len(zones)])
			if err != nil {
				return err
			}
			for j := range per {
				typ, pos, count := "inverter", "", []int{0, 20, 40, 60}[rng.IntN(4)]
				switch {
				case j >= per-2:
					typ, pos, count = "meter", "grid", 0
				case j >= per-4:
					typ, count = "battery", 0
				}
				id, err := tx.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, meter_position, rated_power_kw, capacity_kwh,
					component_rated_power_w, component_count, component_capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 50, 100, 450, ?, ?, 0, 0)`,
					org, st, fmt.Sprintf("%s %02d", typ, j), fmt.Sprintf("BENCH-%04d-%02d", i, j), typ, pos, count, float64(count)*450/1000)
				if err != nil {
					return err
				}
				devs = append(devs, id)
				kinds[id] = typ
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e.Server.Writer.Refresh()
	now := time.Now().UTC().Truncate(time.Minute)
	for k, at := range []time.Time{now.Add(-10 * time.Minute), now.Add(-5 * time.Minute)} {
		batch := make([]telemetry.Sample, 0, len(devs))
		for _, id := range devs {
			s := telemetry.Sample{DeviceID: id, Time: at, FrequencyHz: 50, ACVoltageV: 230, Status: telemetry.StatusRunning,
				PowerKW: float64(rng.IntN(50)), EnergyKWh: float64(id%997) + float64(k)*float64(rng.IntN(9))}
			if kinds[id] == "battery" {
				s.SOC = 50
			}
			batch = append(batch, s)
		}
		for c := range slices.Chunk(batch, 5000) {
			if _, err := e.Server.Writer.Write(ctx, "bench", c); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := e.Server.Fleet.Build(ctx); err != nil {
		b.Fatal(err)
	}
	return devs
}
