package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/internal/demo"
)

// phoneRoute is the screen a crew member opens first on a phone.
const phoneRoute = "/operations/workorder"

type phoneVisit struct {
	LCP        float64 `json:"lcp"`
	LCPElement string  `json:"lcpElement"`
	Runs       []int   `json:"runs"`
	LoadedMs   float64 `json:"loadedMs"`
	JSFiles    int     `json:"jsFiles"`
	JSRaw      float64 `json:"jsRaw"`
	JSGzip     float64 `json:"jsGzip"`
	JSWire     float64 `json:"jsWire"`
	// the scripts in by the time of the largest paint: what the first screen needed
	JSFirstFiles int     `json:"jsFirstFiles"`
	JSFirstGzip  float64 `json:"jsFirstGzip"`
	FromWorker   int     `json:"fromWorker"`
}

type phoneResult struct {
	Chromium string `json:"chromium"`
	Route    string `json:"route"`
	Link     struct {
		RTTMs    float64 `json:"rttMs"`
		DownBits float64 `json:"downBits"`
		UpBits   float64 `json:"upBits"`
	} `json:"link"`
	CPUSlowdown float64    `json:"cpuSlowdown"`
	WorkerReady bool       `json:"workerReady"`
	Cold        phoneVisit `json:"cold"`
	Warm        phoneVisit `json:"warm"`
}

// phone measures the work-order list as the demo's crew member opens it on a phone: a slow
// link and a slow CPU, cold and from the service worker's cache (bench/console/phone.mjs).
func (e *env) phone(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(e.root, "web", "node_modules", "playwright-core")); err != nil {
		return fmt.Errorf("web/node_modules/playwright-core missing: run make deps")
	}
	dir := filepath.Join(e.work, "phone-demo")
	os.RemoveAll(dir)
	defer os.RemoveAll(dir)
	p, err := helio.Start(ctx, e.bin, dir, "--demo", "--backfill-days", "2")
	if err != nil {
		return err
	}
	defer p.Stop()
	if _, err := p.WaitReady(5*time.Minute, 50*time.Millisecond); err != nil {
		return err
	}
	cl, err := helio.Login(p.URL, "operator", demo.Password)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, "node", filepath.Join(e.root, "bench", "console", "phone.mjs"),
		"--base", p.URL, "--token", cl.Token, "--route", phoneRoute, "--runs", fmt.Sprint(max(e.cfg.consoleRuns, 3)))
	cmd.Dir = e.root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/console/phone.mjs: %w", err)
	}
	var res phoneResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return fmt.Errorf("bench/console/phone.mjs: %w: %s", err, out.String())
	}
	log.Printf("   phone: LCP cold %.0f ms, warm %.0f ms, JS gzipped %.1f kB for the first screen (%.1f kB in all)", res.Cold.LCP, res.Warm.LCP, res.Cold.JSFirstGzip/1000, res.Cold.JSGzip/1000)
	e.reportPhone(&res)
	return nil
}

func (e *env) reportPhone(res *phoneResult) {
	r := e.rep
	d := func(v float64) string { return ms(time.Duration(v * float64(time.Millisecond))) }
	link := fmt.Sprintf("%.0f ms round trip, %.1f Mbit/s down, %.0f kbit/s up, CPU ÷%.0f", res.Link.RTTMs, res.Link.DownBits/1e6, res.Link.UpBits/1e3, res.CPUSlowdown)
	r.add(figure{area: "Console", name: "Work orders on a phone: LCP, cold", value: d(res.Cold.LCP), goal: "≤ 2.5 s",
		ref: fmt.Sprintf("%s; the same page warm %s", link, d(res.Warm.LCP)), verdict: verdict(res.Cold.LCP > 0 && res.Cold.LCP <= 2500)})
	r.add(figure{area: "Console", name: "Work orders on a phone: LCP, from the service worker's cache", value: d(res.Warm.LCP), goal: "≤ 1.0 s",
		ref:     fmt.Sprintf("%d files from the worker; cold %s", res.Warm.FromWorker, d(res.Cold.LCP)),
		verdict: verdict(res.WorkerReady && res.Warm.FromWorker > 0 && res.Warm.LCP > 0 && res.Warm.LCP <= 1000)})
	r.add(figure{area: "Console", name: "Work orders on a phone: JavaScript of the first screen, gzipped", value: kb(res.Cold.JSFirstGzip), goal: "≤ 300 kB",
		ref: fmt.Sprintf("%s of the budget; %d scripts in by the largest paint; %s in %d scripts with those fetched after it",
			pct(res.Cold.JSFirstGzip/300_000), res.Cold.JSFirstFiles, kb(res.Cold.JSGzip), res.Cold.JSFiles),
		verdict: verdict(res.Cold.JSFirstGzip > 0 && res.Cold.JSFirstGzip <= 300_000)})

	var b strings.Builder
	fmt.Fprintf(&b, "Headless Chromium %s as a phone (390 × 844 at 3×, touch, a phone's user agent; `bench/console/phone.mjs`) opens `%s` "+
		"as the demo's crew member (`operator`, a session token in local storage) on `helio serve --demo`. The CPU is slowed %.0f× "+
		"(Chromium's throttling) and every byte passes a TCP proxy in the measuring process that gives the link Lighthouse's "+
		"packet-level slow-4G figures: %.0f ms round trip, %.2f Mbit/s down, %.0f kbit/s up, shared by every connection (the "+
		"service worker's own fetches included). **Cold**: a fresh profile with empty caches. **Warm**: the same profile once its "+
		"service worker is ready, the page opened again: the console's files from the worker's cache, the data from the server. "+
		"LCP is the browser's Largest Contentful Paint entry after the network went idle, the median of the runs. *First screen* "+
		"counts the scripts in by the time of the largest paint; the page fetches its order detail and form while idle after it.\n\n",
		res.Chromium, res.Route, res.CPUSlowdown, res.Link.RTTMs, res.Link.DownBits/1e6, res.Link.UpBits/1e3)
	fmt.Fprintf(&b, "| visit | LCP (median) | runs (ms) | LCP element | network idle after | scripts (first screen) | JS gzipped (first screen) | JS on the wire | files from the worker |\n|---|---:|---|---|---:|---:|---:|---:|---:|\n")
	for _, v := range []struct {
		name string
		x    phoneVisit
	}{{"cold", res.Cold}, {"warm (service worker)", res.Warm}} {
		runs := make([]string, len(v.x.Runs))
		for i, n := range v.x.Runs {
			runs[i] = fmt.Sprint(n)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` | %s | %d (%d) | %s (%s) | %s | %d |\n", v.name, d(v.x.LCP), strings.Join(runs, ", "), v.x.LCPElement,
			d(v.x.LoadedMs), v.x.JSFiles, v.x.JSFirstFiles, kb(v.x.JSGzip), kb(v.x.JSFirstGzip), kb(v.x.JSWire), v.x.FromWorker)
	}
	if !res.WorkerReady {
		b.WriteString("\nThe service worker was not ready within a minute of a cold visit: the warm figure is not from its cache.\n")
	}
	r.section("Console", "On a phone", b.String())
}
