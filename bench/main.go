// Command bench is Helio's benchmark suite: one run measures ingest, the dashboard calls,
// a year of daily energy, the console, alarm push and the demo's start-up, each figure
// beside its goal and beside a floor or a peer measured in the same run, and writes
// docs/performance.md.
//
//	go run ./bench -bin bin/helio [-out docs/performance.md] [-quick] [-only ingest,dashboard,…]
//
// The default scales are the issue's; -quick runs everything small to check the pipeline.
// Every server it starts listens on loopback; every load loop is bounded in time and count.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/helio-energy/helio/bench/internal/machine"
)

// config is every scale the suite takes; defaults are the issue's.
type config struct {
	bin, out, work, only string
	section, title       string // write the page as this section of out, under this title (see section.go)
	keep, quick          bool

	ingestSamples, ingestDevices, ingestBackfillDays int
	ingestClients, ingestPerReq                      int

	stations, perStation, days   int
	scaleStations, scaleDays     string
	scaleDB, scalePG, scaleMQTT  string
	scaleInFlight                int
	replicaStations, replicaDays int
	replicaPairs                 int
	dashSlices                   int
	replicaCPU                   float64
	replicaNATS                  string
	replicaProfile               string
	replicaDuration              time.Duration
	clients                      int
	warmup, duration             time.Duration

	yearStations, yearDays, yearRuns int

	consoleRuns int

	pushClients, pushAlarms int
	pushUsers               string
	stormMQTT               string
	stormUsers, stormAlarms int
	stormRounds             int

	demoBackfillDays int

	importDevices, importDays int
}

func flags() *config {
	c := &config{}
	flag.StringVar(&c.bin, "bin", "bin/helio", "the helio binary, built with the console (make build)")
	flag.StringVar(&c.out, "out", "docs/performance.md", "where to write the results")
	flag.StringVar(&c.work, "work", "", "working directory for data (default: a temporary one, removed at the end)")
	flag.BoolVar(&c.keep, "keep", false, "keep the working directory; a later run with the same -work reuses its fleets")
	flag.StringVar(&c.only, "only", "", "run only these parts (comma-separated: ingest, year, dashboard, scale, replicas, console, phone, push, storm, demo, import)")
	flag.StringVar(&c.section, "section", "", "write the results as this named section of -out (make bench-large: large), keeping the rest of the page; without it, -out is rewritten and its sections are kept")
	flag.StringVar(&c.title, "title", "", "with -section: the section's title")
	flag.BoolVar(&c.quick, "quick", false, "run everything at a small scale, to check the pipeline")
	flag.IntVar(&c.ingestSamples, "ingest-samples", 400_000, "samples per ingest run (bench/ingest and InfluxDB)")
	flag.IntVar(&c.ingestDevices, "ingest-devices", 200, "devices of the ingest runs")
	flag.IntVar(&c.ingestBackfillDays, "ingest-backfill-days", 365, "days bench/ingest back-fills for its back-fill figure")
	flag.IntVar(&c.ingestClients, "ingest-clients", 4, "concurrent HTTP writers (bench/ingest and InfluxDB)")
	flag.IntVar(&c.ingestPerReq, "ingest-per-req", 1000, "samples per HTTP request (bench/ingest and InfluxDB)")
	flag.IntVar(&c.stations, "stations", 100, "dashboard fleet: stations")
	flag.IntVar(&c.perStation, "devices-per-station", 20, "dashboard fleet: devices per station")
	flag.IntVar(&c.days, "days", 90, "dashboard fleet: days of 5-minute history (the run is repeated with twice as many)")
	flag.IntVar(&c.clients, "clients", 50, "dashboard: concurrent clients")
	flag.IntVar(&c.dashSlices, "dash-slices", 4, "dashboard: slices each call's measured time is cut into, taken in turn across the histories")
	flag.StringVar(&c.scaleStations, "scale-stations", "1000", "dashboard as the fleet grows: station counts, one run each with the cache off (add 10000 for the large fleet)")
	flag.StringVar(&c.scaleDays, "scale-days", "7", "dashboard as the fleet grows: days of history, one for every fleet or one per -scale-stations entry (e.g. 7,1)")
	flag.StringVar(&c.scaleDB, "scale-db", "sqlite", "dashboard as the fleet grows: the database, sqlite or postgres (a database per fleet on -scale-pg)")
	flag.StringVar(&c.scalePG, "scale-pg", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "with -scale-db postgres: a PostgreSQL URL whose user may CREATE DATABASE")
	flag.StringVar(&c.scaleMQTT, "scale-mqtt", "mqtt://127.0.0.1:1883", "dashboard as the fleet grows: the MQTT broker one 5-minute round of every device is published to after the calls (empty: no round)")
	flag.IntVar(&c.scaleInFlight, "scale-mqtt-inflight", 20, "that broker's max_inflight_messages, passed to helio serve as --mqtt-inflight")
	flag.DurationVar(&c.warmup, "warmup", 2*time.Second, "dashboard: unmeasured warm-up per call")
	flag.DurationVar(&c.duration, "duration", 10*time.Second, "dashboard: measured time per call")
	flag.IntVar(&c.yearStations, "year-stations", 3, "year of daily energy: stations loaded into Helio and InfluxDB")
	flag.IntVar(&c.yearDays, "year-days", 365, "year of daily energy: days of history")
	flag.IntVar(&c.yearRuns, "year-runs", 30, "year of daily energy: times each question is asked")
	flag.IntVar(&c.consoleRuns, "console-runs", 5, "console: cold page loads per route")
	flag.IntVar(&c.replicaStations, "replica-stations", 1000, "replicas: stations of the PostgreSQL fleet (on -scale-pg's server)")
	flag.IntVar(&c.replicaDays, "replica-days", 1, "replicas: days of history")
	flag.IntVar(&c.replicaPairs, "replica-pairs", 3, "replicas: how many times two replicas are measured, each between two runs of one (the spread shows how far one run can be trusted)")
	flag.Float64Var(&c.replicaCPU, "replica-cpu", 0.25, "replicas: the CPU quota of each replica, in cores (two replicas, PostgreSQL and the load generator must fit on the machine: at 0.5 a 2-core machine is the limit, not the replicas)")
	flag.StringVar(&c.replicaNATS, "replica-nats", "nats://127.0.0.1:4222", "replicas: the NATS server the replicas share")
	flag.DurationVar(&c.replicaDuration, "replica-duration", 0, "replicas: each measured window (0: -duration). A replica at 10,000 stations collects its 470 MiB heap about every 25 s, most of a second of its quarter core each time: windows much shorter than that measure where the collections fall")
	flag.StringVar(&c.replicaProfile, "replica-profile", "", "replicas: write each replica's CPU profile and allocations over every measured window into this directory (empty: none)")
	flag.IntVar(&c.pushClients, "push-clients", 5000, "alarm push: WebSocket clients (bench/push)")
	flag.StringVar(&c.pushUsers, "push-users", "100,5000", "alarm push: user counts, one run each (bench/push)")
	flag.IntVar(&c.pushAlarms, "push-alarms", 40, "alarm push: alarms per run (bench/push)")
	flag.StringVar(&c.stormMQTT, "storm-mqtt", "mqtt://127.0.0.1:1883", "alarm storm: the MQTT broker of its ingest (bench/storm)")
	flag.IntVar(&c.stormUsers, "storm-users", 100, "alarm storm: users told of every alarm by every channel (bench/storm -channels)")
	flag.IntVar(&c.stormAlarms, "storm-alarms", 1000, "alarm storm: alarms in 10 s (bench/storm)")
	flag.IntVar(&c.stormRounds, "storm-rounds", 2, "alarm storm: rounds of (without, with) the storm (bench/storm)")
	flag.IntVar(&c.demoBackfillDays, "demo-backfill-days", 365, "demo start-up: days of back-fill (make demo's default)")
	flag.IntVar(&c.importDevices, "import-devices", 200, "history import: devices of the generated CSV (bench/importer)")
	flag.IntVar(&c.importDays, "import-days", 90, "history import: days of 5-minute rows (the issue's full size is 1095)")
	flag.Parse()
	if c.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		small := func(name string, v *int, q int) {
			if !set[name] {
				*v = q
			}
		}
		small("ingest-samples", &c.ingestSamples, 20_000)
		small("ingest-backfill-days", &c.ingestBackfillDays, 7)
		small("stations", &c.stations, 4)
		small("days", &c.days, 4)
		if !set["scale-days"] {
			c.scaleDays = "2"
		}
		if !set["scale-stations"] {
			c.scaleStations = "8"
		}
		small("clients", &c.clients, 8)
		small("year-stations", &c.yearStations, 1)
		small("year-days", &c.yearDays, 40)
		small("year-runs", &c.yearRuns, 5)
		small("replica-stations", &c.replicaStations, 8)
		small("console-runs", &c.consoleRuns, 1)
		small("push-clients", &c.pushClients, 100)
		small("push-alarms", &c.pushAlarms, 5)
		small("storm-users", &c.stormUsers, 10)
		small("storm-alarms", &c.stormAlarms, 100)
		small("storm-rounds", &c.stormRounds, 1)
		small("demo-backfill-days", &c.demoBackfillDays, 7)
		small("import-days", &c.importDays, 3)
		if !set["push-users"] {
			c.pushUsers = "10"
		}
		if !set["warmup"] {
			c.warmup = 300 * time.Millisecond
		}
		if !set["duration"] {
			c.duration = 2 * time.Second
		}
	}
	if c.replicaDuration <= 0 {
		c.replicaDuration = c.duration
	}
	return c
}

func (c *config) runs(part string) bool {
	if c.only == "" {
		return true
	}
	for _, p := range strings.Split(c.only, ",") {
		if strings.TrimSpace(p) == part {
			return true
		}
	}
	return false
}

func main() {
	// the packages the suite runs in-process log their warnings only; the suite's own
	// progress goes straight to standard error
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	log.SetOutput(os.Stderr)
	log.SetFlags(log.Ltime)
	c := flags()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, c *config) error {
	if c.section != "" && !sectionName.MatchString(c.section) {
		return fmt.Errorf("-section: %q is not a section name (lower-case letters, digits and dashes)", c.section)
	}
	bin, err := filepath.Abs(c.bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no helio binary at %s: run make build", bin)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	work := c.work
	if work == "" {
		if work, err = os.MkdirTemp("", "helio-bench-"); err != nil {
			return err
		}
	}
	if work, err = filepath.Abs(work); err != nil {
		return err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	if !c.keep {
		defer os.RemoveAll(work)
	}
	version, _ := exec.CommandContext(ctx, bin, "version").Output()
	r := &report{cfg: c, version: strings.TrimSpace(string(version)), facts: machine.Describe(), started: time.Now(),
		loadStart: machine.LoadAverage(), busyStart: machine.BusyCPU(), ownCPUAtStart: ownCPU()}
	env := &env{cfg: c, bin: bin, root: root, work: work, rep: r}
	log.Printf("helio bench: %s, work in %s", map[bool]string{true: "quick scale", false: "full scale"}[c.quick], work)
	parts := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"ingest", env.ingest},
		{"year", env.year},
		{"dashboard", env.dashboard},
		{"scale", env.scale},
		{"replicas", env.replicas},
		{"console", nil}, // runs inside dashboard, on the first fleet's server
		{"phone", env.phone},
		{"push", env.push},
		{"storm", env.storm},
		{"demo", env.demo},
		{"import", env.importHistory},
	}
	if c.runs("console") && !c.runs("dashboard") {
		for i := range parts {
			if parts[i].name == "console" {
				parts[i].fn = env.consoleOnly
			}
		}
	}
	for _, p := range parts {
		if !c.runs(p.name) {
			r.skipped = append(r.skipped, p.name)
			continue
		}
		if p.fn == nil {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		log.Printf("== %s", p.name)
		t0 := time.Now()
		if err := p.fn(ctx); err != nil {
			if ctx.Err() != nil {
				return err
			}
			log.Printf("%s failed: %v", p.name, err)
			r.failed = append(r.failed, fmt.Sprintf("%s: %v", p.name, err))
		}
		log.Printf("   %s took %s", p.name, time.Since(t0).Round(time.Second))
	}
	r.finished = time.Now()
	r.loadEnd = machine.LoadAverage()
	r.busyEnd = machine.BusyCPU()
	doc := r.markdown()
	out := c.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	old, err := os.ReadFile(out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if c.section != "" {
		doc = placeSection(string(old), c.section, demote(doc))
	} else {
		doc += keptSections(string(old))
	}
	if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
		return err
	}
	fmt.Println(r.summary())
	log.Printf("wrote %s", out)
	if len(r.failed) > 0 {
		return fmt.Errorf("%d part(s) failed: %s", len(r.failed), strings.Join(r.failed, "; "))
	}
	return nil
}

// env is what the parts share.
type env struct {
	cfg  *config
	bin  string
	root string // the repository
	work string
	rep  *report
}

// binName is the binary's path as the page shows it: relative to the repository when
// inside it.
func (e *env) binName() string {
	if rel, err := filepath.Rel(e.root, e.bin); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return e.bin
}

// repoRoot finds the module root from the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("run the benchmark inside the repository (no go.mod above %s)", dir)
		}
	}
}
