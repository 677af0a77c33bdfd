package main

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/dash"
	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/load"
	"github.com/helio-energy/helio/internal/demo"
)

// scaleRun is one large fleet served with the answer cache off.
type scaleRun struct {
	stations  int
	days      int
	db        string // sqlite or postgres
	info      *fleet.Info
	ready     time.Duration // start to /readyz
	buildSec  float64       // the fleet state's build (helio_fleet_build_seconds)
	heapBytes float64       // heap growth across it (helio_fleet_build_heap_bytes)
	rssBytes  int64         // the process's resident memory once ready
	floor     load.Result
	byCall    []load.Result
	names     []string
	rounds    []*roundResult // 5-minute rounds over MQTT: the first after the start, then the next
}

// scaleSize is one fleet of the scale part: stations and days of history.
type scaleSize struct{ stations, days int }

// scaleSizes pairs -scale-stations with -scale-days: one day count for every fleet, or
// one per fleet.
func scaleSizes(stations, days string) ([]scaleSize, error) {
	var out []scaleSize
	for _, f := range strings.Split(stations, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-scale-stations: %q is not a station count", f)
		}
		out = append(out, scaleSize{stations: n})
	}
	ds := strings.Split(days, ",")
	if len(ds) != 1 && len(ds) != len(out) {
		return nil, fmt.Errorf("-scale-days: %d values for %d fleets (give one, or one per fleet)", len(ds), len(out))
	}
	for i := range out {
		d, err := strconv.Atoi(strings.TrimSpace(ds[min(i, len(ds)-1)]))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("-scale-days: %q is not a day count", ds[min(i, len(ds)-1)])
		}
		out[i].days = d
	}
	return out, nil
}

// scale serves fleets of -scale-stations stations (default 1,000; 10,000 on request)
// with every answer computed: how the dashboard calls and the start-up grow with the fleet.
func (e *env) scale(ctx context.Context) error {
	c := e.cfg
	sizes, err := scaleSizes(c.scaleStations, c.scaleDays)
	if err != nil {
		return err
	}
	if c.scaleDB != "sqlite" && c.scaleDB != "postgres" {
		return fmt.Errorf("-scale-db: %q (want sqlite or postgres)", c.scaleDB)
	}
	var runs []*scaleRun
	for _, sz := range sizes {
		n := sz.stations
		spec := fleet.Spec{Stations: n, DevicesPerStation: c.perStation, Days: sz.days, Seed: benchSeed, RawRetention: rawRetention}
		name := fmt.Sprintf("fleet-%dx%d-%dd", n, spec.DevicesPerStation, spec.Days)
		var dir string
		var info *fleet.Info
		if c.scaleDB == "postgres" {
			dir, info, err = e.buildFleetPG(ctx, name, spec)
		} else {
			dir, info, err = e.buildFleet(ctx, name, spec)
		}
		if err != nil {
			return err
		}
		run, err := e.loadScale(ctx, dir, info, n)
		if err != nil {
			return err
		}
		run.days, run.db = sz.days, c.scaleDB
		runs = append(runs, run)
		if !c.keep {
			e.dropFleet(ctx, dir, info)
		}
	}
	e.reportScale(runs)
	return nil
}

func (e *env) loadScale(ctx context.Context, dir string, info *fleet.Info, n int) (*scaleRun, error) {
	c := e.cfg
	args := []string{"--answer-cache", "0"}
	if info.DB != "" {
		args = append(args, "--db", info.DB)
	}
	clientID := fmt.Sprintf("helio-bench-scale-%d", time.Now().UnixNano())
	if c.scaleMQTT != "" {
		args = append(args, "--mqtt", c.scaleMQTT, "--mqtt-client-id", clientID, "--mqtt-inflight", fmt.Sprint(c.scaleInFlight))
	}
	p, err := helio.Start(ctx, e.bin, dir, args...)
	if err != nil {
		return nil, err
	}
	defer func() {
		p.Stop()
		if c.scaleMQTT != "" {
			clearSession(c.scaleMQTT, clientID)
		}
	}()
	ready, err := p.WaitReady(10*time.Minute, 20*time.Millisecond)
	if err != nil {
		return nil, err
	}
	run := &scaleRun{stations: n, info: info, ready: ready, rssBytes: rss(p.Pid())}
	run.buildSec, run.heapBytes = metric(p.URL, "helio_fleet_build_seconds"), metric(p.URL, "helio_fleet_build_heap_bytes")
	log.Printf("   %d stations: ready in %s (fleet state built in %.2f s, heap %s), resident %s", n, ready.Round(time.Millisecond),
		run.buildSec, mib(run.heapBytes), mib(float64(run.rssBytes)))
	cl, err := helio.Login(p.URL, "admin", demo.Password)
	if err != nil {
		return nil, err
	}
	hc := load.NewClient(c.clients)
	cfg := load.Config{Clients: c.clients, Warmup: c.warmup, Duration: c.duration}
	req := func(path string) *http.Request {
		r, _ := http.NewRequest("GET", p.URL+path, nil)
		r.Header.Set("Authorization", "Bearer "+cl.Token)
		r.Header.Set("Accept-Encoding", "gzip")
		return r
	}
	run.floor = load.Run(ctx, hc, cfg, func(int, int) *http.Request { return req("/v2/sys/monitor/url") })
	for _, k := range dash.Calls(info.StationIDs, info.DeviceIDs, info.To) {
		if err := cl.Get(k.Path(0, 0), nil); err != nil {
			return nil, err
		}
		res := load.Run(ctx, hc, cfg, func(cn, i int) *http.Request { return req(k.Path(cn, i)) })
		log.Printf("   %-44s %8.0f req/s  p50 %-9s p95 %-9s p99 %-9s errors %d", k.Name, res.RPS(), ms(res.P(50)), ms(res.P(95)), ms(res.P(99)), res.Errors)
		run.byCall = append(run.byCall, res)
		run.names = append(run.names, k.Name)
	}
	// two rounds: the first after a start also reads every device's recent history back
	// (the alarm engine's grid nominals), the second is the steady state
	for i := 0; i < 2 && c.scaleMQTT != ""; i++ {
		// a failed round keeps the calls' figures
		r, err := e.round(ctx, p, dir, info)
		if err != nil {
			log.Printf("   5-minute round over MQTT failed: %v", err)
			e.rep.failed = append(e.rep.failed, fmt.Sprintf("scale: 5-minute round over MQTT: %v", err))
			break
		}
		run.rounds = append(run.rounds, r)
	}
	return run, nil
}

func (e *env) reportScale(runs []*scaleRun) {
	c := e.cfg
	var s strings.Builder
	fmt.Fprintf(&s, "Fleets of the sizes below (%d devices per station, the days of 5-minute history given, built as for the dashboard calls), "+
		"served with the answer cache off (`--answer-cache 0`): every answer computed. %d clients as `admin`, %s per call after %s of warm-up. "+
		"*Ready* is the time from start to `/readyz` answering ready, which includes building the in-memory fleet state from the roll-ups; "+
		"*heap* is the heap growth across that build; *resident* the process's resident memory once ready.\n\n",
		c.perStation, c.clients, c.duration, c.warmup)
	fmt.Fprintf(&s, "| stations | devices | days | database | ready | fleet state build | heap | resident |\n|---:|---:|---:|---|---:|---:|---:|---:|\n")
	for _, r := range runs {
		fmt.Fprintf(&s, "| %s | %s | %d | %s | %s | %.2f s | %s | %s |\n", num(float64(r.stations)), num(float64(r.info.Devices)), r.days, r.db,
			r.ready.Round(time.Millisecond), r.buildSec, mib(r.heapBytes), mib(float64(r.rssBytes)))
	}
	e.reportRounds(&s, runs)
	fmt.Fprintf(&s, "\n| call |")
	for _, r := range runs {
		fmt.Fprintf(&s, " %s stations: req/s | p50 | p95 | p99 |", num(float64(r.stations)))
	}
	fmt.Fprintf(&s, "\n|---|")
	for range runs {
		fmt.Fprintf(&s, "---:|---:|---:|---:|")
	}
	fmt.Fprintln(&s)
	row := func(name string, get func(*scaleRun) load.Result) {
		fmt.Fprintf(&s, "| %s |", name)
		for _, r := range runs {
			x := get(r)
			fmt.Fprintf(&s, " %s | %s | %s | %s |", num(x.RPS()), ms(x.P(50)), ms(x.P(95)), ms(x.P(99)))
		}
		fmt.Fprintln(&s)
	}
	row("API floor", func(r *scaleRun) load.Result { return r.floor })
	for i, name := range runs[0].names {
		row("`"+name+"`", func(r *scaleRun) load.Result { return r.byCall[i] })
	}
	for _, r := range runs {
		worst, worstName := time.Duration(0), ""
		for i, x := range r.byCall {
			if x.P(95) > worst {
				worst, worstName = x.P(95), r.names[i]
			}
		}
		goal, ok := "< 50 ms", worst < 50*time.Millisecond
		if r.stations >= 10000 {
			goal, ok = "monitor calls < 100 ms", worst < 100*time.Millisecond
		}
		e.rep.add(figure{area: "Dashboard", name: fmt.Sprintf("Slowest call's p95, %s stations, cache off (%s)", num(float64(r.stations)), strings.TrimPrefix(worstName, "GET ")),
			value: ms(worst), goal: goal, ref: fmt.Sprintf("API floor p95 %s; ready in %s", ms(r.floor.P(95)), r.ready.Round(time.Millisecond)), verdict: verdict(ok)})
	}
	for _, r := range runs {
		e.sortedFigure(r)
	}
	e.rep.section("Dashboard", "Dashboard calls as the fleet grows", s.String())
}

// sortedFigure adds the sorted device list's p95 at a fleet's size beside the API floor
// of the same run (the cheapest signed call): under 20 ms and at most three times the
// floor; the unsorted list's p95 is shown beside it.
func (e *env) sortedFigure(r *scaleRun) {
	sorted, unsorted := slices.Index(r.names, dash.SortedList), slices.Index(r.names, dash.UnsortedList)
	if sorted < 0 || unsorted < 0 {
		return
	}
	x, plain := r.byCall[sorted], r.byCall[unsorted]
	ratio := float64(x.P(95)) / float64(max(r.floor.P(95), 1))
	e.rep.add(figure{area: "Dashboard", name: fmt.Sprintf("Sorted device list p95, %s stations, cache off (a page of 20 among the first five)", num(float64(r.stations))),
		value: ms(x.P(95)), goal: "< 20 ms and ≤ ×3 the API floor",
		ref: fmt.Sprintf("API floor p95 %s (%s); unsorted list p95 %s; p50 %s against %s",
			ms(r.floor.P(95)), times(ratio), ms(plain.P(95)), ms(x.P(50)), ms(plain.P(50))),
		verdict: verdict(x.P(95) < 20*time.Millisecond && ratio <= 3)})
}

// metric reads one unlabelled value from the server's /metrics (NaN-free: 0 when absent).
func metric(base, name string) float64 {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f
		}
	}
	return 0
}

// rss is a process's resident memory in bytes (Linux; 0 elsewhere).
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }
