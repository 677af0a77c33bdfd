// Command importer measures the history import end to end through its API: a generated
// CSV of 5-minute samples (time, serial number, power, energy counter, irradiance) is
// uploaded over HTTP (streamed), a job is started and followed to the end, and the rate and
// peak memory are set beside Writer.Backfill's own on the same samples in a fresh database.
//
//	go run ./bench/importer [-devices 200] [-days 30] [-retention 720h]
//
// Peak memory is the process's resident high-water mark (VmHWM), reset before each phase.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"iter"
	"log"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/importer"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

var (
	nDevices  = flag.Int("devices", 200, "devices")
	nDays     = flag.Int("days", 30, "days of 5-minute history (the issue's full size is 1095)")
	retention = flag.Duration("retention", 30*24*time.Hour, "raw retention")
	slice     = flag.Int("slice", 50_000, "samples per back-fill slice of the import")
	work      = flag.String("work", "", "working directory (default: a temporary one, removed)")
	cpuProf   = flag.String("cpuprofile", "", "write a CPU profile of the import job to this file")
	nFiles    = flag.Int("files", 1, "split the history into this many files, imported in turn (each deleted after its job): an organisation's import files hold at most 1 GiB together")
)

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	flag.Parse()
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

// end is the generated history's last instant: a fixed clock, so runs compare.
var end = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func run(ctx context.Context) error {
	var stored, rejected int64
	dir := *work
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "helio-bench-import-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	from := end.AddDate(0, 0, -*nDays)
	csvPath := filepath.Join(dir, "history.csv")
	var rows, size int64
	opt := telemetry.Options{RawRetention: *retention, Now: func() time.Time { return end.Add(time.Hour) }}

	// the import, through the API
	db, org, err := fleetDB(ctx, filepath.Join(dir, "import"))
	if err != nil {
		return err
	}
	w := telemetry.NewWriter(db, opt)
	im := &importer.Importer{DB: db, Writer: w, SliceSize: *slice}
	api := httpapi.New(func(*http.Request) (*httpapi.Principal, error) {
		return &httpapi.Principal{UserID: 1, OrgID: org, Role: "admin", StationAuthority: "all"}, nil
	})
	(&importer.Service{DB: db, Importer: im}).Routes(api)
	srv := httptest.NewServer(api)
	defer srv.Close()
	resetPeak()
	stopHeap := heapPeak()
	var upload, load time.Duration
	var job importer.Job
	var mapping importer.Mapping
	runner := &importer.Runner{Importer: im}
	if *cpuProf != "" {
		pf, err := os.Create(*cpuProf)
		if err != nil {
			return err
		}
		_ = pprof.StartCPUProfile(pf)
	}
	span := end.Sub(from) / time.Duration(*nFiles)
	for part := range *nFiles {
		a := from.Add(time.Duration(part) * span)
		b := from.Add(time.Duration(part+1) * span)
		if part == *nFiles-1 {
			b = end
		}
		t0 := time.Now()
		n, sz, err := writeCSV(csvPath, from, a.Truncate(5*time.Minute), b.Truncate(5*time.Minute))
		if err != nil {
			return err
		}
		rows, size = rows+n, size+sz
		log.Printf("file %d of %d: generated %d rows, %.1f MB, in %.1f s", part+1, *nFiles, n, float64(sz)/1e6, time.Since(t0).Seconds())
		t1 := time.Now()
		f, err := os.Open(csvPath)
		if err != nil {
			return err
		}
		var file importer.File
		err = call(srv.URL+"/v2/import/file/upload?name=history.csv", "text/csv", f, &file)
		f.Close()
		if err != nil {
			return err
		}
		upload += time.Since(t1)
		if part == 0 {
			var pv importer.Preview
			if err := call(srv.URL+"/v2/import/preview", "application/json", jsonBody(map[string]any{"fileId": file.ID}), &pv); err != nil {
				return err
			}
			mapping = pv.Mapping
		}
		req := map[string]any{"files": []map[string]any{{"fileId": file.ID}}, "mapping": mapping}
		if err := call(srv.URL+"/v2/import/job/start", "application/json", jsonBody(req), &job); err != nil {
			return err
		}
		t2 := time.Now()
		if _, err := runner.RunOne(ctx); err != nil {
			return err
		}
		load += time.Since(t2)
		if err := get(srv.URL+"/v2/import/job/"+strconv.FormatInt(job.ID, 10), &job); err != nil {
			return err
		}
		if job.State != importer.StateDone {
			return fmt.Errorf("job %s: %s", job.State, job.Error)
		}
		stored += job.Report.Stored
		rejected += job.Report.RejectedRows
		var none any
		if err := call(srv.URL+"/v2/import/file/delete", "application/json", jsonBody(map[string]any{"fileId": file.ID}), &none); err != nil {
			return err
		}
		log.Printf("file %d of %d imported: %d rows in %.1f s (job total %.1f s)", part+1, *nFiles, n, time.Since(t1).Seconds(), load.Seconds())
	}
	if *cpuProf != "" {
		pprof.StopCPUProfile()
	}
	importHeap, importAnon := stopHeap()
	importPeak := peakMiB()
	db.Close()

	// the back-fill alone, the same samples from memory in batches of 10,000
	db2, _, err := fleetDB(ctx, filepath.Join(dir, "backfill"))
	if err != nil {
		return err
	}
	defer db2.Close()
	runtime.GC()
	resetPeak()
	stopHeap = heapPeak()
	t3 := time.Now()
	res, err := telemetry.NewWriter(db2, opt).Backfill(ctx, samples(ctx, db2, from))
	if err != nil {
		return err
	}
	bf := time.Since(t3)
	bfHeap, bfAnon := stopHeap()
	bfPeak := peakMiB()

	rate := float64(rows) / (upload + load).Seconds()
	bfRate := float64(res.Samples) / bf.Seconds()
	fmt.Printf("History import: %d devices × %d days of 5-minute rows = %d rows (%.1f MB CSV), raw retention %s\n",
		*nDevices, *nDays, rows, float64(size)/1e6, *retention)
	fmt.Printf("| run | seconds | rows/s | peak RSS | peak anonymous RSS | peak Go heap |\n|---|---:|---:|---:|---:|---:|\n")
	fmt.Printf("| import: upload (HTTP, streamed) | %.1f | %.0f | | | |\n", upload.Seconds(), float64(rows)/upload.Seconds())
	fmt.Printf("| import: job (read, check, back-fill in slices of %d) | %.1f | %.0f | | | |\n", *slice, load.Seconds(), float64(rows)/load.Seconds())
	fmt.Printf("| import: upload + job | %.1f | %.0f | %.0f MiB | %.0f MiB | %.0f MiB |\n", (upload + load).Seconds(), rate, importPeak, importAnon, importHeap)
	fmt.Printf("| Writer.Backfill alone (samples from memory) | %.1f | %.0f | %.0f MiB | %.0f MiB | %.0f MiB |\n", bf.Seconds(), bfRate, bfPeak, bfAnon, bfHeap)
	fmt.Printf("import / back-fill rate: %.0f %% (job alone: %.0f %%); report: stored %d, rejected rows %d\n",
		100*rate/bfRate, 100*float64(rows)/load.Seconds()/bfRate, stored, rejected)
	return nil
}

// fleetDB opens a fresh SQLite database with one organisation, a station and the devices.
func fleetDB(ctx context.Context, dir string) (*store.DB, int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, err
	}
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		return nil, 0, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		return nil, 0, err
	}
	now := time.Now().UnixMilli()
	org, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES ('Bench', ?)", now)
	if err != nil {
		return nil, 0, err
	}
	st, err := db.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at)
		VALUES (?, 'Bench plant', 'Europe/Berlin', ?, ?, ?)`, org, 10**nDevices, now, now)
	if err != nil {
		return nil, 0, err
	}
	for i := 0; i < *nDevices; i++ {
		if _, err := db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, component_capacity_kwp,
			created_at, updated_at) VALUES (?, ?, ?, ?, 'inverter', 10, 10, ?, ?)`, org, st, fmt.Sprintf("Inverter %d", i), sn(i), now, now); err != nil {
			return nil, 0, err
		}
	}
	return db, org, nil
}

func sn(i int) string { return fmt.Sprintf("INV-%05d", i) }

// reading is device i's power (kW), counter (kWh) and irradiance at t (on a 5-minute step):
// a sun curve by the hour of the day, the counter its sum since from.
func reading(i int, t, from time.Time) (p, e, irr float64) {
	k := i % 5
	step := (t.Hour()*60 + t.Minute()) / 5
	days := math.Floor(t.Sub(from).Hours() / 24)
	c := curve()
	return c.power[k][step], math.Round((days*c.cum[k][288]+c.cum[k][step])*1000) / 1000, c.irr[step]
}

type curves struct {
	power [5][288]float64
	cum   [5][289]float64 // energy of the day up to each step
	irr   [288]float64
}

var theCurve *curves

func curve() *curves {
	if theCurve != nil {
		return theCurve
	}
	c := &curves{}
	for step := 0; step < 288; step++ {
		h := float64(step) / 12
		sun := math.Max(0, math.Sin((h-5)/15*math.Pi))
		c.irr[step] = math.Round(sun * 900)
		for k := 0; k < 5; k++ {
			c.power[k][step] = math.Round(sun*8*(1-0.04*float64(k))*1000) / 1000
			c.cum[k][step+1] = c.cum[k][step] + c.power[k][step]/12
		}
	}
	theCurve = c
	return c
}

// writeCSV writes the rows of [a, b) of the history that starts at from.
func writeCSV(path string, from, a, b time.Time) (rows int64, size int64, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString("Time,Serial Number,Power (kW),Total Yield (kWh),Irradiance (W/m2)\n")
	for t := a; t.Before(b); t = t.Add(5 * time.Minute) {
		ts := t.Format(time.RFC3339)
		for i := 0; i < *nDevices; i++ {
			p, e, irr := reading(i, t, from)
			fmt.Fprintf(bw, "%s,%s,%g,%g,%g\n", ts, sn(i), p, e, irr)
			rows++
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, 0, err
	}
	st, _ := f.Stat()
	return rows, st.Size(), f.Close()
}

// samples yields the CSV's samples in time order, 10,000 at a time.
func samples(ctx context.Context, db *store.DB, from time.Time) iter.Seq[[]telemetry.Sample] {
	ids, _ := store.IDs(ctx, db, "SELECT id FROM devices ORDER BY sn")
	return func(yield func([]telemetry.Sample) bool) {
		batch := make([]telemetry.Sample, 0, 10_000)
		for t := from; t.Before(end); t = t.Add(5 * time.Minute) {
			for i, id := range ids {
				p, e, irr := reading(i, t, from)
				s := telemetry.Sample{DeviceID: id, Time: t, PowerKW: p, EnergyKWh: e, IrradianceWm2: irr}
				if p > 0 {
					s.Status = telemetry.StatusRunning
				}
				batch = append(batch, s)
				if len(batch) == cap(batch) {
					if !yield(batch) {
						return
					}
					batch = batch[:0]
				}
			}
		}
		if len(batch) > 0 {
			yield(batch)
		}
	}
}

func jsonBody(v any) *bytes.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

func call(url, ctype string, body interface{ Read([]byte) (int, error) }, out any) error {
	resp, err := http.Post(url, ctype, body)
	if err != nil {
		return err
	}
	return decode(resp, out)
}

func get(url string, out any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return decode(resp, out)
}

func decode(resp *http.Response, out any) error {
	defer resp.Body.Close()
	var env struct {
		Code int             `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: %d %s", resp.Request.URL.Path, resp.StatusCode, env.Msg)
	}
	return json.Unmarshal(env.Data, out)
}

// heapPeak samples the Go heap in use and the anonymous resident memory (RssAnon: the
// heap, stacks and SQLite's page caches, without the pages of its memory-mapped file, which
// are the kernel's page cache) every 20 ms until stop is called, and answers both peaks in
// MiB. The resident high-water mark (peakMiB) also counts the mapped file's pages.
func heapPeak() (stop func() (heap, anon float64)) {
	done := make(chan struct{})
	peak := make(chan [2]float64)
	go func() {
		var m runtime.MemStats
		var max [2]float64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			max[0] = math.Max(max[0], float64(m.HeapInuse)/(1<<20))
			max[1] = math.Max(max[1], statusMiB("RssAnon:"))
			select {
			case <-done:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	return func() (float64, float64) { close(done); p := <-peak; return p[0], p[1] }
}

// resetPeak resets the process's resident high-water mark (Linux).
func resetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func peakMiB() float64 { return statusMiB("VmHWM:") }

// statusMiB reads one kB line of /proc/self/status, in MiB.
func statusMiB(key string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
			kb, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
			return kb / 1024
		}
	}
	return 0
}
