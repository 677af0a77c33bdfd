package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/bench/internal/acks"
	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/machine"
	"github.com/helio-energy/helio/internal/store"
)

// roundResult is one 5-minute round of every device of a fleet, published over MQTT to
// the running server and stored by it.
type roundResult struct {
	samples, messages int
	elapsed           time.Duration // first message published to the last sample stored
	cpuSec            float64       // the server's CPU time (user + system) over the round
	machineSec        float64       // the machine's busy CPU time over the round (the database and broker too)
}

// SamplesPerSec is the round's stored samples per second.
func (r *roundResult) SamplesPerSec() float64 { return float64(r.samples) / r.elapsed.Seconds() }

// Cores is the server's CPU over the round in cores (1 = one core busy throughout).
func (r *roundResult) Cores() float64 { return r.cpuSec / r.elapsed.Seconds() }

// PeriodShare is the share of the machine's cores the server needs to store a round every
// 5 minutes.
func (r *roundResult) PeriodShare(cores int) float64 {
	return r.cpuSec / (fleet.Step.Seconds() * float64(cores))
}

// MachineShare is PeriodShare for the whole machine's busy time (database, broker and
// publisher too).
func (r *roundResult) MachineShare(cores int) float64 {
	return r.machineSec / (fleet.Step.Seconds() * float64(cores))
}

// roundMessage is one collector's samples of the round, as the collector would send them.
type roundMessage struct {
	topic string
	body  []byte
	n     int
}

// roundWindow is how many published messages may wait to be stored: Mosquitto queues at
// most max_queued_messages (1000 by default) per client and drops the rest.
const roundWindow = 800

// round publishes the next 5-minute sample of every device of the fleet (each device's
// latest stored sample, 5 minutes on, its energy counter advanced by its power), one
// message per collector on helio/v1/{org}/{collector}/telemetry, as fast as the server
// stores them (at most roundWindow messages waiting), and measures the time until the
// server has stored them all and the CPU it spent.
func (e *env) round(ctx context.Context, p *helio.Proc, dir string, info *fleet.Info) (*roundResult, error) {
	msgs, total, err := roundMessages(ctx, dir, info)
	if err != nil {
		return nil, err
	}
	broker := strings.Replace(e.cfg.scaleMQTT, "mqtt://", "tcp://", 1)
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(broker).
		SetClientID(fmt.Sprintf("helio-bench-round-%d", time.Now().UnixNano())).SetCleanSession(true))
	if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		return nil, fmt.Errorf("MQTT publisher: %v", tok.Error())
	}
	defer pub.Disconnect(100)
	stored := func() (samples, messages float64) {
		m := metricsWith(p.URL, map[string][]string{
			"helio_telemetry_samples_total":    {`source="mqtt"`, `result="accepted"`},
			"helio_ingest_mqtt_messages_total": {`result="committed"`},
		})
		return m["helio_telemetry_samples_total"], m["helio_ingest_mqtt_messages_total"]
	}
	baseS, baseM := stored()
	cpu0, busy0 := procCPU(p.Pid()), machine.BusyCPU()
	t0 := time.Now()
	var toks acks.Waiter
	done := 0.0 // messages stored, as last read
	for i, m := range msgs {
		// the server's metrics are read again only when the window looks full
		for float64(i)-done >= roundWindow {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// every read renders the server's metrics: a tenth of a second is plenty
			// against a window of 800 messages, and costs the server little
			time.Sleep(100 * time.Millisecond)
			_, d := stored()
			done = d - baseM
		}
		toks.Add(pub.Publish(m.topic, 1, false, m.body))
	}
	toks.Wait()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		s, _ := stored()
		if s-baseS >= float64(total) {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("only %.0f of %d samples stored in 10 minutes", s-baseS, total)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := &roundResult{samples: total, messages: len(msgs), elapsed: time.Since(t0), cpuSec: procCPU(p.Pid()) - cpu0,
		machineSec: machine.BusyCPU() - busy0}
	log.Printf("   5-minute round over MQTT: %s samples in %s messages stored in %s (%s samples/s), server CPU %.1f s (%.2f cores)",
		num(float64(r.samples)), num(float64(r.messages)), r.elapsed.Round(time.Millisecond), num(r.SamplesPerSec()), r.cpuSec, r.Cores())
	return r, nil
}

// roundMessages reads every device's latest sample and encodes the next round, a message
// per collector.
func roundMessages(ctx context.Context, dir string, info *fleet.Info) ([]roundMessage, int, error) {
	db, err := store.Open(ctx, dir, info.DB)
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	rows, err := db.Query(ctx, `SELECT d.org_id, d.collector_sn, d.sn, l.ts, l.power_kw, l.energy_kwh, l.energy2_kwh,
		l.dc_voltage_v, l.dc_current_a, l.ac_voltage_v, l.frequency_hz, l.temp_c, l.soc, l.irradiance_wm2, l.status, l.strings_active
		FROM devices d JOIN telemetry_latest l ON l.device_id = d.id ORDER BY d.org_id, d.collector_sn, d.id`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []roundMessage
	var body bytes.Buffer
	lastTopic, n, total := "", 0, 0
	flush := func() {
		if n > 0 {
			body.WriteByte(']')
			out = append(out, roundMessage{topic: lastTopic, body: bytes.Clone(body.Bytes()), n: n})
		}
		body.Reset()
		n = 0
	}
	step := fleet.Step.Milliseconds()
	for rows.Next() {
		var org, ts int64
		var coll, sn string
		var pw, e1, e2, dcv, dca, acv, hz, temp, soc, irr float64
		var status, strs int
		if err := rows.Scan(&org, &coll, &sn, &ts, &pw, &e1, &e2, &dcv, &dca, &acv, &hz, &temp, &soc, &irr, &status, &strs); err != nil {
			return nil, 0, err
		}
		topic := fmt.Sprintf("helio/v1/%d/%s/telemetry", org, coll)
		if topic != lastTopic {
			flush()
			lastTopic = topic
		}
		if n == 0 {
			body.WriteByte('[')
		} else {
			body.WriteByte(',')
		}
		e1 += max(pw, 0) * fleet.Step.Hours()
		fmt.Fprintf(&body, `{"sn":%q,"time":%d,"powerKw":%g,"energyKwh":%g,"energy2Kwh":%g,"dcVoltageV":%g,"dcCurrentA":%g,"acVoltageV":%g,"frequencyHz":%g,"tempC":%g,"soc":%g,"irradianceWm2":%g,"status":%d,"stringsActive":%d}`,
			sn, ts+step, pw, e1, e2, dcv, dca, acv, hz, temp, soc, irr, status, strs)
		n++
		total++
	}
	flush()
	return out, total, rows.Err()
}

// clearSession ends the persistent MQTT session the server left on the broker.
func clearSession(mqttURL, clientID string) {
	c := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(mqttURL, "mqtt://", "tcp://", 1)).
		SetClientID(clientID).SetCleanSession(true))
	if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		c.Disconnect(100)
	}
}

// metricsWith reads labelled metrics from the server's /metrics in one scrape: for each
// name, the first series whose labels include every one of the given labels (0 when
// absent).
func metricsWith(base string, want map[string][]string) map[string]float64 {
	out := map[string]float64{}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
next:
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "{")
		labels, found := want[name]
		if !ok || !found {
			continue
		}
		if _, seen := out[name]; seen {
			continue
		}
		lbl, v, ok := strings.Cut(rest, "} ")
		if !ok {
			continue
		}
		for _, l := range labels {
			if !strings.Contains(","+lbl+",", ","+l+",") {
				continue next
			}
		}
		out[name], _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	return out
}

// procCPU is a process's CPU time so far in seconds, user and system (Linux; 0 elsewhere).
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// the fields after the command name, which is in parentheses and may hold spaces
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTicks = 100

// reportRounds adds the 5-minute rounds of the runs that published one.
func (e *env) reportRounds(s *strings.Builder, runs []*scaleRun) {
	some := false
	for _, r := range runs {
		some = some || len(r.rounds) > 0
	}
	if !some {
		return
	}
	cores := runtime.NumCPU()
	fmt.Fprintf(s, "\nAfter the calls, two 5-minute rounds of every device (its latest sample 5 minutes on; the first after the server's start, "+
		"when the alarm engine also reads every device's recent samples back for its grid nominal, then the next) each published over MQTT "+
		"(QoS 1, a message per collector, at most %d messages waiting; the broker's window `--mqtt-inflight %d`) as fast as the server stores it: *round* is the time from the "+
		"first message to the last sample stored; *CPU* the server's user + system time over it (/proc), *per 5 minutes* that time as a "+
		"share of the machine's %d cores over a 5-minute period; *machine* the busy time of every core over the round (the database, the broker "+
		"and the publishing client too), per 5 minutes likewise.\n\n", roundWindow, e.cfg.scaleInFlight, cores)
	fmt.Fprintf(s, "| stations | database | round | samples | messages | stored in | samples/s | server CPU | cores busy | per 5 minutes | machine per 5 minutes |\n|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range runs {
		for i, x := range r.rounds {
			fmt.Fprintf(s, "| %s | %s | %s | %s | %s | %s | %s | %.1f s | %.2f | %.1f%% | %.1f%% |\n", num(float64(r.stations)), r.db,
				[]string{"first after the start", "the next"}[i], num(float64(x.samples)), num(float64(x.messages)),
				x.elapsed.Round(time.Millisecond), num(x.SamplesPerSec()), x.cpuSec, x.Cores(), 100*x.PeriodShare(cores),
				100*x.MachineShare(cores))
		}
		if len(r.rounds) == 0 {
			continue
		}
		// the steady state against the goal, the first round beside it
		x, first := r.rounds[len(r.rounds)-1], r.rounds[0]
		e.rep.add(figure{area: "Ingest", name: fmt.Sprintf("A 5-minute round of %s devices over MQTT, %s", num(float64(x.samples)), r.db),
			value: x.elapsed.Round(time.Second).String(), goal: "well under 5 min (< 2.5 min)",
			ref: fmt.Sprintf("%s samples/s; server CPU %.1f%% of the cores per 5 minutes, the whole machine %.1f%%; the first round after the start %s",
				num(x.SamplesPerSec()), 100*x.PeriodShare(cores), 100*x.MachineShare(cores), first.elapsed.Round(time.Second)),
			verdict: verdict(x.elapsed < fleet.Step/2)})
	}
}
