package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/dash"
	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/load"
	"github.com/helio-energy/helio/bench/internal/machine"
	"github.com/helio-energy/helio/internal/demo"
)

// replicaRun is the dashboard mix served by some replicas at once.
type replicaRun struct {
	label     string
	replicas  int
	res       load.Result
	cores     []float64 // each loaded replica's CPU over the window, in cores
	throttled []int64   // periods each replica's quota held it back
	busy      float64   // the machine's busy cores over the window
}

// replicas measures what a second replica adds to the dashboard's throughput: a fleet on
// PostgreSQL served by one replica, then by two (one database, NATS between them, the
// answer cache off), then by the first alone again, -replica-pairs times (one run of a
// replica under a quota swung almost ×2 between bench runs); each replica is held to -replica-cpu
// of a core by a CPU quota, so that both replicas, PostgreSQL and the load generator fit
// on the machine. The clients call the dashboard mix, each client on one replica.
func (e *env) replicas(ctx context.Context) error {
	c := e.cfg
	spec := fleet.Spec{Stations: c.replicaStations, DevicesPerStation: c.perStation, Days: c.replicaDays, Seed: benchSeed, RawRetention: rawRetention}
	name := fmt.Sprintf("fleet-%dx%d-%dd", spec.Stations, spec.DevicesPerStation, spec.Days)
	e.rep.scale = append(e.rep.scale, fmt.Sprintf("Replicas: %s stations × %d devices × %d days on PostgreSQL, one and two replicas each held to %.2g of a core, %d clients, the dashboard mix with the cache off, %s after %s of warm-up",
		num(float64(spec.Stations)), spec.DevicesPerStation, spec.Days, c.replicaCPU, c.clients, c.replicaDuration, c.warmup))
	var groups []*cpuGroup
	defer func() {
		for _, g := range groups {
			g.remove()
		}
	}()
	for i := range 2 {
		g, err := newCPUGroup(fmt.Sprintf("helio-bench-%d-replica-%d", os.Getpid(), i), c.replicaCPU)
		if err != nil {
			// without quotas the two replicas would share the load generator's cores, and
			// the figure would say nothing about a second machine
			e.rep.add(figure{area: "Replicas", name: "Dashboard throughput, two replicas against one", value: "not measured",
				goal: "≥ ×1.7", ref: fmt.Sprintf("no CPU quota could be set (%v); run as root on Linux", err)})
			return nil
		}
		groups = append(groups, g)
	}
	dir, info, err := e.buildFleetPG(ctx, name, spec)
	if err != nil {
		return err
	}
	if !c.keep {
		defer e.dropFleet(ctx, dir, info)
	}
	// A day of history ends now: its first UTC day becomes old enough to seal within the
	// day, and a replica's sealer would then seal 20,000 device days inside its CPU quota
	// while it is measured (the runs of one replica swung almost ×2 with the hour).
	t0 := time.Now()
	sealed, err := fleet.SealNow(ctx, dir, info)
	if err != nil {
		return err
	}
	log.Printf("   %d device days sealed before the replicas start, in %s", sealed, time.Since(t0).Round(time.Millisecond))
	var procs []*helio.Proc
	defer func() {
		for _, p := range procs {
			p.Stop()
		}
	}()
	prof := &replicaProfiler{dir: c.replicaProfile}
	if prof.dir != "" {
		if err := os.MkdirAll(prof.dir, 0o755); err != nil {
			return err
		}
	}
	start := func(i int) (*helio.Proc, error) {
		data := filepath.Join(e.work, fmt.Sprintf("replica-%d", i))
		if err := os.MkdirAll(data, 0o755); err != nil {
			return nil, err
		}
		pargs, paddr, err := prof.args()
		if err != nil {
			return nil, err
		}
		p, err := helio.Start(ctx, e.bin, data, append([]string{"--db", info.DB, "--nats", c.replicaNATS, "--answer-cache", "0"}, pargs...)...)
		if err != nil {
			return nil, err
		}
		procs = append(procs, p)
		prof.add(p, paddr)
		if err := groups[i].add(p.Pid()); err != nil {
			return nil, fmt.Errorf("replica %d into its CPU group: %w", i+1, err)
		}
		ready, err := p.WaitReady(10*time.Minute, 50*time.Millisecond)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w\n%s", i+1, err, p.Log())
		}
		log.Printf("   replica %d ready in %s", i+1, ready.Round(time.Millisecond))
		// a replica's start-up work goes on after /readyz (the alarm engine reads every
		// device's recent samples for its grid nominal, the sealer's and packer's first
		// passes): within a quarter of a core that takes minutes at 10,000 stations and
		// would be measured as serving; wait until its CPU over 5 s is under a quarter of
		// its quota (10 minutes at most)
		t0 := time.Now()
		for time.Since(t0) < 10*time.Minute {
			c0 := procCPU(p.Pid())
			time.Sleep(5 * time.Second)
			if (procCPU(p.Pid())-c0)/5 < c.replicaCPU/4 {
				break
			}
		}
		log.Printf("   replica %d settled %s after ready", i+1, time.Since(t0).Round(time.Second))
		return p, nil
	}
	first, err := start(0)
	if err != nil {
		return err
	}
	cl, err := helio.Login(first.URL, "admin", demo.Password)
	if err != nil {
		return err
	}
	calls := dash.Calls(info.StationIDs, info.DeviceIDs, info.To)
	hc := load.NewClient(c.clients)
	cfg := load.Config{Clients: c.clients, Warmup: c.warmup, Duration: c.replicaDuration}
	measure := func(label string, on []*helio.Proc) (*replicaRun, error) {
		for _, p := range on {
			for _, k := range calls {
				// every call works on every replica before it is timed; the session signed
				// in on the first is known to the second through the database
				if err := (&helio.Client{Base: p.URL, Token: cl.Token, HTTP: cl.HTTP}).Get(k.Path(0, 0), nil); err != nil {
					return nil, fmt.Errorf("%s on %s: %w", k.Name, p.URL, err)
				}
			}
		}
		run := &replicaRun{label: label, replicas: len(on)}
		cpu0 := make([]float64, len(on))
		thr0 := make([]int64, len(on))
		var busy0 float64
		t0 := time.Now()
		// the window starts after the warm-up; sample the counters when it does
		go func() {
			time.Sleep(c.warmup)
			for i, p := range on {
				cpu0[i], thr0[i] = procCPU(p.Pid()), groups[i].throttled()
			}
			busy0, t0 = machine.BusyCPU(), time.Now()
			prof.window(label, on, c.replicaDuration)
		}()
		cfg := cfg
		cfg.Key = func(cn, i int) string {
			return fmt.Sprintf("replica %d\t%s", cn%len(on)+1, calls[(cn+i)%len(calls)].Name)
		}
		run.res = load.Run(ctx, hc, cfg, func(cn, i int) *http.Request {
			k := calls[(cn+i)%len(calls)]
			r, _ := http.NewRequest("GET", on[cn%len(on)].URL+k.Path(cn, i), nil)
			r.Header.Set("Authorization", "Bearer "+cl.Token)
			r.Header.Set("Accept-Encoding", "gzip")
			return r
		})
		secs := time.Since(t0).Seconds()
		prof.wait()
		for i, p := range on {
			run.cores = append(run.cores, (procCPU(p.Pid())-cpu0[i])/secs)
			run.throttled = append(run.throttled, groups[i].throttled()-thr0[i])
		}
		run.busy = (machine.BusyCPU() - busy0) / secs
		log.Printf("   %-28s %8.0f req/s  p50 %-9s p95 %-9s p99 %-9s errors %d; %s", label, run.res.RPS(), ms(run.res.P(50)), ms(run.res.P(95)), ms(run.res.P(99)), run.res.Errors,
			perReplica(run.res, len(on)))
		prof.calls(label, run.res)
		if run.res.Errors > 0 {
			return nil, fmt.Errorf("%s: %d failed requests, the first: %s", label, run.res.Errors, run.res.FirstError)
		}
		return run, nil
	}
	// one, then (two, one) per pair: each two-replica run lies between two single runs
	one, err := measure("one replica", []*helio.Proc{first})
	if err != nil {
		return err
	}
	runs := []*replicaRun{one}
	var second *helio.Proc
	for k := range max(1, c.replicaPairs) {
		if second == nil {
			if second, err = start(1); err != nil {
				return err
			}
		}
		two, err := measure(fmt.Sprintf("two replicas (%d)", k+1), []*helio.Proc{first, second})
		if err != nil {
			return err
		}
		again, err := measure(fmt.Sprintf("one replica again (%d)", k+1), []*helio.Proc{first})
		if err != nil {
			return err
		}
		runs = append(runs, two, again)
	}
	e.reportReplicas(spec, runs)
	prof.logs(procs)
	return nil
}

func (e *env) reportReplicas(spec fleet.Spec, runs []*replicaRun) {
	c := e.cfg
	// runs: one, then two and one again per pair. Each pair's ratio is its two-replica run
	// against the better of the single runs on either side of it; the figure pools them:
	// the mean of the two-replica runs against the mean of the single ones (a 10-second
	// run of a replica under a quota varies by ±10 %, and one ratio of two such runs more)
	var ratios []float64
	var ratioText []string
	var sumOne, sumTwo float64
	var nOne, nTwo int
	lo, hi := runs[0].res.RPS(), runs[0].res.RPS()
	for i, r := range runs {
		if i%2 == 0 {
			sumOne, nOne = sumOne+r.res.RPS(), nOne+1
			lo, hi = min(lo, r.res.RPS()), max(hi, r.res.RPS())
			continue
		}
		sumTwo, nTwo = sumTwo+r.res.RPS(), nTwo+1
		if i+1 < len(runs) {
			x := r.res.RPS() / max(runs[i-1].res.RPS(), runs[i+1].res.RPS())
			ratios = append(ratios, x)
			ratioText = append(ratioText, fmt.Sprintf("×%.2f", x))
		}
	}
	meanOne, meanTwo := sumOne/float64(max(nOne, 1)), sumTwo/float64(max(nTwo, 1))
	pooled := meanTwo / meanOne
	var s strings.Builder
	fmt.Fprintf(&s, "A fleet of %s stations × %d devices × %d days of 5-minute history in one PostgreSQL database (`-scale-pg`), served by `helio serve --db … --nats %s --answer-cache 0`: "+
		"first one replica, then two (each with its own data directory; sessions, figures and jobs shared through the database and NATS), then the first alone again, %d time(s) (`-replica-pairs`). "+
		"Each replica runs in a control group of its own with a CPU quota of %.2g of a core (`-replica-cpu`), as if each had a small machine to itself, and is measured once its start-up work has settled (its CPU over 5 s under a quarter of its quota); "+
		"PostgreSQL and the load generator use the rest of the machine. %d clients signed in as `admin` call the dashboard mix (every call of the tables above in turn, rotating stations, devices and dates), "+
		"client *n* always on replica *n* mod the replicas, for %s after %s of warm-up. *CPU* is each replica's CPU time over the window; "+
		"*held back* counts the quota periods in which a replica had used its share and waited.\n\n",
		num(float64(spec.Stations)), spec.DevicesPerStation, spec.Days, c.replicaNATS, len(ratios), c.replicaCPU, c.clients, c.replicaDuration, c.warmup)
	fmt.Fprintf(&s, "| replicas | req/s | each replica (req/s) | p50 | p95 | p99 | CPU per replica (cores) | held back (periods) | machine busy (cores) |\n|---|---:|---|---:|---:|---:|---|---|---:|\n")
	for _, r := range runs {
		var cores, thr []string
		for i := range r.cores {
			cores = append(cores, fmt.Sprintf("%.2f", r.cores[i]))
			thr = append(thr, fmt.Sprint(r.throttled[i]))
		}
		var each []string
		for _, x := range perReplicaRPS(r.res, r.replicas) {
			each = append(each, num(x))
		}
		fmt.Fprintf(&s, "| %s | %s | %s | %s | %s | %s | %s | %s | %.2f |\n", r.label, num(r.res.RPS()), strings.Join(each, " + "), ms(r.res.P(50)), ms(r.res.P(95)), ms(r.res.P(99)),
			strings.Join(cores, " + "), strings.Join(thr, " + "), r.busy)
	}
	fmt.Fprintf(&s, "\nTwo replicas against one, pooled: ×%.2f (%s req/s on average over %d two-replica runs against %s req/s over %d single runs). "+
		"Each two-replica run against the better of the single runs either side of it: %s. The single runs span %s–%s req/s (×%.2f).\n",
		pooled, num(meanTwo), nTwo, num(meanOne), nOne, strings.Join(ratioText, ", "), num(lo), num(hi), hi/lo)
	e.rep.add(figure{area: "Replicas", name: "Dashboard throughput, two replicas against one (mix, cache off, PostgreSQL)", value: fmt.Sprintf("×%.2f", pooled),
		goal: "≥ ×1.7", ref: fmt.Sprintf("mean of %d two-replica runs %s req/s against %d single runs %s req/s (single runs %s–%s); each pair against its better neighbour: %s; each replica held to %.2g of a core",
			nTwo, num(meanTwo), nOne, num(meanOne), num(lo), num(hi), strings.Join(ratioText, ", "), c.replicaCPU), verdict: verdict(pooled >= 1.7)})
	e.rep.section("Replicas", "Replicas: one against two", s.String())
}
