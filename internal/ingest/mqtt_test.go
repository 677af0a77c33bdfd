package ingest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The MQTT tests need the broker at 127.0.0.1:1883 (HELIO_TEST_MQTT overrides it).
func brokerURL() string {
	if u := os.Getenv("HELIO_TEST_MQTT"); u != "" {
		return u
	}
	return "mqtt://127.0.0.1:1883"
}

func uniq(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func TestMain(m *testing.M) {
	if os.Getenv("HELIO_MQTT_CHILD") == "1" {
		runChild()
		return
	}
	os.Exit(m.Run())
}

// runChild is the consumer process of TestMQTTSurvivesKill: it consumes until killed.
func runChild() {
	ctx := context.Background()
	db, err := store.Open(ctx, "", "sqlite://"+os.Getenv("HELIO_MQTT_DB"))
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	w := telemetry.NewWriter(db, telemetry.Options{})
	m, err := StartMQTT(w, MQTTOptions{URL: brokerURL(), ClientID: os.Getenv("HELIO_MQTT_CLIENT"), TopicPrefix: os.Getenv("HELIO_MQTT_PREFIX")})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	select {
	case <-m.Ready():
		fmt.Println("READY")
	case <-time.After(20 * time.Second):
		fmt.Println("ERROR not subscribed")
		os.Exit(1)
	}
	select {}
}

func publisher(t *testing.T) paho.Client {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(brokerURL(), "mqtt://", "tcp://", 1)).
		SetClientID(uniq("helio-test-pub-")).SetCleanSession(true))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("MQTT broker at %s: %v", brokerURL(), tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

func publish(t *testing.T, c paho.Client, topic, payload string) {
	t.Helper()
	tok := c.Publish(topic, 1, false, payload)
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
}

// forgetSession removes a persistent session from the broker.
func forgetSession(clientID string) {
	c := paho.NewClient(paho.NewClientOptions().AddBroker(strings.Replace(brokerURL(), "mqtt://", "tcp://", 1)).
		SetClientID(clientID).SetCleanSession(true))
	if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		c.Disconnect(100)
	}
}

// startConsumer starts a consumer of w on the broker at url with a client id and topic
// prefix of its own, waits until it is subscribed and stops it (and forgets its session)
// when the test ends. It returns the prefix.
func startConsumer(t *testing.T, w *telemetry.Writer, url string) string {
	t.Helper()
	clientID, prefix := uniq("helio-test-ingest-"), uniq("helio-test-")+"/v1"
	t.Cleanup(func() { forgetSession(clientID) })
	m, err := StartMQTT(w, MQTTOptions{URL: url, ClientID: clientID, TopicPrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	select {
	case <-m.Ready():
	case <-time.After(20 * time.Second):
		t.Fatal("not subscribed")
	}
	return prefix
}

// stored counts a device's stored samples (0: every device's) at instants in [from, to),
// rows, chunks and blocks alike.
func stored(t *testing.T, db *store.DB, deviceID, from, to int64) int {
	t.Helper()
	n, err := telemetry.CountStored(context.Background(), db, deviceID, from, to)
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// always is every instant, for stored.
const always = 1 << 62

// waitStored waits until a device has at least want samples stored in [from, to).
func waitStored(t *testing.T, db *store.DB, want int, deviceID, from, to int64) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	n := -1
	for time.Now().Before(deadline) {
		if n = stored(t, db, deviceID, from, to); n >= want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("device %d: %d samples stored in [%d, %d), want %d", deviceID, n, from, to, want)
}

type child struct {
	cmd *exec.Cmd
}

func startChild(t *testing.T, dbPath, clientID, prefix string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "HELIO_MQTT_CHILD=1", "HELIO_MQTT_DB="+dbPath, "HELIO_MQTT_CLIENT="+clientID, "HELIO_MQTT_PREFIX="+prefix)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd}
	t.Cleanup(func() { c.kill() })
	lines := bufio.NewScanner(out)
	ready := make(chan string, 1)
	go func() {
		for lines.Scan() {
			select {
			case ready <- lines.Text():
			default:
			}
		}
	}()
	select {
	case l := <-ready:
		if l != "READY" {
			t.Fatalf("consumer: %s", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("consumer did not start")
	}
	return c
}

func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill() // SIGKILL: no chance to flush or say goodbye
		_ = c.cmd.Wait()
	}
}

func TestMQTTSurvivesKill(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	f := newFleet(t, db, uniq("K"))
	clientID, prefix := uniq("helio-test-ingest-"), uniq("helio-test-")+"/v1"
	t.Cleanup(func() { forgetSession(clientID) })
	topic := fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.collector, f.inv1SN)
	now := time.Now().UTC().Truncate(time.Second)
	pub := publisher(t)

	c := startChild(t, db.Path, clientID, prefix)
	a := now.Add(-2 * time.Minute)
	publish(t, pub, topic, fmt.Sprintf(`{"time":%q,"powerKw":10,"energyKwh":500}`, a.Format(time.RFC3339)))
	waitStored(t, db, 1, f.inv1, a.UnixMilli(), a.UnixMilli()+1) // committed
	c.kill()

	// published while the consumer is down: the broker keeps it for the session
	b := now.Add(-time.Minute)
	publish(t, pub, topic, fmt.Sprintf(`{"time":%d,"powerKw":11,"energyKwh":500.2}`, b.UnixMilli()))
	time.Sleep(200 * time.Millisecond)

	c = startChild(t, db.Path, clientID, prefix)
	waitStored(t, db, 1, f.inv1, b.UnixMilli(), b.UnixMilli()+1)
	time.Sleep(300 * time.Millisecond) // room for a redelivery of the first message
	c.kill()
	if n := stored(t, db, f.inv1, 0, always); n != 2 {
		t.Fatalf("%d samples, want exactly 2", n)
	}
	var e float64
	if err := db.QueryRow(ctx, "SELECT energy_kwh FROM telemetry_device_rollups WHERE device_id = ? AND res = 4", f.inv1).Scan(&e); err != nil || e < 0.2-1e-9 || e > 0.2+1e-9 {
		t.Fatalf("year energy %v (%v), want 0.2", e, err)
	}
}

func TestMQTTMalformedMessagesAreSkipped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("M"))
		prefix := startConsumer(t, telemetry.NewWriter(db, telemetry.Options{}), brokerURL())
		pub := publisher(t)
		before := malformedTotal.Value("mqtt")
		dev := fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.collector, f.inv1SN)
		coll := fmt.Sprintf("%s/%d/%s/telemetry", prefix, f.org, f.collector)
		now := time.Now().UTC().Truncate(time.Second)
		at := func(min int) string { return now.Add(-time.Duration(min) * time.Minute).Format(time.RFC3339) }
		publish(t, pub, dev, `garbage`)
		publish(t, pub, dev, fmt.Sprintf(`{"time":%q,"powerKw":1,"colour":"red"}`, at(9)))
		publish(t, pub, dev, fmt.Sprintf(`{"time":%q,"powerKw":1,"energyKwh":7}`, at(8)))
		publish(t, pub, coll, fmt.Sprintf(`[{"time":%q,"powerKw":1}]`, at(7))) // no sn on a collector topic
		publish(t, pub, dev, fmt.Sprintf(`[{"time":%q,"powerKw":2,"energyKwh":7.1},{"time":%q,"powerKw":3,"energyKwh":7.2}]`, at(6), at(5)))
		publish(t, pub, coll, fmt.Sprintf(`[{"sn":%q,"time":%q,"energyKwh":1},{"sn":%q,"time":%q,"energyKwh":7.3}]`, f.inv2SN, at(5), f.inv1SN, at(4)))
		// a device of another organisation on our topic: counted, not stored
		publish(t, pub, coll, fmt.Sprintf(`{"sn":%q,"time":%q}`, f.otherSN, at(3)))
		publish(t, pub, dev, fmt.Sprintf(`{"time":%q,"powerKw":4,"energyKwh":7.4}`, at(2)))
		last := now.Add(-2 * time.Minute).UnixMilli()
		waitStored(t, db, 1, f.inv1, last, last+1)
		waitStored(t, db, 5, f.inv1, 0, always)
		waitStored(t, db, 1, f.inv2, 0, always)
		if n := stored(t, db, 0, 0, always); n != 6 {
			t.Fatalf("%d samples stored, want 6", n)
		}
		if got := malformedTotal.Value("mqtt") - before; got != 3 {
			t.Fatalf("%v malformed messages counted, want 3", got)
		}
	})
}
