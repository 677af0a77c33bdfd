package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/bench/internal/influx"
	"github.com/helio-energy/helio/bench/internal/ingestgen"
)

// fields is the number of values in an ingest sample; a point is one field value, as
// InfluxDB counts them.
const fields = 10

// ingestRow is one line of bench/ingest's table.
type ingestRow struct {
	name             string
	samples          int
	seconds, perSec  float64
	points, ofFloor  float64
	found            bool
	backfillLine     string
	backfillPerSec   float64
	backfillSamples  float64
	backfillSeconds  float64
	backfillGenerate float64
}

// goBuild builds a command of this module into the working directory.
func (e *env) goBuild(ctx context.Context, pkg, name string) (string, error) {
	out := filepath.Join(e.work, "bin", name)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = e.root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s: %w", pkg, err)
	}
	return out, nil
}

var (
	spaces   = regexp.MustCompile(`\s{2,}`)
	perMsgRe = regexp.MustCompile(`\((\d+)/msg\)`)
)

// parseIngest reads bench/ingest's output: the table rows (name, samples, seconds,
// samples/s, points/s, of floor) and the back-fill lines.
func parseIngest(out string) (floor, mqtt, http, lp ingestRow, bf ingestRow, err error) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		f := strings.Fields(line)
		if len(f) >= 6 && strings.HasSuffix(f[len(f)-1], "%") {
			vals := f[len(f)-5:]
			var r ingestRow
			r.name = strings.TrimSpace(strings.Join(f[:len(f)-5], " "))
			r.samples, _ = strconv.Atoi(vals[0])
			r.seconds, _ = strconv.ParseFloat(vals[1], 64)
			r.perSec, _ = strconv.ParseFloat(vals[2], 64)
			r.points, _ = strconv.ParseFloat(vals[3], 64)
			r.ofFloor, _ = strconv.ParseFloat(strings.TrimSuffix(vals[4], "%"), 64)
			r.found = r.samples > 0
			switch {
			case strings.HasPrefix(r.name, "raw insert floor"):
				floor = r
			case strings.HasPrefix(r.name, "MQTT"):
				mqtt = r
			case strings.HasPrefix(r.name, "HTTP"):
				http = r
			case strings.HasPrefix(r.name, "Line protocol"):
				lp = r
			}
		}
		if strings.HasPrefix(line, "Back-fill:") {
			bf.backfillLine = line
			fmt.Sscanf(spaces.ReplaceAllString(line[strings.Index(line, "=")+1:], " "), "%f", &bf.backfillSamples)
		}
		if strings.Contains(line, "samples/s;") && bf.backfillLine != "" {
			// "  12.3 s in all (0.4 s of it generating the samples): 123456 samples/s; …"
			fmt.Sscanf(line, "%f s in all (%f s", &bf.backfillSeconds, &bf.backfillGenerate)
			if i := strings.Index(line, "): "); i >= 0 {
				fmt.Sscanf(line[i+3:], "%f", &bf.backfillPerSec)
			}
			bf.found = true
		}
	}
	if !floor.found || !mqtt.found || !http.found || !lp.found {
		err = fmt.Errorf("bench/ingest output not understood:\n%s", out)
	}
	return
}

func (e *env) ingest(ctx context.Context) error {
	c := e.cfg
	bin, err := e.goBuild(ctx, "./bench/ingest", "bench-ingest")
	if err != nil {
		return err
	}
	args := []string{"-samples", fmt.Sprint(c.ingestSamples), "-devices", fmt.Sprint(c.ingestDevices),
		"-http-clients", fmt.Sprint(c.ingestClients), "-per-req", fmt.Sprint(c.ingestPerReq),
		"-backfill-days", fmt.Sprint(c.ingestBackfillDays)}
	log.Printf("   bench/ingest %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.work
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/ingest: %w\n%s", err, out.String())
	}
	floor, mqtt, httpRow, lineRow, bf, err := parseIngest(out.String())
	if err != nil {
		return err
	}

	log.Printf("   InfluxDB: the same samples as line protocol over /write")
	peer, version, err := e.influxIngest(ctx)
	if err != nil {
		return fmt.Errorf("InfluxDB: %w", err)
	}
	peerPoints := peer * fields

	r := e.rep
	perMsg := "?"
	if m := perMsgRe.FindStringSubmatch(mqtt.name); m != nil {
		perMsg = m[1]
	}
	r.scale = append(r.scale, fmt.Sprintf("Ingest: %s samples of %d fields (%s points) from %d devices per path; HTTP in requests of %d samples from %d clients, "+
		"MQTT in messages of %s samples (QoS 1)", num(float64(c.ingestSamples)), fields, num(float64(c.ingestSamples*fields)), c.ingestDevices,
		c.ingestPerReq, c.ingestClients, perMsg))
	ref := func(row ingestRow) string {
		return fmt.Sprintf("SQLite floor %s pts/s (%s of it); InfluxDB %s %s pts/s (%s)", num(floor.points), pct(row.points/floor.points),
			version, num(peerPoints), times(row.points/peerPoints))
	}
	r.add(figure{area: "Ingest", name: "MQTT → committed with roll-ups", value: num(mqtt.points) + " points/s",
		goal: "≥ 300 000 points/s and ≥ 50% of the floor", ref: ref(mqtt),
		verdict: verdict(mqtt.points >= 300_000 && mqtt.points >= floor.points/2)})
	r.add(figure{area: "Ingest", name: "MQTT, samples", value: num(mqtt.perSec) + " samples/s", ref: fmt.Sprintf("floor %s samples/s; InfluxDB %s samples/s",
		num(floor.perSec), num(peer))})
	r.add(figure{area: "Ingest", name: "HTTP → committed with roll-ups", value: num(httpRow.points) + " points/s", ref: ref(httpRow)})
	r.add(figure{area: "Ingest", name: "Line protocol → committed with roll-ups", value: num(lineRow.points) + " points/s",
		goal: "≥ 80% of MQTT JSON", ref: fmt.Sprintf("%s of MQTT JSON; %s", pct(lineRow.points/mqtt.points), ref(lineRow)),
		verdict: verdict(lineRow.points >= 0.8*mqtt.points)})
	r.add(figure{area: "Ingest", name: "HTTP, samples", value: num(httpRow.perSec) + " samples/s", ref: fmt.Sprintf("floor %s samples/s; InfluxDB %s samples/s",
		num(floor.perSec), num(peer))})

	var b strings.Builder
	fmt.Fprintf(&b, "A **point** is one field value, as InfluxDB counts them: one sample of %d fields (power, energy counter, DC voltage and current, "+
		"AC voltage, frequency, temperature, irradiance, status, active strings) is %d points. The Helio figures come from `bench/ingest` run as a "+
		"subprocess (`%s`); they time samples from sent to committed in SQLite with the latest row and every roll-up updated (MQTT: QoS 1 through "+
		"Mosquitto, acknowledged after the commit; HTTP: `POST /v2/ingest/samples` answered after the commit; line protocol: `POST /api/v2/write` "+
		"with the ten fields mapped by the organisation's rules, answered 204 after the commit). The floor is the same rows inserted "+
		"into a bare SQLite table with prepared multi-row INSERTs, 5 000 per transaction: no roll-ups, no validation, no network. The peer is "+
		"InfluxDB %s, started by the benchmark with its own configuration (WAL fsync on every write, its default), fed the same samples "+
		"(bench/ingest's generator, same devices and instants) as line protocol over HTTP `/write`, %d lines per request from %d clients, "+
		"timed from the first request to the last 204.\n\n", fields, fields, "bench/ingest "+strings.Join(args, " "), version, c.ingestPerReq, c.ingestClients)
	fmt.Fprintf(&b, "| path | samples | seconds | samples/s | points/s | of the floor | against InfluxDB |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for i, row := range []ingestRow{floor, mqtt, httpRow, lineRow} {
		who := "Helio: "
		if i == 0 {
			who = "SQLite floor: "
		}
		fmt.Fprintf(&b, "| %s%s | %s | %.2f | %s | %s | %s | %s |\n", who, row.name, num(float64(row.samples)), row.seconds, num(row.perSec), num(row.points),
			pct(row.points/floor.points), times(row.points/peerPoints))
	}
	fmt.Fprintf(&b, "| InfluxDB %s: HTTP /write, line protocol (%d/req) | %s | %.2f | %s | %s | %s | ×1 |\n\n", version, c.ingestPerReq,
		num(float64(c.ingestSamples)), float64(c.ingestSamples)/peer, num(peer), num(peerPoints), pct(peerPoints/floor.points))
	if bf.found {
		fmt.Fprintf(&b, "bench/ingest also back-fills history for its %d devices through `telemetry.Writer.Backfill`: %s — %.1f s, %s samples/s "+
			"(%s points/s).\n", c.ingestDevices, strings.TrimPrefix(bf.backfillLine, "Back-fill: "), bf.backfillSeconds, num(bf.backfillPerSec),
			num(bf.backfillPerSec*fields))
		r.add(figure{area: "Ingest", name: "Back-fill (history through the write path)", value: num(bf.backfillPerSec) + " samples/s",
			ref: fmt.Sprintf("%s of the floor's samples/s", pct(bf.backfillPerSec/floor.perSec))})
	}
	r.section("Ingest", "Ingest", b.String())
	return nil
}

// influxIngest feeds InfluxDB the ingest samples and returns samples per second.
func (e *env) influxIngest(ctx context.Context) (float64, string, error) {
	c := e.cfg
	dir := filepath.Join(e.work, "influx-ingest")
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, "", err
	}
	defer os.RemoveAll(dir)
	s, err := influx.Start(ctx, dir)
	if err != nil {
		return 0, "", err
	}
	defer s.Stop()
	if _, err := s.Query("", "CREATE DATABASE bench"); err != nil {
		return 0, "", err
	}
	k := c.ingestSamples / c.ingestDevices
	start := time.Now().Add(-time.Duration(k+1) * 5 * time.Minute).Truncate(5 * time.Minute)
	// the requests are encoded before the clock starts, spread over the clients
	// by device group as bench/ingest spreads its HTTP clients over collectors
	reqs := make([][][]byte, c.ingestClients)
	for cl := range c.ingestClients {
		var buf []byte
		n := 0
		for step := 0; step < k; step++ {
			for i := cl; i < c.ingestDevices; i += c.ingestClients {
				smp := ingestgen.Sample(start, i, step)
				buf = influx.AppendLine(buf, "telemetry", [][2]string{{"sn", fmt.Sprintf("SN%05d", i)}}, &smp, false)
				if n++; n == c.ingestPerReq {
					reqs[cl] = append(reqs[cl], buf)
					buf, n = nil, 0
				}
			}
		}
		if n > 0 {
			reqs[cl] = append(reqs[cl], buf)
		}
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, c.ingestClients)
	for cl := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, body := range reqs[cl] {
				if err := s.Write("bench", body); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	close(errs)
	if err := <-errs; err != nil {
		return 0, "", err
	}
	// check that every point is there
	b, err := s.Query("bench", "SELECT count(energy_kwh) FROM telemetry")
	if err != nil {
		return 0, "", err
	}
	series, err := influx.Parse(b)
	if err != nil || len(series) == 0 || len(series[0].Values) == 0 {
		return 0, "", fmt.Errorf("InfluxDB count: %s %v", b, err)
	}
	if got := influx.Float(series[0].Values[0][1]); int(got) != k*c.ingestDevices {
		return 0, "", fmt.Errorf("InfluxDB holds %v samples, %d were written", got, k*c.ingestDevices)
	}
	return float64(k*c.ingestDevices) / el.Seconds(), s.Version, nil
}
