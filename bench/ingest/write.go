package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"sync"
	"syscall"
	"time"

	"github.com/helio-energy/helio/bench/internal/ingestgen"
	"github.com/helio-energy/helio/internal/telemetry"
)

var writeBatch = flag.Int("write-batch", 10, "-only write: messages per write (the MQTT consumer's batch: half of Mosquitto's 20 in flight)")

// benchWrite hands the MQTT run's samples, message by message in the same order, to the
// writer directly, -write-batch messages per write: the write path without a transport
// or a second goroutine, so that its cost can be compared between two builds (and run
// under valgrind --tool=callgrind, whose instruction counts do not depend on the load of
// a shared machine). Only with -only write; not part of make bench's table.
func benchWrite(dir string) {
	ctx := context.Background()
	db := openDB(dir, fmt.Sprintf("write-%d", time.Now().UnixNano()))
	defer db.Close()
	f := newFleet(ctx, db, *nDevices)
	start, k := steps()
	var batches [][]telemetry.Sample
	var cur []telemetry.Sample
	msgs, total := 0, 0
	for from := 0; from < k; from += *perMsg {
		for i, id := range f.devices {
			for step := from; step < min(from+*perMsg, k); step++ {
				s := ingestgen.Sample(start, i, step)
				s.DeviceID = id
				cur = append(cur, s)
			}
			if msgs++; msgs%*writeBatch == 0 {
				batches, cur = append(batches, cur), nil
			}
		}
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	w := telemetry.NewWriter(db, telemetry.Options{})
	// through a batcher, as the MQTT consumer writes: one submission per batch (it is
	// written whole), the roll-ups merged across batches as streaming writes do
	bt := w.NewBatcher("bench", telemetry.BatchOptions{MaxPending: 1})
	var wg sync.WaitGroup
	var mu sync.Mutex
	cpu0, t0 := cpuTime(), time.Now()
	for _, b := range batches {
		wg.Add(1)
		bt.Add(b, func(res telemetry.Result, err error) {
			defer wg.Done()
			if err != nil {
				log.Fatal(err)
			}
			mu.Lock()
			total += res.Accepted
			mu.Unlock()
		})
	}
	wg.Wait()
	waitRolled(w)
	elapsed, cpu := time.Since(t0), cpuTime()-cpu0
	bt.Close()
	if total != *nSamples / *nDevices * *nDevices {
		log.Fatalf("write: %d samples accepted of %d", total, *nSamples / *nDevices * *nDevices)
	}
	fmt.Printf("\nHelio write path on SQLite, no transport — %d devices, %d samples per message, %d messages per write\n\n",
		*nDevices, *perMsg, *writeBatch)
	fmt.Printf("%-10s %8s %11s %12s %14s\n", "samples", "seconds", "samples/s", "points/s", "CPU µs/sample")
	rate := float64(total) / elapsed.Seconds()
	fmt.Printf("%-10d %8.2f %11.0f %12.0f %14.2f\n", total, elapsed.Seconds(), rate, rate*fields, float64(cpu.Microseconds())/float64(total))
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
