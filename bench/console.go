package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/internal/demo"
)

// consoleRoutes are the console's screens, the sign-in page first.
var consoleRoutes = []string{"/login", "/monitor", "/station", "/station/tags", "/device", "/alarm", "/analysis", "/debug",
	"/operations/workorder", "/operations/plan", "/permission", "/tools", "/user/settings"}

type consoleRoute struct {
	Route      string  `json:"route"`
	Hash       string  `json:"hash"`
	LCP        float64 `json:"lcp"`
	LCPElement string  `json:"lcpElement"`
	JSFiles    int     `json:"jsFiles"`
	JSRaw      float64 `json:"jsRaw"`
	JSGzip     float64 `json:"jsGzip"`
	JSWire     float64 `json:"jsWire"`
	Gzipped    bool    `json:"gzipped"`
	Runs       []int   `json:"runs"`
}

type consoleResult struct {
	Chromium string `json:"chromium"`
	Runs     int    `json:"runs"`
	Baseline struct {
		LCP float64 `json:"lcp"`
	} `json:"baseline"`
	Routes []consoleRoute `json:"routes"`
}

// baselinePage serves one static heading: the browser's floor for a first paint over
// loopback on this machine.
func baselinePage() (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html><head><meta charset="utf-8"><title>baseline</title></head>` +
			`<body style="font-family:sans-serif"><h1>Helio — a static heading</h1><p>The browser's floor for a first contentful paint.</p></body></html>`))
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	return "http://" + l.Addr().String() + "/", func() { srv.Close() }, nil
}

// consoleOnly measures the console on the dashboard's first fleet without loading the
// dashboard (-only console).
func (e *env) consoleOnly(ctx context.Context) error {
	c := e.cfg
	spec := fleet.Spec{Stations: c.stations, DevicesPerStation: c.perStation, Days: c.days, Seed: benchSeed, RawRetention: rawRetention}
	dir, _, err := e.buildFleet(ctx, fmt.Sprintf("fleet-%dx%d-%dd", spec.Stations, spec.DevicesPerStation, spec.Days), spec)
	if err != nil {
		return err
	}
	p, err := helio.Start(ctx, e.bin, dir)
	if err != nil {
		return err
	}
	defer p.Stop()
	if _, err := p.WaitReady(3*time.Minute, 50*time.Millisecond); err != nil {
		return err
	}
	return e.console(ctx, p)
}

// console measures the console served by p (the dashboard fleet's server).
func (e *env) console(ctx context.Context, p *helio.Proc) error {
	log.Printf("== console (headless Chromium on the %d-station fleet)", e.cfg.stations)
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node not found")
	}
	if _, err := os.Stat(filepath.Join(e.root, "web", "node_modules", "playwright-core")); err != nil {
		return fmt.Errorf("web/node_modules/playwright-core missing: run make deps")
	}
	resp, err := http.Get(p.URL + "/")
	if err != nil {
		return err
	}
	var page bytes.Buffer
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	if !strings.Contains(page.String(), `id="root"`) {
		return fmt.Errorf("%s was built without the console: run make build", e.binName())
	}
	cl, err := helio.Login(p.URL, "admin", demo.Password)
	if err != nil {
		return err
	}
	base, stop, err := baselinePage()
	if err != nil {
		return err
	}
	defer stop()
	cctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, "node", filepath.Join(e.root, "bench", "console", "measure.mjs"),
		"--base", p.URL, "--token", cl.Token, "--baseline", base, "--runs", fmt.Sprint(e.cfg.consoleRuns),
		"--routes", strings.Join(consoleRoutes, ","))
	cmd.Dir = e.root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/console/measure.mjs: %w", err)
	}
	var res consoleResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return fmt.Errorf("bench/console/measure.mjs: %w: %s", err, out.String())
	}
	e.reportConsole(&res)
	return nil
}

func (e *env) reportConsole(res *consoleResult) {
	r := e.rep
	base := res.Baseline.LCP
	get := func(route string) consoleRoute {
		for _, x := range res.Routes {
			if x.Route == route {
				return x
			}
		}
		return consoleRoute{}
	}
	login, monitor := get("/login"), get("/monitor")
	lcpRef := func(v float64) string {
		if base <= 0 {
			return ""
		}
		return fmt.Sprintf("static page LCP %s (%s)", ms(time.Duration(base*float64(time.Millisecond))), times(v/base))
	}
	r.add(figure{area: "Console", name: "Sign-in page: JavaScript, gzipped", value: kb(login.JSGzip), goal: "≤ 150 kB",
		ref: fmt.Sprintf("%s of the budget", pct(login.JSGzip/150_000)), verdict: verdict(login.JSGzip <= 150_000)})
	r.add(figure{area: "Console", name: "Monitor: JavaScript, gzipped", value: kb(monitor.JSGzip), goal: "≤ 300 kB",
		ref: fmt.Sprintf("%s of the budget; sign-in page %s", pct(monitor.JSGzip/300_000), kb(login.JSGzip)), verdict: verdict(monitor.JSGzip <= 300_000)})
	r.add(figure{area: "Console", name: "Sign-in page: Largest Contentful Paint", value: ms(time.Duration(login.LCP * float64(time.Millisecond))),
		goal: "—", ref: lcpRef(login.LCP)})
	r.add(figure{area: "Console", name: "Monitor: Largest Contentful Paint", value: ms(time.Duration(monitor.LCP * float64(time.Millisecond))),
		goal: "≤ 1.0 s", ref: lcpRef(monitor.LCP), verdict: verdict(monitor.LCP > 0 && monitor.LCP <= 1000)})

	var b strings.Builder
	fmt.Fprintf(&b, "Headless Chromium %s (Debian's, driven by `bench/console/measure.mjs` with playwright-core), 1440 × 900, one cold visit per run "+
		"(fresh profile, empty cache) to each route of the real binary serving the dashboard fleet (%d stations); signed-in routes get a "+
		"session token in local storage before the page loads, as a returning user has. **JS, gzipped** is the sum over every script the "+
		"visit loaded of its gzip -9 size; *on the wire* is what the server sent (it serves gzip). **LCP** is the browser's Largest "+
		"Contentful Paint entry after the network went idle, the median of %d visits. The floor is the LCP of a static one-heading page "+
		"served over loopback in the same browser.\n\n", res.Chromium, e.cfg.stations, res.Runs)
	fmt.Fprintf(&b, "| route | landed on | scripts | JS, raw | JS, gzipped | on the wire | LCP (median) | LCP element | runs (ms) |\n|---|---|---:|---:|---:|---:|---:|---|---|\n")
	for _, x := range res.Routes {
		runs := make([]string, len(x.Runs))
		for i, v := range x.Runs {
			runs[i] = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %d | %s | %s | %s | %s | `%s` | %s |\n", x.Route, x.Hash, x.JSFiles, kb(x.JSRaw), kb(x.JSGzip), kb(x.JSWire),
			ms(time.Duration(x.LCP*float64(time.Millisecond))), x.LCPElement, strings.Join(runs, ", "))
	}
	fmt.Fprintf(&b, "\nStatic one-heading page: LCP %s.\n", ms(time.Duration(base*float64(time.Millisecond))))
	r.section("Console", "Console", b.String())
}
