package main

import (
	"strings"
	"testing"
)

const stormOutput = `
alarm storm: 1000 alarms over 10 s, 100 users notified of each, MQTT workload of 200 devices (20 samples/message), window 12s, SQLite

| run | ingest samples | seconds | samples/s | alarms | decisions | messages | passes pending | settled after | raw rows | load before → after |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
| without storm | 841040 | 12.08 | 69601 | 0 | 0 | 0 | 0 | 0s | 841040 / 841040 | 1.29 → 1.24 |
| with storm | 383040 | 12.15 | 61535 | 1000 | 100000 | 100000 | 0 | 0s | 384040 / 384040 | 1.22 → 1.65 |

ingest with the storm: 61535 samples/s against 69601 without (-11.6 %); expected per storm run: 1000 alarms, 100000 decisions and messages

every channel on: each alarm to 100 users by app push and e-mail (15-minute digest), and to two webhooks

| storm run | webhook calls | pushes (deliveries they carry) | e-mails | deliveries sent | all sent after settling |
|---|---:|---:|---:|---:|---:|
| 1 | 2000 (want 2000) | 200 (100000) | 100 (want ≤ 100) | 202000 of 202000 | 29.15s |
`

func TestParseStorm(t *testing.T) {
	s, err := parseStorm(stormOutput)
	if err != nil {
		t.Fatal(err)
	}
	if s.with != 61535 || s.without != 69601 || s.delta != -11.6 || len(s.runs) != 4 || len(s.channels) != 3 || len(s.lost) != 0 {
		t.Fatalf("%+v", s)
	}
	// a digest too many, and a row left pending: both are lost deliveries' marks
	bad := strings.Replace(stormOutput, "100 (want ≤ 100) | 202000 of 202000", "101 (want ≤ 100) | 201999 of 202000", 1)
	if s, err := parseStorm(bad); err != nil || len(s.lost) != 1 {
		t.Fatalf("%+v, %v", s, err)
	}
	if _, err := parseStorm("nothing"); err == nil {
		t.Fatal("no error for output without the figures")
	}
}
