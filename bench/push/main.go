// Command push measures alarm push: how many WebSocket clients one process holds, and
// the latency from an alarm being raised (a faulty sample handed to the alarm engine) to
// the message frame arriving at every interested client — through rule evaluation, the
// alarm row, the notification decisions and messages of every user, the event bus and
// the hub's fan-out.
//
//	go run ./bench/push [-clients 5000] [-users 100,5000] [-alarms 40] [-bus local|nats] [-db sqlite|postgres]
//
// Every client belongs to a user allowed to see the station and notified of every alarm at
// once (levels 1 and 2, frequency high, no daily limit in the way). Clients of one user
// share the user's session, as browser tabs do. The clients run in a child process of
// this program over loopback: the server's CPU is measured apart from theirs, but both
// share the machine's cores.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

var (
	nClients = flag.Int("clients", 5000, "WebSocket clients to hold")
	users    = flag.String("users", "100,5000", "comma-separated user counts: one run each, clients spread evenly over the users")
	nAlarms  = flag.Int("alarms", 40, "alarms raised per run, one at a time")
	busKind  = flag.String("bus", "local", "event bus: local or nats")
	natsURL  = flag.String("nats", "nats://127.0.0.1:4222", "NATS server for -bus nats")
	dbKind   = flag.String("db", "sqlite", "database: sqlite or postgres (the test server, HELIO_TEST_PG)")
	dialPar  = flag.Int("dial-parallel", 64, "concurrent dials while connecting")
	cpuProf  = flag.String("cpuprofile", "", "write a CPU profile of the alarm phase to this file")
	gap      = flag.Duration("gap", 300*time.Millisecond, "pause after each alarm's frames are all in (counters settle)")
)

type result struct {
	users, clients    int
	connect           time.Duration
	frames, expected  int
	lat               []time.Duration
	engine            []time.Duration // Observe: rule, alarm row, decisions and messages committed
	cpuPerAlarm       time.Duration   // server process CPU (user + system) per alarm
	clientCPUPerAlarm time.Duration   // client process CPU per alarm
	load              float64         // 1-minute load average after the run
	rssMB             float64
	goroutines        int
}

var (
	clientMode   = flag.Bool("client-mode", false, "internal: run as the client process")
	clientURL    = flag.String("client-url", "", "internal: WebSocket URL without the token")
	clientTokens = flag.String("client-tokens", "", "internal: file with one token per client")
)

func main() {
	flag.Parse()
	if *clientMode {
		clientMain()
		return
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	limit := raiseFileLimit()
	var results []result
	for _, u := range strings.Split(*users, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(u))
		if err != nil || n <= 0 {
			log.Fatalf("bad -users %q", u)
		}
		res, err := run(n)
		if err != nil {
			log.Fatal(err)
		}
		results = append(results, res)
		runtime.GC()
	}
	fmt.Printf("\nalarm push: %d alarms per run, bus %s, database %s, GOMAXPROCS %d, open-file limit %d\n\n",
		*nAlarms, *busKind, *dbKind, runtime.GOMAXPROCS(0), limit)
	fmt.Println("| users | clients held | connect all | frames received | p50 | p90 | p99 | max | server RSS | server goroutines | engine p50 | server CPU / alarm | client CPU / alarm | load avg |")
	fmt.Println("|------:|-------------:|------------:|----------------:|----:|----:|----:|----:|-----------:|------------------:|-----------:|-------------------:|-------------------:|---------:|")
	for _, r := range results {
		fmt.Printf("| %d | %d | %s | %d / %d | %s | %s | %s | %s | %.0f MB | %d | %s | %s | %s | %.1f |\n", r.users, r.clients, r.connect.Round(time.Millisecond),
			r.frames, r.expected, pct(r.lat, 50), pct(r.lat, 90), pct(r.lat, 99), pct(r.lat, 100), r.rssMB, r.goroutines,
			pct(r.engine, 50), r.cpuPerAlarm.Round(100*time.Microsecond), r.clientCPUPerAlarm.Round(100*time.Microsecond), r.load)
	}
	fmt.Println("\nengine: Engine.Observe of the faulty sample (rule, alarm row, every user's decision and message committed).")
	fmt.Println("p50…max: faulty sample handed to Engine.Observe → message frame read by the client, over every (alarm, client) pair.")
	fmt.Println("CPU / alarm: user+system time per alarm of the server process and of the client process (both on this machine's cores).")
}

func pct(d []time.Duration, p float64) string {
	if len(d) == 0 {
		return "-"
	}
	i := int(float64(len(d)-1) * p / 100)
	return d[i].Round(100 * time.Microsecond).String()
}

// openDB gives a fresh migrated database.
func openDB(ctx context.Context) (*store.DB, func(), error) {
	if *dbKind == "postgres" {
		schema := storetest.NewSchemaName()
		admin, err := store.Open(ctx, "", storetest.PostgresURL())
		if err != nil {
			return nil, nil, err
		}
		if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
			return nil, nil, err
		}
		db, err := store.Open(ctx, "", storetest.SchemaURL(schema))
		if err != nil {
			return nil, nil, err
		}
		_, err = db.Migrate(ctx)
		return db, func() {
			db.Close()
			_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			admin.Close()
		}, err
	}
	dir, err := os.MkdirTemp("", "helio-bench-push-")
	if err != nil {
		return nil, nil, err
	}
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		return nil, nil, err
	}
	_, err = db.Migrate(ctx)
	return db, func() { db.Close(); os.RemoveAll(dir) }, err
}

func run(nUsers int) (result, error) {
	ctx := context.Background()
	res := result{users: nUsers}
	db, closeDB, err := openDB(ctx)
	if err != nil {
		return res, err
	}
	defer closeDB()

	// An organisation, its users (each with a session), a station and an inverter per alarm.
	orgID, err := org.CreateOrg(ctx, db, "Bench Solar")
	if err != nil {
		return res, err
	}
	dept, err := org.CreateDept(ctx, db, orgID, 0, "Operations")
	if err != nil {
		return res, err
	}
	sessions := &auth.Sessions{DB: db, TTL: 24 * time.Hour}
	tokens := make([]string, nUsers)
	for i := range tokens {
		uid, err := org.CreateUser(ctx, db, &org.User{OrgID: orgID, DeptID: dept, Username: fmt.Sprintf("user%05d", i),
			PasswordHash: "-", Role: "user", StationAuthority: org.AuthorityAll, Name: fmt.Sprintf("User %d", i)})
		if err != nil {
			return res, err
		}
		if tokens[i], _, err = sessions.Create(ctx, uid, "bench"); err != nil {
			return res, err
		}
		// Every alarm is notified at once, with no daily limit in the way.
		if err := alarm.SaveSettings(ctx, db, uid, alarm.Settings{Levels: []int{1, 2}, Frequency: alarm.FrequencyHigh,
			DailyLimit: alarm.MaxDailyLimit, Methods: []int{alarm.MethodInSite}, Allowed: 1, Timezone: "UTC"}, time.Now()); err != nil {
			return res, err
		}
	}
	st := &station.Station{OrgID: orgID, CreatedByDept: dept, Name: "Bench Plant", Timezone: "UTC", StationType: "ground",
		SystemType: "pv", CapacityKWp: 1000, Lat: 30, Lng: 100}
	if _, err := station.Insert(ctx, db, st); err != nil {
		return res, err
	}
	devs := make([]int64, *nAlarms)
	for i := range devs {
		d := &device.Device{OrgID: orgID, StationID: st.ID, Name: fmt.Sprintf("Inverter %d", i+1), SN: fmt.Sprintf("BENCH%05d", i),
			Type: "inverter", RatedPowerKW: 100, ComponentCapacityKWp: 120, StringsTotal: 10, StringsEnabled: 10}
		if devs[i], err = device.Insert(ctx, db, d); err != nil {
			return res, err
		}
	}

	// The server: message store, bus, hub, engine, router.
	var bus push.Bus = push.NewLocal()
	if *busKind == "nats" {
		nb, err := push.DialNATS(*natsURL, fmt.Sprintf("helio.bench.%d", time.Now().UnixNano()))
		if err != nil {
			return res, err
		}
		bus = nb
	}
	defer bus.Close()
	msgs := &message.Store{DB: db}
	hub, err := push.NewHub(push.Options{Messages: msgs, Sessions: sessions, Bus: bus, QueueSize: 1024})
	if err != nil {
		return res, err
	}
	defer hub.Close()
	msgs.Pub = hub
	eng := alarm.NewEngine(db, alarm.Options{Messages: msgs})
	api := httpapi.New(sessions.Authenticate)
	hub.Routes(api)
	srv := httptest.NewServer(api)
	defer srv.Close()
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/v2/webpush/message?token="

	// The clients: a child process of this program holds them, so that the server's CPU
	// is measured apart from theirs (they still share the machine).
	tokFile, err := os.CreateTemp("", "helio-bench-tokens-")
	if err != nil {
		return res, err
	}
	defer os.Remove(tokFile.Name())
	for i := 0; i < *nClients; i++ {
		fmt.Fprintln(tokFile, tokens[i%nUsers])
	}
	tokFile.Close()
	child := exec.Command(os.Args[0], "-client-mode", "-client-url", wsURL, "-client-tokens", tokFile.Name(),
		"-dial-parallel", strconv.Itoa(*dialPar))
	child.Stderr = os.Stderr
	stdin, err := child.StdinPipe()
	if err != nil {
		return res, err
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		return res, err
	}
	start := time.Now()
	if err := child.Start(); err != nil {
		return res, err
	}
	type arrival struct {
		alarm int64
		at    int64
	}
	var (
		received               atomic.Int64
		arrMu                  sync.Mutex
		arrivals               []arrival
		ready                  = make(chan struct{})
		clientCPU0, clientCPU1 atomic.Int64
		done                   = make(chan struct{})
	)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 3 && f[0] == "F":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				at, _ := strconv.ParseInt(f[2], 10, 64)
				arrMu.Lock()
				arrivals = append(arrivals, arrival{id, at})
				arrMu.Unlock()
			case len(f) == 2 && f[0] == "N":
				n, _ := strconv.ParseInt(f[1], 10, 64)
				received.Store(n)
			case len(f) == 2 && f[0] == "READY":
				n, _ := strconv.ParseInt(f[1], 10, 64)
				clientCPU0.Store(n)
				close(ready)
			case len(f) == 2 && f[0] == "CPU":
				n, _ := strconv.ParseInt(f[1], 10, 64)
				clientCPU1.Store(n)
			}
		}
	}()
	select {
	case <-ready:
	case <-done:
		return res, fmt.Errorf("the client process ended before connecting")
	}
	res.connect = time.Since(start)
	// Let every connection's hello and counters settle.
	for deadline := time.Now().Add(30 * time.Second); hub.Connections() < *nClients && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	res.clients = hub.Connections()
	fmt.Fprintf(os.Stderr, "users %d: %d clients connected in %s\n", nUsers, res.clients, res.connect.Round(time.Millisecond))

	// Raise the alarms one at a time, waiting for every client's frame.
	cpu0 := cpuTime()
	var paused time.Duration
	if *cpuProf != "" {
		f, err := os.Create(fmt.Sprintf("%s.%d", *cpuProf, nUsers))
		if err != nil {
			return res, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return res, err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	raised := map[int64]int64{} // alarm id → unix nanos it was raised
	for i, dev := range devs {
		want := int64((i + 1) * *nClients)
		now := time.Now()
		if err := eng.Observe(ctx, []telemetry.Sample{{DeviceID: dev, Time: now, Status: telemetry.StatusFault, ACVoltageV: 230, FrequencyHz: 50}}); err != nil {
			return res, err
		}
		observed := time.Since(now)
		var id int64
		if err := db.QueryRow(ctx, "SELECT id FROM alarms WHERE device_id = ?", dev).Scan(&id); err != nil {
			return res, err
		}
		raised[id] = now.UnixNano()
		for deadline := time.Now().Add(10 * time.Second); received.Load() < want && time.Now().Before(deadline); {
			time.Sleep(200 * time.Microsecond)
		}
		res.engine = append(res.engine, observed)
		c := cpuTime()
		time.Sleep(*gap)
		paused += cpuTime() - c // pings and counters while pausing
	}
	res.cpuPerAlarm = (cpuTime() - cpu0 - paused) / time.Duration(len(devs))
	res.load = loadAvg()
	res.rssMB = rssMB()
	res.goroutines = runtime.NumGoroutine()
	stdin.Close() // the child reports its CPU and leaves
	<-done
	_ = child.Wait()
	res.clientCPUPerAlarm = time.Duration(clientCPU1.Load()-clientCPU0.Load()) / time.Duration(len(devs))
	res.frames, res.expected = int(received.Load()), *nAlarms**nClients
	var lat []time.Duration
	for _, a := range arrivals {
		if t, ok := raised[a.alarm]; ok {
			lat = append(lat, time.Duration(a.at-t))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(res.engine, func(i, j int) bool { return res.engine[i] < res.engine[j] })
	res.lat = lat
	return res, nil
}
