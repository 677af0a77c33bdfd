// Command ingest measures the telemetry write path on SQLite: MQTT, HTTP and line-protocol ingest end
// to end (sent → committed with roll-ups) against the raw bulk-insert floor measured in
// the same run, and the year back-fill of the demo fleet's size.
//
//	go run ./bench/ingest [-samples 400000] [-per-msg 100] [-backfill-days 365]
//	go run ./bench/ingest -only write [-write-batch 10]   the write path alone (write.go)
//
// A point is one field value, as InfluxDB counts them: a 10-field sample is 10 points.
package main

import (
	"context"
	"flag"
	"fmt"
	"iter"
	"log"
	"log/slog"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/bench/internal/acks"
	"github.com/helio-energy/helio/bench/internal/ingestgen"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/telemetry"
)

const fields = 10 // values per sample: power, energy, DC V and A, AC V, Hz, °C, W/m², status, strings

var (
	nSamples     = flag.Int("samples", 400_000, "samples per ingest run")
	nDevices     = flag.Int("devices", 200, "devices")
	perMsg       = flag.Int("per-msg", 100, "samples per MQTT message (one device's buffered readings)")
	mqttURL      = flag.String("mqtt", "mqtt://127.0.0.1:1883", "MQTT broker (empty to skip)")
	httpClients  = flag.Int("http-clients", 16, "concurrent HTTP clients (one per collector)")
	perReq       = flag.Int("per-req", 1000, "samples per HTTP request")
	backfillDays = flag.Int("backfill-days", 365, "days of 5-minute history to back-fill (0 to skip)")
	retention    = flag.Duration("retention", 30*24*time.Hour, "raw retention for the back-fill")
	keep         = flag.Bool("keep", false, "keep the databases")
	only         = flag.String("only", "", "run only this part: floor, mqtt, http, line, backfill, or write (the write path alone, only when named)")
	runs         = flag.Int("runs", 3, "rounds of floor, MQTT and HTTP; each path reports its best round (the machine may be shared)")
	pending      = flag.Int("mqtt-pending", 0, "MQTT batch size in messages (0: the consumer's default, half the in-flight window)")
	cpuProfile   = flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
)

type row struct {
	name    string
	samples int
	elapsed time.Duration
}

func main() {
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	dir, err := os.MkdirTemp("", "helio-bench-")
	if err != nil {
		log.Fatal(err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	run := func(part string) bool { return *only == "" || *only == part }
	if run("floor") || run("mqtt") || run("http") || run("line") {
		best := func(a, b row) row {
			if a.elapsed == 0 || float64(b.samples)/b.elapsed.Seconds() > float64(a.samples)/a.elapsed.Seconds() {
				return b
			}
			return a
		}
		var floor, mq, ht, lp row
		for r := 0; r < *runs; r++ {
			floor = best(floor, benchFloor(dir))
			if *mqttURL != "" && run("mqtt") {
				mq = best(mq, benchMQTT(dir))
			}
			if run("http") {
				ht = best(ht, benchHTTP(dir))
			}
			if run("line") {
				lp = best(lp, benchLine(dir))
			}
		}
		rows := []row{floor}
		for _, r := range []row{mq, ht, lp} {
			if r.elapsed > 0 {
				rows = append(rows, r)
			}
		}
		fmt.Printf("\nHelio telemetry ingest on SQLite — %d devices, %d-field samples (1 sample = %d points), best of %d rounds\n\n",
			*nDevices, fields, fields, *runs)
		fmt.Printf("%-44s %10s %8s %11s %12s %9s\n", "path", "samples", "seconds", "samples/s", "points/s", "of floor")
		floorRate := float64(floor.samples) / floor.elapsed.Seconds()
		for _, r := range rows {
			rate := float64(r.samples) / r.elapsed.Seconds()
			fmt.Printf("%-44s %10d %8.2f %11.0f %12.0f %8.0f%%\n", r.name, r.samples, r.elapsed.Seconds(), rate, rate*fields, 100*rate/floorRate)
		}
	}
	if *backfillDays > 0 && run("backfill") {
		benchBackfill(dir)
	}
	if *only == "write" {
		benchWrite(dir)
	}
}

// benchFloor inserts the same rows into a bare table, batch by batch, as fast as plain
// SQL allows (the better of one-row and 64-row prepared INSERTs).
func benchFloor(dir string) row {
	ctx := context.Background()
	start, k := steps()
	best := row{name: "raw insert floor (bare table, 5000 per tx)"}
	for _, per := range []int{1, 64} {
		db := openDB(dir, fmt.Sprintf("floor%d-%d", per, time.Now().UnixNano()))
		if _, err := db.Exec(ctx, `CREATE TABLE floor (device_id BIGINT NOT NULL, ts BIGINT NOT NULL, power_kw DOUBLE PRECISION,
			energy_kwh DOUBLE PRECISION, dc_voltage_v DOUBLE PRECISION, dc_current_a DOUBLE PRECISION, ac_voltage_v DOUBLE PRECISION,
			frequency_hz DOUBLE PRECISION, temp_c DOUBLE PRECISION, irradiance_wm2 DOUBLE PRECISION, status INTEGER, strings_active INTEGER,
			PRIMARY KEY (device_id, ts)) WITHOUT ROWID`); err != nil {
			log.Fatal(err)
		}
		q := "INSERT INTO floor VALUES " + strings.TrimSuffix(strings.Repeat("(?,?,?,?,?,?,?,?,?,?,?,?),", per), ",")
		n := 0
		t0 := time.Now()
		var args []any
		for step := 0; step < k; {
			tx, err := db.SQL.Begin()
			if err != nil {
				log.Fatal(err)
			}
			stmt, err := tx.Prepare(q)
			if err != nil {
				log.Fatal(err)
			}
			for in := 0; in < 5000 && step < k; in += *nDevices {
				for i := 0; i < *nDevices; i++ {
					s := ingestgen.Sample(start, i, step)
					args = append(args, int64(i+1), s.Time.UnixMilli(), s.PowerKW, s.EnergyKWh, s.DCVoltageV, s.DCCurrentA,
						s.ACVoltageV, s.FrequencyHz, s.TempC, s.IrradianceWm2, s.Status, s.StringsActive)
					n++
					if len(args) == 12*per {
						if _, err := stmt.Exec(args...); err != nil {
							log.Fatal(err)
						}
						args = args[:0]
					}
				}
				step++
			}
			stmt.Close()
			if err := tx.Commit(); err != nil {
				log.Fatal(err)
			}
		}
		el := time.Since(t0)
		db.Close()
		if best.elapsed == 0 || float64(n)/el.Seconds() > float64(best.samples)/best.elapsed.Seconds() {
			best.samples, best.elapsed = n, el
		}
	}
	return best
}

func accepted(source string) float64 {
	return metrics.Default.NewCounter("helio_telemetry_samples_total", "", "source", "result").Value(source, "accepted")
}

func waitAccepted(source string, base float64, n int, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for accepted(source)-base < float64(n) {
		if time.Now().After(deadline) {
			log.Fatalf("%s: only %v of %d samples committed", source, accepted(source)-base, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitRolled waits until the roll-up changes of the committed writes are written too
// (streaming writes leave them waiting a moment, merged with the next ones): the figures
// time samples to committed with every roll-up written.
func waitRolled(w *telemetry.Writer) {
	deadline := time.Now().Add(time.Minute)
	for w.RollupsWaiting() {
		if time.Now().After(deadline) {
			log.Fatal("roll-ups not written a minute after the last commit")
		}
		time.Sleep(time.Millisecond)
	}
}

func benchMQTT(dir string) row {
	ctx := context.Background()
	db := openDB(dir, fmt.Sprintf("mqtt-%d", time.Now().UnixNano()))
	defer db.Close()
	f := newFleet(ctx, db, *nDevices)
	w := telemetry.NewWriter(db, telemetry.Options{})
	clientID := fmt.Sprintf("helio-bench-%d", time.Now().UnixNano())
	prefix := fmt.Sprintf("helio-bench-%d/v1", time.Now().UnixNano())
	m, err := ingest.StartMQTT(w, ingest.MQTTOptions{URL: *mqttURL, ClientID: clientID, TopicPrefix: prefix,
		Batch: telemetry.BatchOptions{MaxPending: *pending}})
	if err != nil {
		log.Fatal(err)
	}
	defer func() {
		m.Stop()
		c := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(*mqttURL, "mqtt://", "tcp://", 1)).SetClientID(clientID).SetCleanSession(true))
		if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
			c.Disconnect(100)
		}
	}()
	select {
	case <-m.Ready():
	case <-time.After(20 * time.Second):
		log.Fatal("MQTT consumer not subscribed")
	}
	// the messages are encoded before the clock starts
	start, k := steps()
	type msg struct {
		topic string
		body  []byte
	}
	var msgs []msg
	total := 0
	for from := 0; from < k; from += *perMsg {
		for i := range f.devices {
			var list []wire
			for step := from; step < min(from+*perMsg, k); step++ {
				list = append(list, toWire("", ingestgen.Sample(start, i, step)))
			}
			total += len(list)
			msgs = append(msgs, msg{fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.colls[i], f.sns[i]), encode(list)})
		}
	}
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(*mqttURL, "mqtt://", "tcp://", 1)).
		SetClientID(clientID + "-pub").SetCleanSession(true))
	if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		log.Fatal(tok.Error())
	}
	defer pub.Disconnect(100)
	base := accepted("mqtt")
	t0 := time.Now()
	var toks acks.Waiter
	sent := 0
	for j, mm := range msgs {
		// Mosquitto queues at most max_queued_messages (1000 by default) per client and
		// drops the rest: stay within 800 messages of what is committed.
		for float64(sent-800*(*perMsg)) > accepted("mqtt")-base {
			time.Sleep(time.Millisecond)
		}
		sent += min(*perMsg, k-(j / *nDevices)*(*perMsg))
		toks.Add(pub.Publish(mm.topic, 1, false, mm.body))
	}
	toks.Wait()
	waitAccepted("mqtt", base, total, 10*time.Minute)
	waitRolled(w)
	return row{name: fmt.Sprintf("MQTT QoS 1 → committed + roll-ups (%d/msg)", *perMsg), samples: total, elapsed: time.Since(t0)}
}

// benchBackfill back-fills a year (by default) of 5-minute samples for the fleet.
func benchBackfill(dir string) {
	ctx := context.Background()
	db := openDB(dir, "backfill")
	defer db.Close()
	f := newFleet(ctx, db, *nDevices)
	w := telemetry.NewWriter(db, telemetry.Options{RawRetention: *retention})
	steps := *backfillDays * 288
	start := time.Now().Add(-time.Duration(steps) * 5 * time.Minute).Truncate(5 * time.Minute)
	gen := func(yield func([]telemetry.Sample) bool) {
		const chunk = 96 // 8 hours of all devices per batch
		for from := 0; from < steps; from += chunk {
			batch := make([]telemetry.Sample, 0, chunk*len(f.devices))
			for k := from; k < min(from+chunk, steps); k++ {
				for i, id := range f.devices {
					s := ingestgen.Sample(start, i, k)
					s.DeviceID = id
					batch = append(batch, s)
				}
			}
			if !yield(batch) {
				return
			}
		}
	}
	t0 := time.Now()
	n := 0
	for b := range iter.Seq[[]telemetry.Sample](gen) {
		n += len(b)
	}
	genTime := time.Since(t0)
	t0 = time.Now()
	res, err := w.Backfill(ctx, gen)
	if err != nil {
		log.Fatal(err)
	}
	el := time.Since(t0)
	fmt.Printf("\nBack-fill: %d days × %d devices = %d samples, raw retention %s\n", *backfillDays, len(f.devices), n, *retention)
	fmt.Printf("  %.1f s in all (%.1f s of it generating the samples): %.0f samples/s; %d raw rows and %d day roll-up rows written\n",
		el.Seconds(), genTime.Seconds(), float64(n)/el.Seconds(), res.RawRows, res.DayRows)
}
