package main

import (
	"testing"
	"time"
)

// The suite reads the tables of bench/ingest and bench/push; these are their outputs as
// they print them. A change of either that breaks the reading fails here first.

const ingestOutput = `
Helio telemetry ingest on SQLite — 200 devices, 10-field samples (1 sample = 10 points)

path                                            samples  seconds   samples/s     points/s  of floor
raw insert floor (bare table, 5000 per tx)        40000     0.20      202521      2025213      100%
MQTT QoS 1 → committed + roll-ups (100/msg)       40000     0.38      105974      1059737       52%
HTTP POST → committed + roll-ups (1000/req)       40000     0.86       46642       466420       23%
Line protocol POST /api/v2/write (1000/req)       40000     0.95       42105       421050       21%

Back-fill: 10 days × 200 devices = 576000 samples, raw retention 720h0m0s
  2.9 s in all (0.1 s of it generating the samples): 200842 samples/s; 576000 raw rows and 2948 day roll-up rows written
`

const pushOutput = `users 5: 50 clients connected in 403ms

alarm push: 3 alarms per run, bus local, database sqlite, GOMAXPROCS 2, open-file limit 20000

| users | clients held | connect all | frames received | p50 | p90 | p99 | max | server RSS | server goroutines | engine p50 | server CPU / alarm | client CPU / alarm | load avg |
|------:|-------------:|------------:|----------------:|----:|----:|----:|----:|-----------:|------------------:|-----------:|-------------------:|-------------------:|---------:|
| 5 | 50 | 403ms | 150 / 150 | 3.7ms | 4.3ms | 5.4ms | 5.4ms | 43 MB | 107 | 1.9ms | 3.1ms | 1.4ms | 12.8 |

engine: Engine.Observe of the faulty sample (rule, alarm row, every user's decision and message committed).
p50…max: faulty sample handed to Engine.Observe → message frame read by the client, over every (alarm, client) pair.
`

func TestParseIngest(t *testing.T) {
	floor, mqtt, http, lp, bf, err := parseIngest(ingestOutput)
	if err != nil {
		t.Fatal(err)
	}
	if floor.points != 2025213 || mqtt.points != 1059737 || http.perSec != 46642 || mqtt.samples != 40000 || http.seconds != 0.86 {
		t.Errorf("rows: %+v %+v %+v", floor, mqtt, http)
	}
	if lp.points != 421050 || lp.samples != 40000 {
		t.Errorf("line protocol row: %+v", lp)
	}
	if m := perMsgRe.FindStringSubmatch(mqtt.name); m == nil || m[1] != "100" {
		t.Errorf("samples per message not found in %q", mqtt.name)
	}
	if !bf.found || bf.backfillPerSec != 200842 || bf.backfillSeconds != 2.9 || bf.backfillSamples != 576000 {
		t.Errorf("back-fill: %+v", bf)
	}
}

func TestParsePush(t *testing.T) {
	p, err := parsePush(pushOutput)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.rows) != 1 || len(p.table) != 3 || len(p.notes) != 2 {
		t.Fatalf("%d rows, %d table lines, %d notes", len(p.rows), len(p.table), len(p.notes))
	}
	r := p.rows[0]
	want := pushRow{users: 5, clients: 50, connect: 403 * time.Millisecond, frames: 150, expected: 150, p50: 3700 * time.Microsecond,
		p90: 4300 * time.Microsecond, p99: 5400 * time.Microsecond, max: 5400 * time.Microsecond}
	if r != want {
		t.Errorf("row %+v, want %+v", r, want)
	}
}
