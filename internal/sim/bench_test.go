package sim

import (
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// BenchmarkYear simulates a full year of 5-minute samples for the whole demo fleet on
// one goroutine, the back-fill the console runs at first start.
func BenchmarkYear(b *testing.B) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := 365 * 288
	var samples int64
	b.ReportAllocs()
	for b.Loop() {
		s, err := New(DemoFleet(), 42)
		if err != nil {
			b.Fatal(err)
		}
		samples = 0
		emit := func(string, telemetry.Sample) { samples++ }
		for i := range steps {
			s.Step(start.Add(time.Duration(i)*5*time.Minute), emit)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*samples), "ns/sample")
	b.ReportMetric(float64(samples), "samples/year")
}

// BenchmarkYearParallel is BenchmarkYear with the stations spread over two goroutines,
// as the back-fill does on a 2-core machine.
func BenchmarkYearParallel(b *testing.B) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := 365 * 288
	var samples int64
	for b.Loop() {
		s, err := New(DemoFleet(), 42)
		if err != nil {
			b.Fatal(err)
		}
		var counts [2]int64
		var wg sync.WaitGroup
		steppers := s.Steppers()
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var n int64
				emit := func(string, telemetry.Sample) { n++ }
				for i := w; i < len(steppers); i += 2 {
					for k := range steps {
						steppers[i].Step(start.Add(time.Duration(k)*5*time.Minute), emit)
					}
				}
				counts[w] = n
			}()
		}
		wg.Wait()
		samples = counts[0] + counts[1]
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*samples), "ns/sample")
}
