package main

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// stormOut is what make bench reads of bench/storm -channels: the ingest rates with and
// without the storm, its tables as printed, and whether every delivery was sent.
type stormOut struct {
	with, without, delta float64
	runs, channels       []string
	lost                 []string // a storm run whose deliveries fell short or are not all sent
}

func parseStorm(out string) (*stormOut, error) {
	s := &stormOut{}
	found := false
	table := ""
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "ingest with the storm:"):
			if _, err := fmt.Sscanf(t, "ingest with the storm: %f samples/s against %f without (%f %%)", &s.with, &s.without, &s.delta); err == nil {
				found = true
			}
		case strings.HasPrefix(t, "| run "):
			table = "runs"
			s.runs = append(s.runs, t)
		case strings.HasPrefix(t, "| storm run "):
			table = "channels"
			s.channels = append(s.channels, t)
		case strings.HasPrefix(t, "|") && table == "runs":
			s.runs = append(s.runs, t)
		case strings.HasPrefix(t, "|") && table == "channels":
			s.channels = append(s.channels, t)
			c := cells(t)
			if len(c) < 6 || strings.HasPrefix(c[0], "-") {
				continue
			}
			var got, want int
			short := false
			if _, err := fmt.Sscanf(c[1], "%d (want %d)", &got, &want); err != nil || got < want {
				short = true // webhook calls: each delivery once at least
			}
			if _, err := fmt.Sscanf(c[3], "%d (want ≤ %d)", &got, &want); err != nil || got > want || got == 0 {
				short = true // e-mails: one digest per user
			}
			if _, err := fmt.Sscanf(c[4], "%d of %d", &got, &want); err != nil || got != want {
				short = true // every outbox row sent
			}
			if short {
				s.lost = append(s.lost, t)
			}
		case t == "":
			table = ""
		}
	}
	if !found || len(s.channels) == 0 {
		return nil, fmt.Errorf("bench/storm output not understood:\n%s", out)
	}
	return s, nil
}

// storm runs bench/storm with every channel on (app push, e-mail digests, webhooks) against
// MQTT ingest: it needs Mosquitto on -storm-mqtt and Mailpit (make bin/mailpit).
func (e *env) storm(ctx context.Context) error {
	c := e.cfg
	bin, err := e.goBuild(ctx, "./bench/storm", "bench-storm")
	if err != nil {
		return err
	}
	mailpit := filepath.Join(e.root, "bin", "mailpit")
	if _, err := os.Stat(mailpit); err != nil {
		return fmt.Errorf("no Mailpit at %s: run make bin/mailpit", mailpit)
	}
	args := []string{"-channels", "-mailpit", mailpit, "-mqtt", c.stormMQTT, "-users", fmt.Sprint(c.stormUsers),
		"-storm", fmt.Sprint(c.stormAlarms), "-rounds", fmt.Sprint(c.stormRounds)}
	log.Printf("   bench/storm %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.work
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/storm: %w\n%s", err, out.String())
	}
	res, err := parseStorm(out.String())
	if err != nil {
		return err
	}
	r := e.rep
	r.scale = append(r.scale, fmt.Sprintf("Alarm storm: %d alarms in 10 s to %d users, every channel on, %d rounds with and without (bench/storm -channels)",
		c.stormAlarms, c.stormUsers, c.stormRounds))
	r.add(figure{area: "Push", name: fmt.Sprintf("Ingest slowed by a storm of %d alarms to %d users, every channel on", c.stormAlarms, c.stormUsers),
		value: fmt.Sprintf("%.1f %%", -res.delta), goal: "< 20 %",
		ref:     fmt.Sprintf("%s samples/s with the storm, %s without", num(res.with), num(res.without)),
		verdict: verdict(-res.delta < 20 && len(res.lost) == 0)})
	r.add(figure{area: "Push", name: "Storm deliveries sent (webhooks, pushes, e-mail digests ≤ 1 per user)", value: map[bool]string{true: "all", false: "short"}[len(res.lost) == 0],
		goal: "all", ref: "outbox rows all sent after the storm", verdict: verdict(len(res.lost) == 0)})
	var b strings.Builder
	fmt.Fprintf(&b, "From `bench/storm` (`%s`), run as a subprocess: MQTT ingest through Mosquitto with and without a storm of faulty samples, "+
		"every user told of every alarm in-site, by app push (a push service on 127.0.0.1) and by e-mail with a 15-minute digest (Mailpit), "+
		"and two webhooks. Its tables, as it printed them:\n\n", "bench/storm "+strings.Join(args, " "))
	for _, line := range res.runs {
		fmt.Fprintln(&b, line)
	}
	b.WriteString("\n")
	for _, line := range res.channels {
		fmt.Fprintln(&b, line)
	}
	r.section("Push", "Alarm storm, every channel on", b.String())
	return nil
}
