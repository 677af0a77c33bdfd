// Command storm measures an alarm storm against MQTT ingest on SQLite: the same MQTT
// workload runs for a fixed window without and with a storm of faulty samples (one alarm
// each, every user notified of each), wired as the server wires them (the writer's
// after-commit hook evaluates the rules, notification passes run on the engine's own
// goroutine, the message store counts alarms for the bell, a hub on the local bus).
// It reports the ingest throughput of each run and counts, once the storm has settled,
// every alarm's decisions and messages (nothing may be missing).
//
//	go run ./bench/storm [-storm 1000] [-storm-seconds 10] [-users 100] [-window 12s] [-rounds 2]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/bench/internal/acks"
	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

var (
	nStorm   = flag.Int("storm", 1000, "alarms raised by the storm (one faulty sample per device)")
	stormSec = flag.Int("storm-seconds", 10, "seconds the storm is spread over")
	nUsers   = flag.Int("users", 100, "users, each notified of every alarm")
	nIngest  = flag.Int("devices", 200, "devices of the steady MQTT workload")
	perMsg   = flag.Int("per-msg", 20, "samples per MQTT message of the workload")
	rounds   = flag.Int("rounds", 2, "rounds of (without, with) the storm")
	cpuProf  = flag.String("cpuprofile", "", "write a CPU profile of the storm run's window (until its passes are written) to this file")
)

var (
	window  = flag.Duration("window", 12*time.Second, "ingest window of each run (the storm starts one second in)")
	mqttURL = flag.String("mqtt", "mqtt://127.0.0.1:1883", "MQTT broker")
)

type result struct {
	storm            bool
	samples          int
	elapsed          time.Duration
	alarms           int
	decisions, msgs  int
	pending          int
	short, orphans   int           // alarms without a message and a decision for every user; messages of no alarm
	settled          time.Duration // after the workload was committed, until every pass was written
	rawRows, wantRaw int
	load0, load1     string
	// with -channels
	hooks, pushes, mails int
	pushed               int           // push deliveries sent (one per user and alarm)
	drained              time.Duration // after settled, until every webhook and push was sent
	box                  map[string]int
}

func main() {
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	var res []result
	for r := 0; r < *rounds; r++ {
		for _, storm := range []bool{false, true} {
			if storm && *cpuProf != "" {
				pf, err := os.Create(*cpuProf)
				if err == nil && pprof.StartCPUProfile(pf) == nil {
					defer pprof.StopCPUProfile()
				}
			}
			x, err := run(storm)
			if storm && *cpuProf != "" {
				pprof.StopCPUProfile()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "storm:", err)
				os.Exit(1)
			}
			res = append(res, x)
		}
	}
	fmt.Printf("\nalarm storm: %d alarms over %d s, %d users notified of each, MQTT workload of %d devices (%d samples/message), window %s, SQLite\n\n",
		*nStorm, *stormSec, *nUsers, *nIngest, *perMsg, *window)
	fmt.Println("| run | ingest samples | seconds | samples/s | alarms | decisions | messages | passes pending | settled after | raw rows | load before → after |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	var base, with []float64
	for _, x := range res {
		name := "without storm"
		rate := float64(x.samples) / x.elapsed.Seconds()
		if x.storm {
			name = "with storm"
			with = append(with, rate)
		} else {
			base = append(base, rate)
		}
		fmt.Printf("| %s | %d | %.2f | %.0f | %d | %d | %d | %d | %s | %d / %d | %s → %s |\n", name, x.samples, x.elapsed.Seconds(), rate,
			x.alarms, x.decisions, x.msgs, x.pending, x.settled.Round(time.Millisecond), x.rawRows, x.wantRaw, x.load0, x.load1)
	}
	b, w := mean(base), mean(with)
	fmt.Printf("\ningest with the storm: %.0f samples/s against %.0f without (%+.1f %%); expected per storm run: %d alarms, %d decisions and messages\n",
		w, b, 100*(w-b)/b, *nStorm, *nStorm**nUsers)
	if *channels {
		fmt.Printf("\nevery channel on: each alarm to %d users by app push and e-mail (15-minute digest), and to two webhooks\n\n", *nUsers)
		fmt.Println("| storm run | webhook calls | pushes (deliveries they carry) | e-mails | deliveries sent | all sent after settling |")
		fmt.Println("|---|---:|---:|---:|---:|---:|")
		for i, x := range res {
			if x.storm {
				want := 2*x.alarms + 2*x.alarms**nUsers
				sent := x.box["webhook sent"] + x.pushed + x.box["email sent"]
				fmt.Printf("| %d | %d (want %d) | %d (%d) | %d (want ≤ %d) | %d of %d | %s |\n", i/2+1, x.hooks, 2*x.alarms, x.pushes, x.pushed,
					x.mails, *nUsers, sent, want, x.drained.Round(time.Millisecond))
			}
		}
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(max(len(xs), 1))
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func accepted() float64 {
	return metrics.Default.NewCounter("helio_telemetry_samples_total", "", "source", "result").Value("mqtt", "accepted")
}

func run(storm bool) (result, error) {
	ctx := context.Background()
	res := result{storm: storm, load0: loadAvg()}
	dir, err := os.MkdirTemp("", "helio-bench-storm-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		return res, err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return res, err
	}
	f, err := newFleet(ctx, db)
	if err != nil {
		return res, err
	}

	// The server's wiring (internal/server): writer → engine (notifications on its own
	// goroutine) → message store → hub.
	w := telemetry.NewWriter(db, telemetry.Options{})
	msgs := &message.Store{DB: db, Pending: func(ctx context.Context, ids []int64) (map[int64]int, error) {
		return alarm.PendingByUser(ctx, db, ids)
	}}
	hub, err := push.NewHub(push.Options{Messages: msgs, Sessions: &auth.Sessions{DB: db, TTL: time.Hour}, Bus: push.NewLocal()})
	if err != nil {
		return res, err
	}
	defer hub.Close()
	msgs.Pub = hub
	opts := alarm.Options{Messages: msgs, AsyncNotify: true}
	var sk *sinks
	var worker *notify.Worker
	if *channels {
		if sk, err = startSinks(dir); err != nil {
			return res, err
		}
		defer sk.close()
		if err := sk.wire(ctx, db, f.org); err != nil {
			return res, err
		}
		worker = &notify.Worker{DB: db, Mail: &notify.SMTP{Addr: sk.smtp, From: "helio@storm.example", Security: "none"},
			Push: &notify.PushKeys{DB: db}}
		opts.Outbox = &notify.Outbox{Wake: worker.Wake}
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		go worker.Run(wctx)
	}
	eng := alarm.NewEngine(db, opts)
	w.AfterCommit(func(ctx context.Context, acc []telemetry.Sample) {
		if err := eng.Observe(ctx, acc); err != nil {
			slog.Error("alarm evaluation failed", "err", err)
		}
	})
	stamp := time.Now().UnixNano()
	clientID := fmt.Sprintf("helio-bench-storm-%d", stamp)
	prefix := fmt.Sprintf("helio-bench-storm-%d/v1", stamp)
	m, err := ingest.StartMQTT(w, ingest.MQTTOptions{URL: *mqttURL, ClientID: clientID, TopicPrefix: prefix})
	if err != nil {
		return res, err
	}
	defer m.Stop()
	select {
	case <-m.Ready():
	case <-time.After(20 * time.Second):
		return res, fmt.Errorf("MQTT consumer not subscribed")
	}
	broker := strings.Replace(*mqttURL, "mqtt://", "tcp://", 1)
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(broker).SetClientID(clientID + "-pub").SetCleanSession(true))
	if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		return res, fmt.Errorf("MQTT publisher: %v", tok.Error())
	}
	defer pub.Disconnect(100)
	topic := func(i int) string { return fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.colls[i], f.sns[i]) }

	base := accepted()
	var stormSent atomic.Int64
	t0 := time.Now()
	end := t0.Add(*window)
	stormDone := make(chan struct{})
	go func() {
		defer close(stormDone)
		if !storm {
			return
		}
		time.Sleep(time.Second)
		gap := time.Duration(*stormSec) * time.Second / time.Duration(*nStorm)
		next := time.Now()
		for j := 0; j < *nStorm; j++ {
			i := *nIngest + j
			body := fmt.Sprintf(`[{"time":%d,"powerKw":0,"acVoltageV":230,"frequencyHz":50,"tempC":30,"status":%d}]`,
				time.Now().UnixMilli(), telemetry.StatusFault)
			pub.Publish(topic(i), 1, false, body)
			stormSent.Add(1)
			next = next.Add(gap)
			time.Sleep(time.Until(next))
		}
	}()
	// The steady workload: each device's next samples, within 300 of its messages of what
	// is committed (Mosquitto queues at most 1000 messages per client and drops the rest;
	// the storm's messages come on top).
	start := time.Now().Add(-20 * 24 * time.Hour).Truncate(5 * time.Minute)
	step := make([]int, *nIngest)
	sent := 0
	var toks acks.Waiter
	for i := 0; time.Now().Before(end); i = (i + 1) % *nIngest {
		for float64(sent+int(stormSent.Load())-300**perMsg) > accepted()-base {
			time.Sleep(time.Millisecond)
		}
		toks.Add(pub.Publish(topic(i), 1, false, workload(start, i, step[i], *perMsg)))
		step[i] += *perMsg
		sent += *perMsg
	}
	toks.Wait()
	<-stormDone
	want := float64(sent) + float64(stormSent.Load())
	for deadline := time.Now().Add(time.Minute); accepted()-base < want; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return res, fmt.Errorf("only %v of %v samples committed", accepted()-base, want)
		}
	}
	res.samples, res.elapsed = sent, time.Since(t0)
	committed := time.Now()
	// A sample counts as committed before the after-commit hook has opened its alarm.
	for deadline := time.Now().Add(time.Minute); storm && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM alarms").Scan(&n); err != nil || n >= int(stormSent.Load()) {
			break
		}
	}
	eng.Settle()
	res.settled = time.Since(committed)
	res.load1 = loadAvg()
	if *cpuProf != "" {
		pprof.StopCPUProfile() // the profile covers the window and its passes, not the draining after
	}
	if sk != nil && storm {
		// every webhook call and push sent; then the digests, their period run out on a
		// clock moved 16 minutes on
		settledAt := time.Now()
		for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(time.Second) {
			b := outbox(ctx, db)
			if b["webhook pending"] == 0 && b["push pending"] == 0 {
				break
			}
			if time.Now().After(deadline) {
				return res, fmt.Errorf("deliveries still pending after 10 minutes: %v", b)
			}
		}
		res.drained = time.Since(settledAt)
		later := &notify.Worker{DB: db, Mail: worker.Mail, Push: worker.Push, Now: func() time.Time { return time.Now().Add(16 * time.Minute) }}
		for i := 0; i < 20; i++ {
			if n, err := later.RunOnce(ctx); err != nil || n == 0 {
				break
			}
		}
		for deadline := time.Now().Add(30 * time.Second); sk.mails() < *nUsers && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		}
		res.hooks, res.pushes, res.mails, res.box = sk.hooks.count(), sk.pushes.count(), sk.mails(), outbox(ctx, db)
		res.pushed = pushesSent(ctx, db)
	}

	count := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			fmt.Fprintln(os.Stderr, "storm:", err)
			os.Exit(1)
		}
		return n
	}
	res.alarms = count("SELECT COUNT(*) FROM alarms")
	res.decisions = count("SELECT COUNT(*) FROM alarm_notifications WHERE outcome = 'sent'")
	res.msgs = count("SELECT COUNT(*) FROM messages WHERE kind = 'alarm'")
	res.pending = count("SELECT COUNT(*) FROM alarms WHERE notify_pending = 1")
	res.short = count(`SELECT COUNT(*) FROM alarms a WHERE (SELECT COUNT(*) FROM messages m WHERE m.alarm_id = a.id) <> ?
		OR (SELECT COUNT(*) FROM alarm_notifications n WHERE n.alarm_id = a.id AND n.outcome = 'sent') <> ?`, *nUsers, *nUsers)
	res.orphans = count("SELECT COUNT(*) FROM messages WHERE kind = 'alarm' AND alarm_id IS NULL")
	if storm {
		rows, _ := db.Query(ctx, "SELECT a.id, a.device_sn, a.rule_key, a.status FROM alarms a ORDER BY a.id DESC LIMIT 3")
		for rows != nil && rows.Next() {
			var id int64
			var sn, rule string
			var st int
			_ = rows.Scan(&id, &sn, &rule, &st)
			fmt.Fprintln(os.Stderr, "alarm", id, sn, rule, st)
		}
		if rows != nil {
			rows.Close()
		}
		rows, _ = db.Query(ctx, "SELECT COALESCE(alarm_id, 0), COUNT(*), MIN(id), MAX(id) FROM messages GROUP BY alarm_id HAVING COUNT(*) <> ?", *nUsers)
		for rows != nil && rows.Next() {
			var a, n, lo, hi int64
			_ = rows.Scan(&a, &n, &lo, &hi)
			fmt.Fprintln(os.Stderr, "messages of alarm", a, n, lo, hi)
		}
		if rows != nil {
			rows.Close()
		}
	}
	res.rawRows = count("SELECT (SELECT COUNT(*) FROM telemetry_samples) + (SELECT COALESCE(SUM(n), 0) FROM telemetry_sample_chunks) + (SELECT COALESCE(SUM(n), 0) FROM telemetry_sample_blocks)")
	res.wantRaw = sent + int(stormSent.Load())
	fmt.Fprintf(os.Stderr, "storm %v: %d samples in %s, %d alarms, %d messages\n", storm, sent, res.elapsed.Round(time.Millisecond), res.alarms, res.msgs)
	return res, nil
}

// workload is n 5-minute samples of device i from step k on, as an MQTT message body.
func workload(start time.Time, i, k, n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for s := 0; s < n; s++ {
		at := start.Add(time.Duration(k+s) * 5 * time.Minute)
		if s > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"time":%d,"powerKw":%d,"energyKwh":%d,"acVoltageV":400,"frequencyHz":50,"tempC":30,"status":1}`,
			at.UnixMilli(), 40+(k+s)%20, 1000+i+k+s)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// fleet is an organisation with its users, a station and the devices of both workloads.
type fleet struct {
	org   int64
	sns   []string
	colls []string
}

func newFleet(ctx context.Context, db *store.DB) (*fleet, error) {
	f := &fleet{}
	var err error
	if f.org, err = org.CreateOrg(ctx, db, "Storm Solar"); err != nil {
		return nil, err
	}
	dept, err := org.CreateDept(ctx, db, f.org, 0, "Operations")
	if err != nil {
		return nil, err
	}
	now := time.Now()
	for i := 0; i < *nUsers; i++ {
		uid, err := org.CreateUser(ctx, db, &org.User{OrgID: f.org, DeptID: dept, Username: fmt.Sprintf("user%05d", i),
			PasswordHash: "-", Role: "user", StationAuthority: org.AuthorityAll, Name: fmt.Sprintf("User %d", i)})
		if err != nil {
			return nil, err
		}
		if err := alarm.SaveSettings(ctx, db, uid, alarm.Settings{Levels: []int{1, 2}, Frequency: alarm.FrequencyHigh,
			DailyLimit: alarm.MaxDailyLimit, Methods: []int{alarm.MethodInSite}, Allowed: 1, Timezone: "UTC"}, now); err != nil {
			return nil, err
		}
	}
	ms := now.UnixMilli()
	st, err := db.Insert(ctx, "INSERT INTO stations (org_id, created_by_dept, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		f.org, dept, "Storm Plant", "UTC", 100000, ms, ms)
	if err != nil {
		return nil, err
	}
	for i := 0; i < *nIngest+*nStorm; i++ {
		sn, coll := fmt.Sprintf("SN%05d", i), fmt.Sprintf("COLL%03d", i/50)
		if _, err := db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, component_capacity_kwp,
			collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, 'inverter', 100, 120, ?, ?, ?)`, f.org, st, sn, sn, coll, ms, ms); err != nil {
			return nil, err
		}
		f.sns, f.colls = append(f.sns, sn), append(f.colls, coll)
	}
	return f, nil
}
