package main

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/bench/internal/ingestgen"
	"github.com/helio-energy/helio/internal/telemetry"
)

// BenchmarkWrite measures the write path alone (no transport): batches of 2000 samples,
// 100 consecutive ones from each of 20 devices, the shape of an MQTT window.
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	db := openDB(b.TempDir(), "write")
	defer db.Close()
	f := newFleet(ctx, db, *nDevices)
	w := telemetry.NewWriter(db, telemetry.Options{})
	start, k := steps()
	var batches [][]telemetry.Sample
	for from := 0; from < k; from += 100 {
		for d0 := 0; d0 < len(f.devices); d0 += 20 {
			var batch []telemetry.Sample
			for i := d0; i < d0+20; i++ {
				for step := from; step < min(from+100, k); step++ {
					s := ingestgen.Sample(start, i, step)
					s.DeviceID = f.devices[i]
					batch = append(batch, s)
				}
			}
			batches = append(batches, batch)
		}
	}
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		if i >= len(batches) {
			b.Skip("not enough samples for b.N; raise -samples")
		}
		res, err := w.Write(ctx, "bench", batches[i])
		if err != nil || res.Accepted != len(batches[i]) {
			b.Fatal(res, err)
		}
		n += len(batches[i])
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
	b.ReportMetric(float64(n*fields)/b.Elapsed().Seconds(), "points/s")
}
