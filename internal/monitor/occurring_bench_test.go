package monitor_test

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// BenchmarkOccurringAlarms times the calls that flag every visible station's occurring
// alarms on the demo fleet grown by 1,000 stations of three sub-stations each (4,000
// more stations, no devices), with 3,600 occurring and 8,400 recovered alarms among
// them: go test ./internal/monitor -run - -bench OccurringAlarms -benchtime 20x
func BenchmarkOccurringAlarms(b *testing.B) {
	e := apitest.NewWithFleet(b)
	ctx := context.Background()
	now := time.Now().UnixMilli()
	var org int64
	if err := e.DB.QueryRow(ctx, "SELECT org_id FROM users WHERE username = 'admin'").Scan(&org); err != nil {
		b.Fatal(err)
	}
	err := e.DB.InTx(ctx, func(tx *store.Tx) error {
		n := 0
		for i := range 1000 {
			top, err := tx.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, created_at, updated_at) VALUES (?, ?, 'UTC', 0, 0)`, org, fmt.Sprintf("Bench %04d", i))
			if err != nil {
				return err
			}
			for j := range 4 {
				st := top
				if j > 0 {
					if st, err = tx.Insert(ctx, `INSERT INTO stations (org_id, parent_id, name, timezone, created_at, updated_at) VALUES (?, ?, ?, 'UTC', 0, 0)`,
						org, top, fmt.Sprintf("Bench %04d-%d", i, j)); err != nil {
						return err
					}
				}
				for range 3 {
					n++
					status := 2
					if n%10 < 3 {
						status = 1
					}
					if _, err := tx.Exec(ctx, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, description,
						start_at, occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, ?, ?, ?, 0, 0, 0)`,
						org, st, status, fmt.Sprintf("alarm %d", n), now-int64(n)*60000); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.DB.Exec(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
	if err := e.Server.Fleet.Build(ctx); err != nil {
		b.Fatal(err)
	}
	occurring, recovered := e.Count(b, "SELECT COUNT(*) FROM alarms WHERE status = 1"), e.Count(b, "SELECT COUNT(*) FROM alarms WHERE status = 2")
	b.Logf("%d stations, %d occurring alarms, %d recovered", e.Count(b, "SELECT COUNT(*) FROM stations"), occurring, recovered)
	// the memory of the alarm index alone: a state that reads nothing else
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	index := fleet.New(e.DB, telemetry.NewWriter(e.DB, telemetry.Options{}), nil)
	if err := index.ReloadAlarms(ctx); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.Logf("alarm index: %d alarms occurring or started in the last 48 h, %.0f KiB of heap", e.Count(b, "SELECT COUNT(*) FROM alarms WHERE start_at >= ? OR status = 1",
		time.Now().Add(-48*time.Hour).UnixMilli()), float64(after.HeapAlloc-before.HeapAlloc)/1024)
	runtime.KeepAlive(index)
	for _, u := range []string{"/v2/site/summary", "/v2/site/list?alarmStatus=1", "/v2/summary/projectranking"} {
		b.Run(u, func(b *testing.B) {
			loopCPU(b, func() {
				if r := e.Do(b, apitest.Scenario{Method: "GET", URL: u, As: "admin"}); r.Status != 200 {
					b.Fatal(r.Body)
				}
			})
		})
	}
}

// loopCPU runs fn b.N times and reports the process's CPU time (user and system, every
// thread: the call and the collector) per run beside the wall time.
func loopCPU(b *testing.B, fn func()) {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	n, start := 0, cpu()
	for b.Loop() {
		fn()
		n++
	}
	b.ReportMetric(float64(cpu()-start)/float64(n)/1e6, "cpu-ms/op")
}
