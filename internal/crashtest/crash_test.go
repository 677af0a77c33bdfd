package crashtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/proctest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// brokerURL is the MQTT broker of the tests (HELIO_TEST_MQTT overrides it).
func brokerURL() string {
	if u := os.Getenv("HELIO_TEST_MQTT"); u != "" {
		return u
	}
	return "mqtt://127.0.0.1:1883"
}

func uniq(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Scale of the test: how often it kills the server (3 times under -short), and how long
// the server runs between a restart and the next kill.
const (
	kills      = 8
	minUp      = 300 * time.Millisecond
	maxUp      = 4 * time.Second
	tick       = 50 * time.Millisecond // one MQTT message per device and one HTTP request per tick
	perMessage = 4                     // samples per MQTT message and per device in an HTTP request
	step       = 10 * time.Second      // between a device's samples (device time, not wall time)
)

// device is one device of the test fleet and every sample sent for it.
type device struct {
	id, station int64
	sn, coll    string
	typ, pos    string
	rated       float64
	mqtt        bool // sent over MQTT, else over HTTP

	mu      sync.Mutex
	sent    []sentSample
	energy  float64 // the device's counters
	energy2 float64
}

type sentSample struct {
	t                                              int64
	power, energy, energy2, irr, temp, acV, dcV, f float64
	status                                         int
	acked                                          bool
}

func (s *sentSample) wire(sn string) map[string]any {
	m := map[string]any{"time": s.t, "powerKw": s.power, "energyKwh": s.energy, "energy2Kwh": s.energy2, "irradianceWm2": s.irr,
		"tempC": s.temp, "acVoltageV": s.acV, "dcVoltageV": s.dcV, "frequencyHz": s.f, "status": s.status}
	if sn != "" {
		m["sn"] = sn
	}
	return m
}

// next makes the device's next n samples (counters growing with power, now and then
// a fault, a gap or a counter reset) and returns their indexes in d.sent.
func (d *device) next(rng *mrand.Rand, base time.Time, n int) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	var idx []int
	for range n {
		t := base.UnixMilli()
		if k := len(d.sent); k > 0 {
			t = d.sent[k-1].t + step.Milliseconds()
			if rng.IntN(200) == 0 {
				t += int64(rng.IntN(3600)) * 1000 // a silent spell
			}
		}
		rated := d.rated
		if rated == 0 {
			rated = 20
		}
		p := rated * rng.Float64()
		if d.typ == "meter" || d.typ == "battery" {
			p = rated * (2*rng.Float64() - 1)
		}
		dt := float64(step) / float64(time.Hour)
		d.energy += math.Max(p, 0) * dt
		d.energy2 += math.Max(-p, 0) * dt
		s := sentSample{t: t, power: math.Round(p*1000) / 1000, energy: math.Round(d.energy*1000) / 1000, energy2: math.Round(d.energy2*1000) / 1000,
			irr: math.Round(rng.Float64()*1000*10) / 10, temp: 20 + math.Round(rng.Float64()*300)/10, acV: 400, dcV: 650, f: 50, status: 1}
		switch rng.IntN(60) {
		case 0:
			s.status = 2
		case 1:
			if d.typ == "inverter" {
				d.energy = 0 // a replaced inverter starts again at 0
				s.energy = 0
			}
		}
		d.sent = append(d.sent, s)
		idx = append(idx, len(d.sent)-1)
	}
	return idx
}

func (d *device) ack(idx []int) {
	d.mu.Lock()
	for _, i := range idx {
		d.sent[i].acked = true
	}
	d.mu.Unlock()
}

// server runs the helio binary on one data directory and address across restarts.
type server struct {
	t         *testing.T
	bin, data string
	addr      string
	args      []string
	cmd       *exec.Cmd
	log       *proctest.Log
	mu        sync.Mutex
	starts    int
}

func (s *server) url() string { return "http://" + s.addr }

func (s *server) start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := exec.Command(s.bin, append([]string{"serve", "--addr", s.addr, "--data", s.data}, s.args...)...)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd = cmd
	s.starts++
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.url() + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("helio not ready after start %d:\n%s", s.starts, tail(s.log.String()))
}

// kill ends the server with SIGKILL: no flush, no goodbye.
func (s *server) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// stop ends the server with SIGTERM.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	proctest.Stop(s.cmd, 20*time.Second)
}

func tail(s string) string {
	if len(s) > 6000 {
		return "…" + s[len(s)-6000:]
	}
	return s
}

// hashKey is the stored form of an ingest key (docs/telemetry.md, Keys): SHA-256, hex.
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// seed creates the organisation, a station with two sub-stations in a DST zone, and
// devices behind an MQTT collector and an HTTP collector with its key.
func seed(t *testing.T, dir, httpKey, mqttColl, httpColl string) (org int64, devs []*device) {
	ctx := context.Background()
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UnixMilli()
	must := func(id int64, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	org = must(db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Crash Test Solar", now))
	station := func(parent any, name string, kwp float64) int64 {
		return must(db.Insert(ctx, `INSERT INTO stations (org_id, parent_id, name, timezone, capacity_kwp, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, org, parent, name, "Europe/Berlin", kwp, now, now))
	}
	top := station(nil, "Plant", 60)
	subs := []int64{station(top, "Plant A", 30), station(top, "Plant B", 30)}
	for i, spec := range []struct {
		typ, pos string
		rated    float64
	}{{"inverter", "", 10}, {"inverter", "", 10}, {"battery", "", 5}, {"meter", "grid", 0}} {
		for _, viaMQTT := range []bool{true, false} {
			d := &device{typ: spec.typ, pos: spec.pos, rated: spec.rated, mqtt: viaMQTT, station: subs[i%2]}
			d.coll, d.sn = httpColl, fmt.Sprintf("HTTP-%02d", i)
			if viaMQTT {
				d.coll, d.sn = mqttColl, fmt.Sprintf("MQTT-%02d", i)
			}
			d.energy = float64(100 * (i + 1))
			d.id = must(db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, meter_position, rated_power_kw,
				component_capacity_kwp, collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				org, d.station, d.sn, d.sn, d.typ, d.pos, d.rated, d.rated*1.2, d.coll, now, now))
			devs = append(devs, d)
		}
	}
	if _, err := db.Exec(ctx, "INSERT INTO collectors (org_id, sn, ingest_key_hash, created_at) VALUES (?, ?, ?, ?)",
		org, httpColl, hashKey(httpKey), now); err != nil {
		t.Fatal(err)
	}
	return org, devs
}

func buildHelio(t *testing.T) string { return proctest.Binary(t) }

// mqttArgs are the serve options that give this test's consumer its own persistent
// session (--mqtt-client-id) and, where the build has the option, its own topic prefix.
// Without one the topics are still the test's own: they name its random collector.
func mqttArgs(t *testing.T, bin, clientID string) (args []string, prefix string) {
	out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
	help := string(out)
	if !strings.Contains(help, "-mqtt-client-id ") {
		t.Fatalf("helio serve has no --mqtt-client-id: the test cannot give its consumer its own session\n%s", help)
	}
	args = []string{"--mqtt", brokerURL(), "--mqtt-client-id", clientID}
	prefix = "helio/v1"
	if strings.Contains(help, "-mqtt-topic-prefix ") {
		prefix = uniq("crashtest-") + "/v1"
		args = append(args, "--mqtt-topic-prefix", prefix)
	}
	return args, prefix
}

// TestCrashSafety ingests over MQTT (QoS 1: acknowledged when the broker acks the
// publish; the consumer's persistent session keeps what arrives while Helio is down) and
// HTTP (acknowledged by a 200; a request without an answer is sent again) while killing
// the server with SIGKILL at random moments and restarting it. At the end every
// acknowledged sample must be stored once with the values sent, nothing never sent may be
// stored, and every roll-up must equal the brute force from the stored samples.
func TestCrashSafety(t *testing.T) {
	u := strings.Replace(brokerURL(), "mqtt://", "tcp://", 1)
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(u, "tcp://"), 2*time.Second); err != nil {
		t.Skipf("Mosquitto not reachable at %s: %v", brokerURL(), err)
	} else {
		c.Close()
	}
	if _, err := os.Stat(filepath.Join("..", "ingest")); err != nil {
		t.Skip("the ingest package (internal/ingest) is absent")
	}
	bin := buildHelio(t)
	dir := t.TempDir()
	httpKey := "hk_" + uniq("crashtest")
	mqttColl, httpColl := uniq("CM"), uniq("CH")
	org, devs := seed(t, dir, httpKey, mqttColl, httpColl)
	srv := &server{t: t, bin: bin, data: dir, addr: proctest.FreeAddr(t), log: &proctest.Log{}}
	defer func() {
		if t.Failed() {
			t.Logf("helio output:\n%s", tail(srv.log.String()))
		}
	}()
	// a first start without MQTT: does this build serve the ingest call at all?
	srv.start()
	code := probe(srv.url())
	srv.stop()
	if code == http.StatusNotFound {
		t.Skip("this build serves no POST /v2/ingest/samples: the ingest package is not part of it")
	}
	clientID := uniq("helio-crashtest-")
	var prefix string
	srv.args, prefix = mqttArgs(t, bin, clientID)
	srv.start()
	defer srv.stop()
	defer forgetSession(clientID)

	base := time.Now().Add(-30 * time.Hour).Truncate(time.Hour)
	var stopFeeding atomic.Bool
	var wg sync.WaitGroup
	var mqttSent, httpSent, httpRetries atomic.Int64

	// MQTT: one message per device and tick, QoS 1; acknowledged when the broker acks.
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(u).SetClientID(uniq("helio-crashtest-pub-")).SetCleanSession(true).
		SetAutoReconnect(true))
	if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("MQTT broker: %v", tok.Error())
	}
	defer pub.Disconnect(100)
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := mrand.New(mrand.NewPCG(1, 2))
		for !stopFeeding.Load() {
			for _, d := range devs {
				if !d.mqtt {
					continue
				}
				idx := d.next(rng, base, perMessage)
				var list []map[string]any
				d.mu.Lock()
				for _, i := range idx {
					list = append(list, d.sent[i].wire(""))
				}
				d.mu.Unlock()
				body, _ := json.Marshal(list)
				tok := pub.Publish(fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, org, d.coll, d.sn), 1, false, body)
				if tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
					d.ack(idx)
					mqttSent.Add(int64(len(idx)))
				}
			}
			time.Sleep(tick)
		}
	}()

	// HTTP: one request per tick with every HTTP device's next samples, repeated until it
	// answers 200 (acknowledged) — across kills, so some are stored twice over.
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := mrand.New(mrand.NewPCG(3, 4))
		hc := &http.Client{Timeout: 10 * time.Second}
		for !stopFeeding.Load() {
			type part struct {
				d   *device
				idx []int
			}
			var parts []part
			var list []map[string]any
			for _, d := range devs {
				if d.mqtt {
					continue
				}
				idx := d.next(rng, base, perMessage)
				parts = append(parts, part{d, idx})
				d.mu.Lock()
				for _, i := range idx {
					list = append(list, d.sent[i].wire(d.sn))
				}
				d.mu.Unlock()
			}
			body, _ := json.Marshal(map[string]any{"samples": list})
			for attempt := 0; !stopFeeding.Load() || attempt == 0; attempt++ {
				if attempt > 0 {
					httpRetries.Add(1)
					time.Sleep(tick)
				}
				req, _ := http.NewRequest("POST", srv.url()+"/v2/ingest/samples", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Helio-Key", httpKey)
				resp, err := hc.Do(req)
				if err != nil {
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					for _, p := range parts {
						p.d.ack(p.idx)
						httpSent.Add(int64(len(p.idx)))
					}
					break
				}
				if resp.StatusCode < 500 {
					t.Errorf("HTTP ingest answered %d: %s", resp.StatusCode, b)
					return
				}
			}
			time.Sleep(tick)
		}
	}()

	// The killer: SIGKILL at a random moment, restart at once, several times.
	rng := mrand.New(mrand.NewPCG(uint64(time.Now().UnixNano()), 5))
	n := kills
	if testing.Short() {
		n = 3
	}
	for k := 0; k < n && !t.Failed(); k++ {
		up := minUp + time.Duration(rng.Int64N(int64(maxUp-minUp)))
		time.Sleep(up)
		srv.kill()
		t.Logf("kill %d after %s: %d MQTT and %d HTTP samples acknowledged so far", k+1, up.Round(time.Millisecond), mqttSent.Load(), httpSent.Load())
		srv.start()
	}
	time.Sleep(time.Second)
	stopFeeding.Store(true)
	wg.Wait()

	// Wait until the consumer has caught up with every acknowledged MQTT sample, then stop.
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	var want int
	for _, d := range devs {
		for _, s := range d.sent {
			if s.acked && d.mqtt {
				want++
			}
		}
	}
	for {
		n := countStored(ctx, t, dir, devs, true)
		if n >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	srv.stop()
	t.Logf("%d kills; acknowledged: %d MQTT samples, %d HTTP samples (%d HTTP retries)", n, mqttSent.Load(), httpSent.Load(), httpRetries.Load())

	db, err := store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkSamples(ctx, t, db, devs)
	diffs := compareRollups(bruteForce(ctx, t, db), storedRollups(ctx, t, db))
	for i, d := range diffs {
		if i == 20 {
			t.Errorf("… and %d more", len(diffs)-20)
			break
		}
		t.Error(d)
	}
}

// probe tells whether the ingest call is served: 404 when it is not.
func probe(base string) int {
	resp, err := http.Post(base+"/v2/ingest/samples", "application/json", strings.NewReader(`{"samples":[]}`))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func countStored(ctx context.Context, t *testing.T, dir string, devs []*device, viaMQTT bool) int {
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	for _, d := range devs {
		if d.mqtt != viaMQTT {
			continue
		}
		if ss, err := telemetry.StoredSamples(ctx, db, d.id); err == nil {
			n += len(ss)
		}
	}
	return n
}

// checkSamples proves that every acknowledged sample is stored, once (the raw table's key
// is the device and instant) and with the values sent, that nothing else is stored, and
// that each device's latest row is its newest sample.
func checkSamples(ctx context.Context, t *testing.T, db *store.DB, devs []*device) {
	t.Helper()
	for _, d := range devs {
		sent := map[int64]*sentSample{}
		acked := 0
		for i := range d.sent {
			sent[d.sent[i].t] = &d.sent[i]
			if d.sent[i].acked {
				acked++
			}
		}
		// the raw samples as stored: rows, and the days sealed into blocks
		all, err := telemetry.StoredSamples(ctx, db, d.id)
		if err != nil {
			t.Fatal(err)
		}
		stored := map[int64]bool{}
		for _, x := range all {
			s := sentSample{t: x.Time.UnixMilli(), power: x.PowerKW, energy: x.EnergyKWh, energy2: x.Energy2KWh, irr: x.IrradianceWm2,
				temp: x.TempC, status: x.Status}
			if stored[s.t] {
				t.Errorf("device %s: the sample at %d is stored twice", d.sn, s.t)
			}
			stored[s.t] = true
			x, ok := sent[s.t]
			switch {
			case !ok:
				t.Errorf("device %s: a sample at %d that was never sent", d.sn, s.t)
			case x.power != s.power || x.energy != s.energy || x.energy2 != s.energy2 || x.irr != s.irr || x.temp != s.temp || x.status != s.status:
				t.Errorf("device %s at %d: stored %+v, sent %+v", d.sn, s.t, s, *x)
			}
		}
		missing := 0
		for _, s := range d.sent {
			if s.acked && !stored[s.t] {
				if missing < 5 {
					t.Errorf("device %s: the acknowledged sample at %d is not stored", d.sn, s.t)
				}
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("device %s: %d of %d acknowledged samples are missing", d.sn, missing, acked)
		}
		if acked == 0 {
			t.Errorf("device %s: no sample was acknowledged", d.sn)
		}
		// the latest row is the newest stored sample
		if len(all) == 0 {
			t.Fatalf("device %s: no sample stored", d.sn)
		}
		var latest int64
		var latestEnergy float64
		last, energy := all[len(all)-1].Time.UnixMilli(), all[len(all)-1].EnergyKWh
		if err := db.QueryRow(ctx, "SELECT ts, energy_kwh FROM telemetry_latest WHERE device_id = ?", d.id).Scan(&latest, &latestEnergy); err != nil {
			t.Errorf("device %s: no latest row: %v", d.sn, err)
		} else if latest != last || latestEnergy != energy {
			t.Errorf("device %s: latest row at %d (%v kWh), newest sample at %d (%v kWh)", d.sn, latest, latestEnergy, last, energy)
		}
	}
}

// forgetSession removes the consumer's persistent session from the broker.
func forgetSession(clientID string) {
	c := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(brokerURL(), "mqtt://", "tcp://", 1)).
		SetClientID(clientID).SetCleanSession(true))
	if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		c.Disconnect(100)
	}
}
