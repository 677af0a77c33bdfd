package main

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/load"
)

// replicaProfiler takes each replica's CPU profile, and its allocations before and after,
// over every measured window (-replica-profile DIR): what a replica spends its quota on
// with one replica and with two. Off when dir is empty.
type replicaProfiler struct {
	dir   string
	addrs map[*helio.Proc]string // each replica's --pprof-addr
	wg    sync.WaitGroup
}

// args gives a replica its profiler listener on loopback.
func (rp *replicaProfiler) args() ([]string, string, error) {
	if rp.dir == "" {
		return nil, "", nil
	}
	addr, err := helio.FreeAddr()
	if err != nil {
		return nil, "", err
	}
	return []string{"--pprof-addr", addr}, addr, nil
}

func (rp *replicaProfiler) add(p *helio.Proc, addr string) {
	if rp.dir == "" {
		return
	}
	if rp.addrs == nil {
		rp.addrs = map[*helio.Proc]string{}
	}
	rp.addrs[p] = addr
}

// window profiles the replicas of a run for d, from now on, in the background; wait
// collects the files. A profile that fails is logged, not fatal: the figure stands without it.
func (rp *replicaProfiler) window(label string, on []*helio.Proc, d time.Duration) {
	if rp.dir == "" {
		return
	}
	slug := fileSlug(label)
	for i, p := range on {
		addr := rp.addrs[p]
		base := filepath.Join(rp.dir, fmt.Sprintf("%s-replica-%d", slug, i+1))
		rp.wg.Add(1)
		go func() {
			defer rp.wg.Done()
			m0 := scrapeCounters(p.URL)
			rp.fetch(addr, "/debug/pprof/allocs", base+"-allocs-start.pprof", time.Minute)
			rp.fetch(addr, fmt.Sprintf("/debug/pprof/profile?seconds=%d", int(d.Seconds())), base+"-cpu.pprof", d+time.Minute)
			rp.fetch(addr, "/debug/pprof/allocs", base+"-allocs-end.pprof", time.Minute)
			m1 := scrapeCounters(p.URL)
			var b strings.Builder
			for _, k := range slices.Sorted(maps.Keys(m1)) {
				if v := m1[k] - m0[k]; v != 0 {
					fmt.Fprintf(&b, "%s %g\n", k, v)
				}
			}
			_ = os.WriteFile(base+"-counters.txt", []byte(b.String()), 0o644)
		}()
	}
}

func (rp *replicaProfiler) wait() { rp.wg.Wait() }

func (rp *replicaProfiler) fetch(addr, path, file string, timeout time.Duration) {
	c := &http.Client{Timeout: timeout}
	resp, err := c.Get("http://" + addr + path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replica profile %s: %v\n", file, err)
		return
	}
	defer resp.Body.Close()
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replica profile %s: %v\n", file, err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		fmt.Fprintf(os.Stderr, "replica profile %s: %v\n", file, err)
	}
}

// logs keeps the end of each replica's log beside its profiles.
func (rp *replicaProfiler) logs(procs []*helio.Proc) {
	if rp.dir == "" {
		return
	}
	for i, p := range procs {
		_ = os.WriteFile(filepath.Join(rp.dir, fmt.Sprintf("replica-%d.log", i+1)), []byte(p.Log()), 0o644)
	}
}

// perReplicaRPS is each replica's requests per second in a run (Config.Key names the replica).
func perReplicaRPS(r load.Result, replicas int) []float64 {
	out := make([]float64, replicas)
	for k, st := range r.ByKey {
		var i int
		if _, err := fmt.Sscanf(k, "replica %d", &i); err == nil && i >= 1 && i <= replicas {
			out[i-1] += float64(st.Requests) / max(r.Elapsed.Seconds(), 1e-9)
		}
	}
	return out
}

// perReplica is each replica's requests per second, for the log.
func perReplica(r load.Result, replicas int) string {
	var out []string
	for i, x := range perReplicaRPS(r, replicas) {
		out = append(out, fmt.Sprintf("replica %d %.0f req/s", i+1, x))
	}
	return strings.Join(out, ", ")
}

// calls keeps each replica's calls of a run: requests, mean and slowest latency.
func (rp *replicaProfiler) calls(label string, r load.Result) {
	if rp.dir == "" {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "replica\tcall\trequests\tmean\tslowest\n")
	for _, k := range slices.Sorted(maps.Keys(r.ByKey)) {
		st := r.ByKey[k]
		fmt.Fprintf(&b, "%s\t%d\t%s\t%s\n", k, st.Requests, (st.Sum / time.Duration(st.Requests)).Round(time.Microsecond), st.Max.Round(time.Microsecond))
	}
	_ = os.WriteFile(filepath.Join(rp.dir, fileSlug(label)+"-calls.tsv"), []byte(b.String()), 0o644)
}

// fileSlug makes a run's label a file name: "two replicas (1)" is two-replicas-1.
func fileSlug(label string) string {
	return strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(label)
}

// scrapeCounters reads a replica's counters of what its kept figures computed again
// (/metrics): the parts by why, and the fleet state's reads.
func scrapeCounters(base string) map[string]float64 {
	all, _ := helio.Metrics(base)
	out := map[string]float64{}
	for k, v := range all {
		if strings.HasPrefix(k, "helio_figures_parts_computed_total") || strings.HasPrefix(k, "helio_fleet_reads_total") {
			out[k] = v
		}
	}
	return out
}
