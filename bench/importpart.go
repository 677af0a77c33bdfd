package main

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

var (
	importRateRe = regexp.MustCompile(`import / back-fill rate: (\d+) %`)
	importPeakRe = regexp.MustCompile(`\| import: upload \+ job \| [\d.]+ \| (\d+) \| (\d+) MiB \| (\d+) MiB \|`)
)

// importHistory runs bench/importer: a generated CSV through the import API against
// Writer.Backfill on the same samples.
func (e *env) importHistory(ctx context.Context) error {
	c := e.cfg
	bin, err := e.goBuild(ctx, "./bench/importer", "bench-importer")
	if err != nil {
		return err
	}
	args := []string{"-devices", fmt.Sprint(c.importDevices), "-days", fmt.Sprint(c.importDays)}
	log.Printf("   bench/importer %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.work
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/importer: %w\n%s", err, out.String())
	}
	text := out.String()
	if m := importRateRe.FindStringSubmatch(text); m != nil {
		pctRate, _ := strconv.Atoi(m[1])
		e.rep.add(figure{area: "Ingest", name: "History import (CSV through the API), of the back-fill's rate", value: m[1] + " %",
			goal: "≥ 50 %", verdict: verdict(pctRate >= 50)})
	}
	if m := importPeakRe.FindStringSubmatch(text); m != nil {
		peak, _ := strconv.Atoi(m[2])
		// the goal is the process's resident size, which also holds SQLite's page cache and
		// mapped file; the Go heap is the importer's own share
		e.rep.add(figure{area: "Ingest", name: "History import, peak memory (resident)", value: m[2] + " MiB", goal: "< 300 MiB",
			ref: fmt.Sprintf("Go heap %s MiB; %s rows/s", m[3], m[1]), verdict: verdict(peak < 300)})
	}
	e.rep.section("Ingest", "History import", "From `bench/importer "+strings.Join(args, " ")+"`:\n\n"+text)
	return nil
}
