package load

import (
	"testing"
	"time"
)

// Merged slices give the figures of one run over all their requests.
func TestMerge(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	a := Result{Requests: 3, Elapsed: time.Second, Bytes: 30, lat: ms(1, 2, 3)}
	b := Result{Requests: 2, Errors: 1, FirstError: "boom", Elapsed: time.Second, Bytes: 20, lat: ms(10, 20)}
	m := Merge(a, b)
	if m.Requests != 5 || m.Errors != 1 || m.FirstError != "boom" || m.Bytes != 50 || m.Elapsed != 2*time.Second {
		t.Fatalf("merged %+v", m)
	}
	if m.RPS() != 2.5 {
		t.Fatalf("RPS %v, want 2.5", m.RPS())
	}
	if m.P(50) != 3*time.Millisecond || m.P(100) != 20*time.Millisecond || m.P(1) != time.Millisecond {
		t.Fatalf("percentiles p1 %v p50 %v p100 %v", m.P(1), m.P(50), m.P(100))
	}
}
