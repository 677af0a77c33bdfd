package auth_test

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
)

// heapBytes is the live heap as the runtime counts it (cheaper than ReadMemStats).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Many concurrent sign-ins with made-up names, each from its own address (so the
// failure limits do not stop them): the hashing is bounded, the heap grows by at most the
// gate's slots × 19 MiB (twice that before a collection, plus slack; unbounded it was
// 160 × 19 MiB), and what cannot be hashed now answers 503 with
// Retry-After — never 500.
func TestConcurrentSignInsBoundHeap(t *testing.T) {
	e := apitest.New(t)
	const n = 160
	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if h := heapBytes(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	statuses := make([]int, n)
	retry := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/login", RemoteAddr: fmt.Sprintf("10.1.%d.%d:1", i/200, i%200+1),
				Body: fmt.Sprintf(`{"username":"nobody-%d","password":"guess-%d"}`, i, i)})
			statuses[i], retry[i] = r.Status, r.Header.Get("Retry-After")
		}()
	}
	close(start)
	wg.Wait()
	close(stop)
	<-sampled
	count := map[int]int{}
	for i, s := range statuses {
		count[s]++
		if s == 503 && retry[i] == "" {
			t.Errorf("503 without Retry-After")
		}
	}
	if len(count) > 2 || count[401]+count[503] != n {
		t.Fatalf("statuses %v, want only 401 and 503", count)
	}
	if count[503] == 0 {
		t.Errorf("no sign-in was refused for capacity: %v", count)
	}
	slots := e.Server.Auth.Hashing.Slots()
	growth := int64(peak.Load()) - int64(base)
	// the collector lets the heap reach twice what is live before it runs
	limit := 2*int64(slots)*19<<20 + 64<<20
	t.Logf("%d sign-ins: %v; heap grew by %.1f MiB at peak (bound %.0f MiB, %d hashing slots)",
		n, count, float64(growth)/(1<<20), float64(limit)/(1<<20), slots)
	if growth > limit {
		t.Fatalf("heap grew by %.1f MiB under %d concurrent sign-ins, want at most %.0f MiB", float64(growth)/(1<<20), n, float64(limit)/(1<<20))
	}
}

// One password tried on many names from one address: the address is refused after 20
// failures, whatever name it tries next — even a right one.
func TestPasswordSprayingRefused(t *testing.T) {
	e := apitest.New(t)
	for i := range 20 {
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/login", RemoteAddr: "203.0.113.5:40000",
			Body: fmt.Sprintf(`{"username":"guess%d","password":"Summer2026"}`, i)})
		if r.Status != 401 {
			t.Fatalf("attempt %d: %d %s", i, r.Status, r.Body)
		}
	}
	r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/login", RemoteAddr: "203.0.113.5:40001",
		Body: `{"username":"admin","password":"helio-demo"}`})
	if r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("21st name from a spraying address: %d (Retry-After %q), want 429", r.Status, r.Header.Get("Retry-After"))
	}
	r = e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/login", RemoteAddr: "203.0.113.6:1",
		Body: `{"username":"admin","password":"helio-demo"}`})
	if r.Status != 200 {
		t.Fatalf("another address: %d", r.Status)
	}
}
