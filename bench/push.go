package main

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// pushOut is bench/push's output: its table (kept as printed), the notes after it, and
// the figures read from the columns by name.
type pushOut struct {
	head  string
	table []string
	notes []string
	rows  []pushRow
}

type pushRow struct {
	users, clients     int
	connect            time.Duration
	frames, expected   int
	p50, p90, p99, max time.Duration
}

func cells(line string) []string {
	c := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

func parsePush(out string) (*pushOut, error) {
	p := &pushOut{}
	var cols map[string]int
	after := false
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "alarm push:"):
			p.head = t
		case strings.HasPrefix(t, "| users"):
			p.table = append(p.table, t)
			cols = map[string]int{}
			for i, name := range cells(t) {
				cols[name] = i
			}
		case strings.HasPrefix(t, "|") && cols != nil:
			p.table = append(p.table, t)
			c := cells(t)
			get := func(name string) string {
				if i, ok := cols[name]; ok && i < len(c) {
					return c[i]
				}
				return ""
			}
			users, err := strconv.Atoi(get("users"))
			if err != nil {
				continue // the rule under the header
			}
			r := pushRow{users: users}
			r.clients, _ = strconv.Atoi(get("clients held"))
			r.connect, _ = time.ParseDuration(get("connect all"))
			fmt.Sscanf(get("frames received"), "%d / %d", &r.frames, &r.expected)
			r.p50, _ = time.ParseDuration(get("p50"))
			r.p90, _ = time.ParseDuration(get("p90"))
			r.p99, _ = time.ParseDuration(get("p99"))
			r.max, _ = time.ParseDuration(get("max"))
			p.rows = append(p.rows, r)
			after = true
		case after && t != "":
			p.notes = append(p.notes, t)
		}
	}
	if len(p.rows) == 0 {
		return nil, fmt.Errorf("bench/push output not understood:\n%s", out)
	}
	return p, nil
}

func (e *env) push(ctx context.Context) error {
	c := e.cfg
	bin, err := e.goBuild(ctx, "./bench/push", "bench-push")
	if err != nil {
		return err
	}
	args := []string{"-clients", fmt.Sprint(c.pushClients), "-users", c.pushUsers, "-alarms", fmt.Sprint(c.pushAlarms)}
	log.Printf("   bench/push %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.work
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench/push: %w\n%s", err, out.String())
	}
	res, err := parsePush(out.String())
	if err != nil {
		return err
	}
	r := e.rep
	r.scale = append(r.scale, fmt.Sprintf("Alarm push: %d WebSocket clients, spread over %s users, %d alarms per run (bench/push)",
		c.pushClients, c.pushUsers, c.pushAlarms))
	first := res.rows[0]
	for _, x := range res.rows {
		ref := fmt.Sprintf("%s / %s frames received; p50 %s", num(float64(x.frames)), num(float64(x.expected)), ms(x.p50))
		if x.users != first.users && first.p99 > 0 {
			ref += fmt.Sprintf("; %d users: p99 %s (%s)", first.users, ms(first.p99), times(float64(x.p99)/float64(first.p99)))
		}
		r.add(figure{area: "Push", name: fmt.Sprintf("WebSocket clients held (%d users)", x.users), value: num(float64(x.clients)),
			goal: "5 000", ref: fmt.Sprintf("connected in %s", secs(x.connect)), verdict: verdict(x.clients >= 5000)})
		r.add(figure{area: "Push", name: fmt.Sprintf("Alarm → every client, p99 (%d users)", x.users), value: ms(x.p99), goal: "< 100 ms",
			ref: ref, verdict: verdict(x.p99 < 100*time.Millisecond && x.frames == x.expected)})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From `bench/push` (`%s`), run as a subprocess: a faulty sample handed to the alarm engine → rule evaluation, the alarm row, "+
		"every user's notification decision and message, the event bus and the hub's fan-out → the message frame read by every WebSocket "+
		"client, over loopback on this machine. Its own table, as it printed it (%s):\n\n", "bench/push "+strings.Join(args, " "), res.head)
	for _, line := range res.table {
		fmt.Fprintln(&b, line)
	}
	if len(res.notes) > 0 {
		fmt.Fprintf(&b, "\n%s\n", strings.Join(res.notes, "  \n"))
	}
	r.section("Push", "Alarm push", b.String())
	return nil
}
