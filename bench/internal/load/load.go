// Package load is a bounded closed-loop HTTP load generator: a fixed number of clients,
// each sending its next request as soon as the previous answer is read, for a set time
// and at most a set number of requests.
package load

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Config bounds a run.
type Config struct {
	Clients int
	// Warmup is run first and not measured; Duration is measured.
	Warmup, Duration time.Duration
	// MaxRequests bounds the measured requests (0: 2 million).
	MaxRequests int
	// Key, when set, names the group of client's i-th request (say, the replica and the
	// call); Result.ByKey then counts each group's measured requests and their latency.
	Key func(client, i int) string
}

// KeyStat is one group's measured requests (Config.Key).
type KeyStat struct {
	Requests int
	Sum, Max time.Duration
}

// Result is what a run measured.
type Result struct {
	Requests, Errors int
	FirstError       string
	Elapsed          time.Duration
	Bytes            int64
	ByKey            map[string]*KeyStat // with Config.Key
	lat              []time.Duration     // sorted
}

// RPS is requests per second over the measured time.
func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// P returns the q-th percentile latency (0 < q ≤ 100, nearest rank).
func (r Result) P(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(math.Ceil(q/100*float64(len(r.lat)))) - 1
	return r.lat[min(max(i, 0), len(r.lat)-1)]
}

// NewClient returns an HTTP client that keeps a connection per load client.
func NewClient(clients int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = clients * 2
	t.MaxIdleConnsPerHost = clients * 2
	t.MaxConnsPerHost = 0
	return &http.Client{Transport: t, Timeout: 60 * time.Second}
}

// Run sends next(client, i)'s requests from cfg.Clients clients. A request fails when
// it errors or answers anything but 200.
func Run(ctx context.Context, c *http.Client, cfg Config, next func(client, i int) *http.Request) Result {
	maxReq := cfg.MaxRequests
	if maxReq <= 0 {
		maxReq = 2_000_000
	}
	var (
		mu       sync.Mutex
		res      Result
		measured atomic.Int64
		wg       sync.WaitGroup
	)
	start := time.Now()
	measureFrom := start.Add(cfg.Warmup)
	stop := measureFrom.Add(cfg.Duration)
	lats := make([][]time.Duration, cfg.Clients)
	if cfg.Key != nil {
		res.ByKey = map[string]*KeyStat{}
	}
	for w := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var bytes int64
			errs, firstErr := 0, ""
			for i := 0; ; i++ {
				now := time.Now()
				if now.After(stop) || ctx.Err() != nil {
					break
				}
				on := !now.Before(measureFrom)
				if on && measured.Add(1) > int64(maxReq) {
					break
				}
				req := next(w, i).WithContext(ctx)
				t0 := time.Now()
				resp, err := c.Do(req)
				if err == nil {
					var n int64
					n, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					bytes += n
					if err == nil && resp.StatusCode != 200 {
						err = fmt.Errorf("%s %s: status %d", req.Method, req.URL.Path, resp.StatusCode)
					}
				}
				d := time.Since(t0)
				if !on {
					continue
				}
				if err != nil {
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
					continue
				}
				lats[w] = append(lats[w], d)
				if cfg.Key != nil {
					k := cfg.Key(w, i)
					mu.Lock()
					st := res.ByKey[k]
					if st == nil {
						st = &KeyStat{}
						res.ByKey[k] = st
					}
					st.Requests, st.Sum, st.Max = st.Requests+1, st.Sum+d, max(st.Max, d)
					mu.Unlock()
				}
			}
			mu.Lock()
			res.Errors += errs
			res.Bytes += bytes
			if res.FirstError == "" {
				res.FirstError = firstErr
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	end := time.Now()
	if end.After(stop) {
		end = stop
	}
	res.Elapsed = end.Sub(measureFrom)
	for _, l := range lats {
		res.lat = append(res.lat, l...)
	}
	sort.Slice(res.lat, func(i, j int) bool { return res.lat[i] < res.lat[j] })
	res.Requests = len(res.lat)
	return res
}

// Merge combines runs measured apart (slices of one measurement taken in turn with
// others) into one: requests, errors, bytes and time add up, latencies are pooled.
func Merge(rs ...Result) Result {
	var out Result
	for _, r := range rs {
		out.Requests += r.Requests
		out.Errors += r.Errors
		out.Bytes += r.Bytes
		out.Elapsed += r.Elapsed
		if out.FirstError == "" {
			out.FirstError = r.FirstError
		}
		out.lat = append(out.lat, r.lat...)
	}
	sort.Slice(out.lat, func(i, j int) bool { return out.lat[i] < out.lat[j] })
	return out
}
