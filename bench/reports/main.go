// Command reports measures report rendering: a year of 100 stations read from the roll-ups
// and written as XLSX and PDF (summary with monthly buckets, and a detail of every day), with
// the render time and the peak Go heap of each. The roll-ups are written straight into the
// database (a year of daily and monthly rows per station and kind), since what is measured
// is the read and the rendering, not the write path (bench/ingest measures that).
//
//	go run ./bench/reports -out docs/perf-analysis.md
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/report"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

func main() {
	out := flag.String("out", "", "write the figures as markdown here (default: standard output)")
	stations := flag.Int("stations", 100, "stations in the report")
	runs := flag.Int("runs", 3, "renders per case (the median is kept)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run here")
	overviewOnly := flag.Bool("overview-only", false, "time the data overview only, render no report")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*out, *stations, *runs, *overviewOnly); err != nil {
		log.Print(err)
		return
	}
}

func run(out string, n, runs int, overviewOnly bool) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "helio-bench-reports-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		return err
	}
	year := time.Now().Year() - 1
	log.Printf("seeding %d stations with a year (%d) of daily and monthly roll-ups", n, year)
	ids, err := seed(ctx, db, acc.OrgID, n, year)
	if err != nil {
		return err
	}
	p := &httpapi.Principal{UserID: acc.AdminID, OrgID: acc.OrgID, Role: "admin", StationAuthority: "all"}
	b := &report.Builder{DB: db,
		Measure: &analysis.Measurer{Rollups: analysis.ReaderRollups{Reader: telemetry.NewReader(db, telemetry.Options{})}, EmissionFactor: 0.475}}
	metrics := analysis.MetricKeys()
	cases := []struct {
		name, layout, format string
		per                  analysis.Period
	}{}
	yearPer, _ := analysis.ParsePeriod(analysis.PeriodYear, fmt.Sprint(year), "", "")
	daysPer, _ := analysis.ParsePeriod(analysis.PeriodCustom, "", fmt.Sprintf("%d-01-01", year), fmt.Sprintf("%d-12-31", year))
	for _, f := range []string{"xlsx", "pdf", "csv"} {
		cases = append(cases,
			struct {
				name, layout, format string
				per                  analysis.Period
			}{"year, monthly buckets, summary + detail", "detail", f, yearPer},
			struct {
				name, layout, format string
				per                  analysis.Period
			}{"year, daily buckets, summary + detail", "detail", f, daysPer})
	}
	overview, err := overviewP95(ctx, db, p, yearPer, year)
	if err != nil {
		return err
	}
	if overviewOnly {
		fmt.Print(overview)
		return nil
	}
	var rows []string
	for _, c := range cases {
		params := report.Params{SelectionMode: "stations", StationIDs: ids, Template: c.layout, Language: "ja-JP", Format: c.format, Metrics: metrics}
		var times, cpus []float64
		var peak uint64
		var size int
		for i := 0; i < runs; i++ {
			runtime.GC()
			var base runtime.MemStats
			runtime.ReadMemStats(&base)
			stop := sampleHeap()
			start, cpu0 := time.Now(), cpuTime()
			d, err := b.Build(ctx, p, params, c.per, nil)
			if err != nil {
				return err
			}
			read := time.Since(start)
			cw := &countWriter{}
			switch c.format {
			case "xlsx":
				err = report.WriteXLSX(cw, d)
			case "pdf":
				err = report.WritePDF(cw, d)
			default:
				err = report.WriteCSV(cw, d)
			}
			if err != nil {
				return err
			}
			total := time.Since(start)
			cpus = append(cpus, cpuTime()-cpu0)
			hp := stop()
			if hp > base.HeapInuse && hp-base.HeapInuse > peak {
				peak = hp - base.HeapInuse
			}
			size = cw.n
			times = append(times, total.Seconds())
			log.Printf("%s %s: read %.2f s, total %.2f s, %d bytes", c.format, c.name, read.Seconds(), total.Seconds(), cw.n)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %.2f s | %.2f s | %.0f MiB | %.1f MiB |", strings.ToUpper(c.format), c.name, median(times),
			median(cpus), float64(peak)/(1<<20), float64(size)/(1<<20)))
	}
	md := fmt.Sprintf(`## Analysis: report rendering

%d stations, one year (%d) of roll-ups, every KPI, Japanese (the PDF embeds Latin, Hangul and
CJK glyphs), summary and detail; read from the roll-ups and rendered in one process on this
machine (%d cores, %s, load average %.0f when done). Time is the median of %d renders from the
first read to the last byte, CPU time the process's user and system time over the same span (on a
busy machine the wall time is mostly waiting for a core);
peak heap is the most Go heap in use above the starting point, sampled every millisecond. The PDF's
detail is the fleet's buckets, the XLSX's and CSV's every station's.

| format | period | render time | CPU time | peak heap | file |
|---|---|---|---|---|---|
%s

%s

Measured by `+"`go run ./bench/reports -out docs/perf-analysis.md`"+` (part of `+"`make bench`"+`) at %s.
`, n, year, runtime.NumCPU(), runtime.Version(), loadAverage(), runs, strings.Join(rows, "\n"), overview, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if out == "" {
		fmt.Print(md)
		return nil
	}
	return os.WriteFile(filepath.Clean(out), []byte(md), 0o644)
}

// overviewP95 times the data overview's work for the whole fleet (its stations' buckets read,
// combined and the KPIs computed per bucket), one call after another: as the server reads
// them, from the in-memory fleet state (built once, as at start-up, on the last day of the
// seeded year) with the roll-ups behind it for what the state does not keep.
func overviewP95(ctx context.Context, db *store.DB, p *httpapi.Principal, yearPer analysis.Period, year int) (string, error) {
	now := func() time.Time { return time.Date(year, 12, 31, 23, 0, 0, 0, time.UTC) }
	opts := telemetry.Options{Now: now}
	reader := telemetry.NewReader(db, opts)
	state := fleet.New(db, telemetry.NewWriter(db, opts), now)
	built := time.Now()
	if err := state.Build(ctx); err != nil {
		return "", err
	}
	buildTime := time.Since(built)
	// pack the finished months, as the server's packer does
	packed, packStart := 0, time.Now()
	w := telemetry.NewWriter(db, opts)
	for {
		n, err := w.PackMonths(ctx, 100)
		if err != nil {
			return "", err
		}
		if n == 0 {
			break
		}
		packed += n
	}
	packTime := time.Since(packStart)
	m := &analysis.Measurer{Now: now, Rollups: analysis.FleetRollups{Fleet: state, Fallback: analysis.ReaderRollups{Reader: reader}}}
	monthPer, _ := analysis.ParsePeriod(analysis.PeriodMonth, fmt.Sprintf("%d-12", year), "", "")
	oldPer, _ := analysis.ParsePeriod(analysis.PeriodMonth, fmt.Sprintf("%d-06", year), "", "")
	out := "| overview, whole fleet | read from | p50 | p95 | mean CPU time | goal |\n|---|---|---|---|---|---|\n"
	for _, c := range []struct {
		name, from string
		per        analysis.Period
	}{
		{"a month (daily buckets)", "fleet state", monthPer},
		{"a year (monthly buckets)", "fleet state", yearPer},
		{"a month older than the fleet state keeps (daily buckets)", "packed station months", oldPer},
	} {
		var times []float64
		cpu0 := cpuTime()
		for i := 0; i < 60; i++ {
			start := time.Now()
			sts, err := analysis.Stations(ctx, db, p, nil)
			if err != nil {
				return "", err
			}
			got, err := m.Stations(ctx, sts, c.per)
			if err != nil {
				return "", err
			}
			list := make([]*analysis.Measured, 0, len(sts))
			for _, st := range sts {
				list = append(list, got[st.ID])
			}
			ms := analysis.Combine(list)
			site := analysis.FleetSite(sts)
			for _, b := range ms.Buckets {
				analysis.Compute(b, site)
			}
			times = append(times, time.Since(start).Seconds()*1000)
		}
		cpu := (cpuTime() - cpu0) / 60 * 1000
		p50 := median(times)
		p95 := times[len(times)*95/100]
		verdict := "met"
		if p95 >= 20 {
			verdict = "missed"
		}
		out += fmt.Sprintf("| %s | %s | %.1f ms | %.1f ms | %.1f ms | < 20 ms (read path): %s |\n", c.name, c.from, p50, p95, cpu, verdict)
	}
	return fmt.Sprintf("The data overview's own work (no HTTP, no answer cache), 60 calls one after another; the fleet "+
		"state (as of the seeded year's last day) built once beforehand in %.0f ms, and the %d finished station months "+
		"packed in %.0f ms:\n\n", buildTime.Seconds()*1000, packed, packTime.Seconds()*1000) + out, nil
}

// cpuTime is the process's user and system time, in seconds.
func cpuTime() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Sec+u.Stime.Sec) + float64(u.Utime.Usec+u.Stime.Usec)/1e6
}

// loadAverage is the one-minute load average (0 when unknown).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	_, _ = fmt.Sscan(string(b), &l)
	return l
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// sampleHeap samples HeapInuse every millisecond until the returned function is called,
// which answers the highest value seen.
func sampleHeap() func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

func median(v []float64) float64 {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	return v[len(v)/2]
}

// seed stores n stations with inverters and grid meters, and a year of their daily and
// monthly roll-ups (a sunny-ish sine over the year, a little weather noise).
func seed(ctx context.Context, db *store.DB, orgID int64, n, year int) ([]int64, error) {
	zones := []string{"Asia/Shanghai", "Asia/Tokyo", "Europe/Madrid", "America/Los_Angeles", "Asia/Seoul"}
	var ids []int64
	for i := 0; i < n; i++ {
		st := &station.Station{OrgID: orgID, Name: fmt.Sprintf("ベンチ発電所 %03d", i+1), Location: "bench", Timezone: zones[i%len(zones)],
			StationType: "ground", SystemType: "pv_storage", CapacityKWp: 500 + float64(i%7)*100, Currency: "JPY", PricePerKWh: 20, SubsidyPerKWh: 2}
		id, err := station.Insert(ctx, db, st)
		if err != nil {
			return nil, err
		}
		for j := 0; j < 4; j++ {
			if _, err := db.Exec(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, custom_type, model, meter_position, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'inverter', '', '', '', 0, 0)`, orgID, id, fmt.Sprintf("INV-%d", j), fmt.Sprintf("B%03d-%d", i, j)); err != nil {
				return nil, err
			}
		}
		ids = append(ids, id)
		cal := telemetry.CalendarFor(st.Timezone)
		err = db.InTx(ctx, func(tx *store.Tx) error {
			first := time.Date(year, 1, 1, 12, 0, 0, 0, cal.Loc).UnixMilli()
			var month struct {
				start, end int64
				pv, ref    float64
			}
			flush := func() error {
				if month.end == 0 {
					return nil
				}
				return insertRollup(ctx, tx, id, "inverter", telemetry.Month, month.start, month.end, month.pv, 0, month.ref)
			}
			for d := 0; d < 365; d++ {
				s, e := cal.Day(first + int64(d)*24*3600*1000)
				season := 0.6 + 0.4*math.Sin(float64(d)/365*2*math.Pi-math.Pi/2)
				noise := 0.8 + 0.2*math.Sin(float64(d*(i+3)))
				pv := st.CapacityKWp * 4.5 * season * noise
				ref := pv / 0.82
				if err := insertRollup(ctx, tx, id, "inverter", telemetry.Day, s, e, pv, 0, ref); err != nil {
					return err
				}
				if err := insertRollup(ctx, tx, id, "meter:grid", telemetry.Day, s, e, pv*0.05, pv*0.7, 0); err != nil {
					return err
				}
				ms, me := cal.Month(s)
				if ms != month.start {
					if err := flush(); err != nil {
						return err
					}
					month.start, month.end, month.pv, month.ref = ms, me, 0, 0
				}
				month.pv += pv
				month.ref += ref
			}
			return flush()
		})
		if err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func insertRollup(ctx context.Context, tx *store.Tx, id int64, kind string, res telemetry.Resolution, start, end int64, e1, e2, ref float64) error {
	samples := (end - start) / 300000
	temp := 30.0 * float64(samples)
	online := float64(end-start) / 60000
	if kind != "inverter" {
		online, temp = 0, 0
	} else {
		online *= 4 // four inverters
	}
	_, err := tx.Exec(ctx, `INSERT INTO telemetry_station_rollups (station_id, kind, res, bucket, bucket_end, energy_kwh, energy2_kwh, power_kwh,
		max_power_kw, min_power_kw, samples, irradiance_sum, irradiation_kwh_m2, ref_energy_kwh, fault_min, online_min, dc_voltage_sum,
		dc_current_sum, ac_voltage_sum, frequency_sum, temp_sum, soc_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, 0, 0, ?, 0, ?, 0, 0, 0, 0, ?, 0)`,
		id, kind, int(res), start, end, e1, e2, e1, samples, ref, online, temp)
	return err
}
