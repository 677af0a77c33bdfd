package load

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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

// Config.Key groups the measured requests: each group's count adds up to the run's.
func TestRunByKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(5 * time.Millisecond)
		}
	}))
	defer srv.Close()
	paths := []string{"/fast", "/slow"}
	res := Run(context.Background(), NewClient(4), Config{Clients: 4, Duration: 300 * time.Millisecond,
		Key: func(c, i int) string { return fmt.Sprintf("c%d%s", c%2, paths[i%2]) }},
		func(c, i int) *http.Request {
			r, _ := http.NewRequest("GET", srv.URL+paths[i%2], nil)
			return r
		})
	if res.Errors > 0 || res.Requests == 0 {
		t.Fatalf("run %+v", res)
	}
	n := 0
	for k, st := range res.ByKey {
		n += st.Requests
		if st.Requests == 0 || st.Max < st.Sum/time.Duration(st.Requests) {
			t.Fatalf("%s: %+v", k, st)
		}
	}
	if n != res.Requests || len(res.ByKey) != 4 {
		t.Fatalf("groups %d with %d requests, the run %d", len(res.ByKey), n, res.Requests)
	}
	if slow, fast := res.ByKey["c0/slow"], res.ByKey["c0/fast"]; slow.Sum/time.Duration(slow.Requests) < 5*time.Millisecond ||
		fast.Sum/time.Duration(fast.Requests) >= 5*time.Millisecond {
		t.Fatalf("slow %+v fast %+v", slow, fast)
	}
}
