// Package metrics is a small Prometheus text-format registry: counters, gauges and
// histograms with labels, enough for /metrics without a client library.
package metrics

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds named metric families.
type Registry struct {
	mu       sync.Mutex
	families map[string]*family
	gauges   map[string]func() float64
	help     map[string]string
}

type family struct {
	name, help, kind string
	labels           []string
	buckets          []float64
	mu               sync.Mutex
	series           map[string]*series
}

type series struct {
	labelValues []string
	value       atomic.Uint64 // float64 bits for counters
	counts      []atomic.Uint64
	sum         atomic.Uint64
	count       atomic.Uint64
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{families: map[string]*family{}, gauges: map[string]func() float64{}, help: map[string]string{}}
}

// Default is the process-wide registry served at /metrics.
var Default = New()

func (r *Registry) family(name, help, kind string, labels []string, buckets []float64) *family {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.families[name]; ok {
		return f
	}
	f := &family{name: name, help: help, kind: kind, labels: labels, buckets: buckets, series: map[string]*series{}}
	r.families[name] = f
	return f
}

func (f *family) get(values []string) *series {
	key := strings.Join(values, "\x00")
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.series[key]
	if !ok {
		s = &series{labelValues: append([]string(nil), values...)}
		if f.buckets != nil {
			s.counts = make([]atomic.Uint64, len(f.buckets))
		}
		f.series[key] = s
	}
	return s
}

// Counter is a monotonically increasing value, one per label combination.
type Counter struct{ f *family }

// NewCounter registers (or returns) a counter family.
func (r *Registry) NewCounter(name, help string, labels ...string) Counter {
	return Counter{r.family(name, help, "counter", labels, nil)}
}

// Add adds v to the series with the given label values.
func (c Counter) Add(v float64, labelValues ...string) {
	s := c.f.get(labelValues)
	addFloat(&s.value, v)
}

// Inc adds one.
func (c Counter) Inc(labelValues ...string) { c.Add(1, labelValues...) }

// Value reads the series (for tests and status pages).
func (c Counter) Value(labelValues ...string) float64 {
	return math.Float64frombits(c.f.get(labelValues).value.Load())
}

func addFloat(u *atomic.Uint64, v float64) {
	for {
		old := u.Load()
		if u.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// Histogram counts observations in buckets.
type Histogram struct{ f *family }

// DefBuckets suit request durations in seconds.
var DefBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// NewHistogram registers (or returns) a histogram family.
func (r *Registry) NewHistogram(name, help string, buckets []float64, labels ...string) Histogram {
	return Histogram{r.family(name, help, "histogram", labels, buckets)}
}

// Observe records v.
func (h Histogram) Observe(v float64, labelValues ...string) {
	s := h.f.get(labelValues)
	for i, b := range h.f.buckets {
		if v <= b {
			s.counts[i].Add(1)
		}
	}
	addFloat(&s.sum, v)
	s.count.Add(1)
}

// NewGaugeFunc registers a gauge read from fn at scrape time.
func (r *Registry) NewGaugeFunc(name, help string, fn func() float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gauges[name] = fn
	r.help[name] = help
}

// Write writes every metric in the Prometheus text format (0.0.4), plus Go runtime
// figures.
func (r *Registry) Write(w io.Writer) {
	r.mu.Lock()
	names := make([]string, 0, len(r.families))
	for n := range r.families {
		names = append(names, n)
	}
	gnames := make([]string, 0, len(r.gauges))
	for n := range r.gauges {
		gnames = append(gnames, n)
	}
	r.mu.Unlock()
	sort.Strings(names)
	sort.Strings(gnames)
	for _, n := range names {
		r.families[n].write(w)
	}
	for _, n := range gnames {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %g\n", n, r.help[n], n, n, r.gauges[n]())
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "# HELP go_goroutines Number of goroutines.\n# TYPE go_goroutines gauge\ngo_goroutines %d\n", runtime.NumGoroutine())
	fmt.Fprintf(w, "# HELP go_memstats_heap_alloc_bytes Heap bytes allocated and in use.\n# TYPE go_memstats_heap_alloc_bytes gauge\ngo_memstats_heap_alloc_bytes %d\n", ms.HeapAlloc)
	fmt.Fprintf(w, "# HELP go_memstats_sys_bytes Bytes obtained from the OS.\n# TYPE go_memstats_sys_bytes gauge\ngo_memstats_sys_bytes %d\n", ms.Sys)
}

func (f *family) write(w io.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.name, f.help, f.name, f.kind)
	f.mu.Lock()
	keys := make([]string, 0, len(f.series))
	for k := range f.series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	all := make([]*series, len(keys))
	for i, k := range keys {
		all[i] = f.series[k]
	}
	f.mu.Unlock()
	for _, s := range all {
		lbl := labelString(f.labels, s.labelValues, "")
		if f.kind == "counter" {
			fmt.Fprintf(w, "%s%s %g\n", f.name, lbl, math.Float64frombits(s.value.Load()))
			continue
		}
		for i, b := range f.buckets {
			fmt.Fprintf(w, "%s_bucket%s %d\n", f.name, labelString(f.labels, s.labelValues, fmt.Sprintf("%g", b)), s.counts[i].Load())
		}
		fmt.Fprintf(w, "%s_bucket%s %d\n", f.name, labelString(f.labels, s.labelValues, "+Inf"), s.count.Load())
		fmt.Fprintf(w, "%s_sum%s %g\n", f.name, lbl, math.Float64frombits(s.sum.Load()))
		fmt.Fprintf(w, "%s_count%s %d\n", f.name, lbl, s.count.Load())
	}
}

func labelString(names, values []string, le string) string {
	var parts []string
	for i, n := range names {
		v := ""
		if i < len(values) {
			v = values[i]
		}
		parts = append(parts, fmt.Sprintf("%s=%q", n, v))
	}
	if le != "" {
		parts = append(parts, fmt.Sprintf("le=%q", le))
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}
