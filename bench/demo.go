package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/helio"
)

var backfillDone = regexp.MustCompile(`back-fill done.*samples=(\d+).*seconds=([\d.]+)`)

// startToReady runs the binary on a fresh data directory and times it from the process
// start to the first 200 from /readyz.
func (e *env) startToReady(ctx context.Context, name string, args ...string) (time.Duration, string, error) {
	dir := filepath.Join(e.work, name)
	os.RemoveAll(dir)
	defer os.RemoveAll(dir)
	p, err := helio.Start(ctx, e.bin, dir, args...)
	if err != nil {
		return 0, "", err
	}
	defer p.Stop()
	d, err := p.WaitReady(10*time.Minute, 20*time.Millisecond)
	return d, p.Log(), err
}

// demo times `make demo`'s start: helio serve --demo on a fresh data directory, with the
// year of back-fill, to /readyz 200; the floor is the same start without --demo.
func (e *env) demo(ctx context.Context) error {
	c := e.cfg
	floor, _, err := e.startToReady(ctx, "start-plain")
	if err != nil {
		return err
	}
	log.Printf("   plain start: %s", secs(floor))
	d, logs, err := e.startToReady(ctx, "start-demo", "--demo", "--backfill-days", fmt.Sprint(c.demoBackfillDays))
	if err != nil {
		return err
	}
	log.Printf("   demo start with %d days of back-fill: %s", c.demoBackfillDays, secs(d))
	samples, bf := "", ""
	if m := backfillDone.FindStringSubmatch(logs); m != nil {
		samples, bf = m[1], m[2]
	}
	r := e.rep
	r.scale = append(r.scale, fmt.Sprintf("Demo start-up: `helio serve --demo` on a fresh data directory with %d days of back-fill", c.demoBackfillDays))
	r.add(figure{area: "Demo", name: fmt.Sprintf("Start to ready (`--demo`, %d days of back-fill)", c.demoBackfillDays), value: secs(d), goal: "< 60 s",
		ref: fmt.Sprintf("plain start on a fresh directory %s (%s)", secs(floor), times(float64(d)/float64(floor))), verdict: verdict(d < 60*time.Second)})
	var b strings.Builder
	fmt.Fprintf(&b, "`make demo` runs `helio serve --demo` (after building): on a fresh data directory it migrates, seeds the demo organisations "+
		"and fleet, back-fills %d days of 5-minute history through the write path, and answers `/readyz` 200. Timed here from the process "+
		"start to the first 200 (polled every 20 ms), with the binary already built. The floor is `helio serve` on a fresh data "+
		"directory without `--demo` (migrations and the first administrator).\n\n", c.demoBackfillDays)
	fmt.Fprintf(&b, "| start | to /readyz 200 |\n|---|---:|\n| `helio serve` (fresh directory) | %s |\n| `helio serve --demo --backfill-days %d` (fresh directory) | %s |\n",
		secs(floor), c.demoBackfillDays, secs(d))
	if samples != "" {
		fmt.Fprintf(&b, "\nThe demo's log: back-fill of %s samples in %s s.\n", num(atof(samples)), bf)
	}
	r.section("Demo", "Demo start-up", b.String())
	return nil
}

func atof(s string) float64 {
	var v float64
	fmt.Sscanf(s, "%g", &v)
	return v
}
