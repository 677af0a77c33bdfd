// Command soak runs the demo under dashboard load for a set time and reports whether the
// server stays flat: resident memory (from /proc), Go heap and goroutines (from
// /metrics) and open files (/proc/<pid>/fd) at the start and the end, and every sample
// in between.
//
//	go run ./bench/soak -bin bin/helio [-duration 10m] [-backfill-days 30] [-sim-speed 10] [-clients 10]
//
// The demo starts on a fresh data directory (helio serve --demo --sim-speed 10, with a
// shortened back-fill), gets a warm-up of dashboard load, and is then loaded for the
// duration in slices, measured after each. Flat means: heap and RSS in the last third of
// the run no more than 25 % (plus a fixed allowance) above the first third, and
// goroutines and open files, idle after the warm-up and idle at the end (the load's
// connections closed), within 5 of each other. It exits non-zero when they are not.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/helio-energy/helio/bench/internal/dash"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/load"
	"github.com/helio-energy/helio/internal/demo"
)

var (
	bin          = flag.String("bin", "bin/helio", "the helio binary")
	duration     = flag.Duration("duration", 10*time.Minute, "how long to load the demo")
	warmup       = flag.Duration("warmup", time.Minute, "dashboard load before the starting measurement")
	every        = flag.Duration("every", 30*time.Second, "load slice between measurements")
	backfillDays = flag.Int("backfill-days", 30, "days of demo history generated on start")
	simSpeed     = flag.Float64("sim-speed", 10, "demo simulator speed")
	clients      = flag.Int("clients", 10, "concurrent dashboard clients")
	keep         = flag.Bool("keep", false, "keep the data directory")
)

type sample struct {
	at         time.Duration
	rss, heap  float64 // bytes
	goroutines float64
	files      int
	rps        float64
	p95        time.Duration
	errors     int
}

func measure(p *helio.Proc, since time.Time) (sample, error) {
	s := sample{at: time.Since(since)}
	rss, err := helio.RSS(p.Pid())
	if err != nil {
		return s, err
	}
	files, err := helio.OpenFiles(p.Pid())
	if err != nil {
		return s, err
	}
	m, err := helio.Metrics(p.URL)
	if err != nil {
		return s, err
	}
	s.rss, s.files = float64(rss), files
	s.heap, s.goroutines = m["go_memstats_heap_alloc_bytes"], m["go_goroutines"]
	return s, nil
}

func mb(b float64) string { return fmt.Sprintf("%.1f MB", b/(1<<20)) }

func mean(xs []sample, f func(sample) float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += f(x)
	}
	return t / float64(len(xs))
}

func main() {
	flag.Parse()
	log.SetFlags(log.Ltime)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(ctx context.Context) (bool, error) {
	path, err := filepath.Abs(*bin)
	if err != nil {
		return false, err
	}
	dir, err := os.MkdirTemp("", "helio-soak-")
	if err != nil {
		return false, err
	}
	if *keep {
		log.Printf("data in %s", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	p, err := helio.Start(ctx, path, dir, "--demo", "--sim-speed", fmt.Sprint(*simSpeed), "--backfill-days", fmt.Sprint(*backfillDays))
	if err != nil {
		return false, err
	}
	defer p.Stop()
	ready, err := p.WaitReady(10*time.Minute, 100*time.Millisecond)
	if err != nil {
		return false, err
	}
	log.Printf("demo ready in %s (%d days of back-fill, simulator at %gx)", ready.Round(100*time.Millisecond), *backfillDays, *simSpeed)
	cl, err := helio.Login(p.URL, "admin", demo.Password)
	if err != nil {
		return false, err
	}
	var stations []struct {
		ID int64 `json:"id"`
	}
	if err := cl.Get("/v2/site/simplelist", &stations); err != nil {
		return false, err
	}
	var devices struct {
		List []struct {
			ID int64 `json:"id"`
		} `json:"list"`
	}
	if err := cl.Get("/v2/dev/listbytype?type=inverter&pageSize=200", &devices); err != nil {
		return false, err
	}
	var sids, dids []int64
	for _, s := range stations {
		sids = append(sids, s.ID)
	}
	for _, d := range devices.List {
		dids = append(dids, d.ID)
	}
	if len(sids) == 0 || len(dids) == 0 {
		return false, fmt.Errorf("the demo shows no stations or devices")
	}
	calls := dash.Calls(sids, dids, time.Now())
	hc := load.NewClient(*clients)
	slice := func(d time.Duration) load.Result {
		return load.Run(ctx, hc, load.Config{Clients: *clients, Duration: d, MaxRequests: 10_000_000}, func(c, i int) *http.Request {
			k := calls[(c+i)%len(calls)]
			r, _ := http.NewRequest("GET", p.URL+k.Path(c, i), nil)
			r.Header.Set("Authorization", "Bearer "+cl.Token)
			return r
		})
	}

	// idle measurements close the load's connections first: a kept-alive connection holds
	// a goroutine and a descriptor in the server
	idle := func(since time.Time) (sample, error) {
		hc.CloseIdleConnections()
		time.Sleep(3 * time.Second)
		return measure(p, since)
	}
	start := time.Now()
	log.Printf("warm-up: %s of dashboard load from %d clients", *warmup, *clients)
	slice(*warmup)
	idle0, err := idle(start)
	if err != nil {
		return false, err
	}
	var series []sample
	t0 := time.Now()
	for time.Since(t0) < *duration && ctx.Err() == nil {
		res := slice(min(*every, *duration-time.Since(t0)))
		s, err := measure(p, t0)
		if err != nil {
			return false, err
		}
		s.rps, s.p95, s.errors = res.RPS(), res.P(95), res.Errors
		series = append(series, s)
		log.Printf("%6s  RSS %-9s heap %-9s goroutines %4.0f  files %3d  %6.0f req/s  p95 %s  errors %d", s.at.Round(time.Second),
			mb(s.rss), mb(s.heap), s.goroutines, s.files, s.rps, s.p95.Round(100*time.Microsecond), s.errors)
		if res.Errors > 0 {
			log.Printf("  first error: %s", res.FirstError)
		}
	}
	if len(series) < 3 {
		return false, fmt.Errorf("the run is too short to judge: %d measurements (raise -duration or lower -every)", len(series))
	}
	// idle again: what the load held must have been let go
	idle1, err := idle(start)
	if err != nil {
		return false, err
	}
	third := max(1, len(series)/3)
	first, last := series[:third], series[len(series)-third:]
	heapA, heapB := mean(first, func(s sample) float64 { return s.heap }), mean(last, func(s sample) float64 { return s.heap })
	rssA, rssB := mean(first, func(s sample) float64 { return s.rss }), mean(last, func(s sample) float64 { return s.rss })
	p95s := make([]time.Duration, len(series))
	errs := 0
	for i, s := range series {
		p95s[i] = s.p95
		errs += s.errors
	}
	sort.Slice(p95s, func(i, j int) bool { return p95s[i] < p95s[j] })

	type check struct {
		what, numbers string
		ok            bool
	}
	checks := []check{
		{"heap", fmt.Sprintf("%s → %s (mean of the first and last third under load)", mb(heapA), mb(heapB)), heapB <= heapA*1.25+16<<20},
		{"RSS", fmt.Sprintf("%s → %s (mean of the first and last third under load)", mb(rssA), mb(rssB)), rssB <= rssA*1.25+32<<20},
		{"goroutines", fmt.Sprintf("%.0f idle before → %.0f idle after", idle0.goroutines, idle1.goroutines), idle1.goroutines <= idle0.goroutines+5},
		{"open files", fmt.Sprintf("%d idle before → %d idle after", idle0.files, idle1.files), idle1.files <= idle0.files+5},
		{"errors", fmt.Sprintf("%d failed requests", errs), errs == 0},
	}
	fmt.Printf("\nHelio soak: demo at %gx with %d days of back-fill, %d dashboard clients for %s (after %s of warm-up); %d measurements every %s\n\n",
		*simSpeed, *backfillDays, *clients, *duration, *warmup, len(series), *every)
	fmt.Println("|        | RSS | heap | goroutines | open files |")
	fmt.Println("|--------|----:|-----:|-----------:|-----------:|")
	fmt.Printf("| start (idle, after the warm-up) | %s | %s | %.0f | %d |\n", mb(idle0.rss), mb(idle0.heap), idle0.goroutines, idle0.files)
	fmt.Printf("| first third under load (mean) | %s | %s | %.0f | %.0f |\n", mb(rssA), mb(heapA),
		mean(first, func(s sample) float64 { return s.goroutines }), mean(first, func(s sample) float64 { return float64(s.files) }))
	fmt.Printf("| last third under load (mean) | %s | %s | %.0f | %.0f |\n", mb(rssB), mb(heapB),
		mean(last, func(s sample) float64 { return s.goroutines }), mean(last, func(s sample) float64 { return float64(s.files) }))
	fmt.Printf("| end (idle) | %s | %s | %.0f | %d |\n\n", mb(idle1.rss), mb(idle1.heap), idle1.goroutines, idle1.files)
	fmt.Printf("Load: %.0f req/s on average, p95 of the slices from %s to %s.\n\n", mean(series, func(s sample) float64 { return s.rps }),
		p95s[0].Round(100*time.Microsecond), p95s[len(p95s)-1].Round(100*time.Microsecond))
	all := true
	var bad []string
	for _, c := range checks {
		mark := "flat"
		if !c.ok {
			mark, all = "GROWING", false
			bad = append(bad, c.what)
		}
		if c.what == "errors" {
			mark = map[bool]string{true: "none", false: "FAILED"}[c.ok]
		}
		fmt.Printf("  %-11s %-8s %s\n", c.what, mark, c.numbers)
	}
	if all {
		fmt.Printf("\nVerdict: FLAT — memory, goroutines and open files held steady over %s.\n", *duration)
	} else {
		fmt.Printf("\nVerdict: NOT FLAT — %s.\n", strings.Join(bad, ", "))
	}
	return all, nil
}
