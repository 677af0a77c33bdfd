package sim

import (
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// StepAll steps every station from start until end (unix ns), step by step, on workers
// goroutines, and returns the samples of the devices that have ids, station by station
// in steppers' order (each station's in time order).
func StepAll(steppers []*StationStepper, workers int, start time.Time, end int64, step time.Duration) []telemetry.Sample {
	parts := make([][]telemetry.Sample, len(steppers))
	next := make(chan int, len(steppers))
	for i := range steppers {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var out []telemetry.Sample
				for t := start; t.UnixNano() < end; t = t.Add(step) {
					steppers[i].Step(t, func(_ string, smp telemetry.Sample) {
						if smp.DeviceID != 0 {
							out = append(out, smp)
						}
					})
				}
				parts[i] = out
			}
		}()
	}
	wg.Wait()
	var batch []telemetry.Sample
	for _, p := range parts {
		batch = append(batch, p...)
	}
	return batch
}
