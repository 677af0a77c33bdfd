package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Fuzz targets for the ingest parsers (scripts/fuzz.sh runs them; seed corpora in
// testdata/fuzz). The properties:
//
//   - ParsePayload never panics; what it accepts has a time on every sample, re-encodes,
//     and parses back to the same samples.
//   - The topic parser never panics and accepts only {prefix}/{org > 0}/{collector}
//     [/{device}]/telemetry with non-empty levels.
//   - An MQTT message, whatever its topic and payload, is acknowledged exactly once, and
//     one that cannot be parsed stores nothing.
//   - POST /v2/ingest/samples answers 200 or a 4xx, never a 500; a 4xx stores nothing and
//     a 200 stores exactly the samples it says it accepted.
//
// In payloads and bodies, @now stands for the current unix milliseconds, so that seeds
// stay inside the write path's time window.

const fuzzPrefix = "helio/v1"

func withNow(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("@now"), fmt.Appendf(nil, "%d", time.Now().Add(-time.Minute).UnixMilli()))
}

func FuzzParsePayload(f *testing.F) {
	for _, s := range []string{
		`{"time":"2026-01-02T03:04:05Z","powerKw":12.5,"energyKwh":1000}`,
		`[{"time":1767323045000,"powerKw":1,"energyKwh":2,"energy2Kwh":3,"dcVoltageV":600,"dcCurrentA":10,"acVoltageV":400,"frequencyHz":50,"tempC":40,"soc":55,"irradianceWm2":800,"status":1,"stringsActive":4}]`,
		`[{"sn":"INV-1","time":"2026-01-02T03:04:05.123+08:00","powerKw":0},{"sn":"INV-2","time":1767323045000}]`,
		`[]`, `{}`, `null`, `[null]`, `{"time":null}`, `{"time":"yesterday"}`, `{"time":1e3}`, `{"time":-1}`,
		`{"time":253402300800000}`, `{"time":1767323045000} {}`, `{"time":1767323045000,"bogus":1}`,
		`{"time":1767323045000,"powerKw":"12"}`, `  [ {"time" : 1767323045000 } ]  `, `{"time":1767323045000,"powerKw":1e400}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		samples, err := ParsePayload(payload)
		if err != nil {
			return
		}
		for i := range samples {
			if time.Time(samples[i].Time).IsZero() {
				t.Fatalf("sample %d accepted without a time", i)
			}
		}
		b, err := json.Marshal(samples)
		if err != nil {
			t.Fatalf("accepted samples do not re-encode: %v (%+v)", err, samples)
		}
		again, err := ParsePayload(b)
		if err != nil {
			t.Fatalf("re-encoded samples %s do not parse: %v", b, err)
		}
		if len(again) != len(samples) {
			t.Fatalf("%d samples after a round trip, was %d", len(again), len(samples))
		}
		for i := range samples {
			a, z := samples[i], again[i]
			if !time.Time(a.Time).Equal(time.Time(z.Time)) {
				t.Fatalf("sample %d: time %v after a round trip, was %v", i, time.Time(z.Time), time.Time(a.Time))
			}
			a.Time, z.Time = WireTime{}, WireTime{}
			if a != z {
				t.Fatalf("sample %d: %+v after a round trip, was %+v", i, z, a)
			}
		}
	})
}

func FuzzTopic(f *testing.F) {
	for _, s := range []string{
		"helio/v1/1/COLL-A/INV-1/telemetry", "helio/v1/1/COLL-A/telemetry", "helio/v1/0/COLL-A/telemetry",
		"helio/v1/-3/C/telemetry", "helio/v1/1//telemetry", "helio/v1/1/C//telemetry", "helio/v1/x/C/telemetry",
		"helio/v1/1/C/D/E/telemetry", "helio/v1/1/C/D/status", "helio/v2/1/C/telemetry", "helio/v1", "helio/v1/",
		"helio/v1/9223372036854775808/C/telemetry", "helio/v1/+1/C/telemetry", "",
	} {
		f.Add(s)
	}
	m := &MQTT{opt: MQTTOptions{TopicPrefix: fuzzPrefix}}
	f.Fuzz(func(t *testing.T, topic string) {
		org, coll, dev, ok := m.parseTopic(topic)
		if !ok {
			return
		}
		levels := strings.Split(strings.TrimPrefix(topic, fuzzPrefix+"/"), "/")
		switch {
		case !strings.HasPrefix(topic, fuzzPrefix+"/") || !strings.HasSuffix(topic, "/telemetry"):
			t.Fatalf("%q accepted outside the scheme", topic)
		case org <= 0:
			t.Fatalf("%q accepted with organisation %d", topic, org)
		case coll == "" || strings.Contains(coll, "/") || strings.Contains(dev, "/"):
			t.Fatalf("%q accepted with collector %q and device %q", topic, coll, dev)
		case len(levels) == 4 && dev == "", len(levels) == 3 && dev != "", len(levels) < 3 || len(levels) > 4:
			t.Fatalf("%q accepted as device %q", topic, dev)
		}
	})
}

// fuzzFleet is one organisation (id 1 on a fresh database) with two inverters behind
// collector COLL-A, a device key for the first and the collector's key.
type fuzzFleet struct {
	db              *store.DB
	w               *telemetry.Writer
	devKey, collKey string
}

func newFuzzFleet(f *testing.F) *fuzzFleet {
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	db := storetest.SQLite(f)
	now := time.Now().UnixMilli()
	must := func(id int64, err error) int64 {
		if err != nil {
			f.Fatal(err)
		}
		return id
	}
	org := must(db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Fuzz", now))
	st := must(db.Insert(ctx, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
		org, "Plant", "Europe/Madrid", 100, now, now))
	var inv1 int64
	for _, sn := range []string{"INV-1", "INV-2"} {
		id := must(db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, collector_sn, created_at, updated_at)
			VALUES (?, ?, ?, ?, 'inverter', 50, 'COLL-A', ?, ?)`, org, st, sn, sn, now, now))
		if inv1 == 0 {
			inv1 = id
		}
	}
	ff := &fuzzFleet{db: db, w: telemetry.NewWriter(db, telemetry.Options{})}
	var err error
	if ff.devKey, err = SetDeviceKey(ctx, db, org, inv1); err != nil {
		f.Fatal(err)
	}
	if ff.collKey, err = SetCollectorKey(ctx, db, org, "COLL-A"); err != nil {
		f.Fatal(err)
	}
	return ff
}

func (ff *fuzzFleet) rows(t *testing.T) int {
	n, err := telemetry.CountStored(context.Background(), ff.db, 0, 0, 1<<62)
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

type fuzzMessage struct {
	topic   string
	payload []byte
	acks    atomic.Int32
}

func (m *fuzzMessage) Duplicate() bool   { return false }
func (m *fuzzMessage) Qos() byte         { return 1 }
func (m *fuzzMessage) Retained() bool    { return false }
func (m *fuzzMessage) Topic() string     { return m.topic }
func (m *fuzzMessage) MessageID() uint16 { return 1 }
func (m *fuzzMessage) Payload() []byte   { return m.payload }
func (m *fuzzMessage) Ack()              { m.acks.Add(1) }

func FuzzMQTTMessage(f *testing.F) {
	for _, s := range [][2]string{
		{"helio/v1/1/COLL-A/INV-1/telemetry", `{"time":@now,"powerKw":12.5,"energyKwh":1000}`},
		{"helio/v1/1/COLL-A/telemetry", `[{"sn":"INV-1","time":@now,"powerKw":1,"energyKwh":5},{"sn":"INV-2","time":@now,"energyKwh":7}]`},
		{"helio/v1/1/COLL-A/telemetry", `[{"time":@now,"energyKwh":7}]`},
		{"helio/v1/1/COLL-A/INV-1/telemetry", `[{"sn":"INV-2","time":@now}]`},
		{"helio/v1/1/COLL-B/INV-1/telemetry", `{"time":@now,"energyKwh":1}`},
		{"helio/v1/2/COLL-A/INV-1/telemetry", `{"time":@now,"energyKwh":1}`},
		{"helio/v1/1/COLL-A/INV-9/telemetry", `{"time":@now,"energyKwh":1}`},
		{"helio/v1/1/COLL-A/INV-1/telemetry", `{"time":@now,"energyKwh":-1}`},
		{"helio/v1/1/COLL-A/INV-1/telemetry", `{"time":@now,"powerKw":1e9}`},
		{"helio/v1/1/COLL-A/INV-1/telemetry", `{"time":1,"energyKwh":1}`},
		{"helio/v1/1/COLL-A/INV-1/telemetry", `not json`},
		{"helio/v1/1/COLL-A/INV-1/status", `{"time":@now}`},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	ff := newFuzzFleet(f)
	ctx, cancel := context.WithCancel(context.Background())
	m := &MQTT{w: ff.w, opt: MQTTOptions{TopicPrefix: fuzzPrefix, InFlight: 20}, ctx: ctx, cancel: cancel, ready: make(chan struct{}),
		client: paho.NewClient(paho.NewClientOptions())}
	m.batch = ff.w.NewBatcher("mqtt", telemetry.BatchOptions{MaxPending: 20})
	f.Cleanup(m.Stop)
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		payload = withNow(payload)
		before := ff.rows(t)
		msg := &fuzzMessage{topic: topic, payload: payload}
		m.handle(nil, msg)
		deadline := time.Now().Add(10 * time.Second)
		for msg.acks.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(2 * time.Millisecond) // a second acknowledgement would come at once
		if n := msg.acks.Load(); n != 1 {
			t.Fatalf("message acknowledged %d times", n)
		}
		_, _, _, topicOK := m.parseTopic(topic)
		if _, err := ParsePayload(payload); (err != nil || !topicOK) && ff.rows(t) != before {
			t.Fatalf("a message that cannot be parsed stored %d samples", ff.rows(t)-before)
		}
	})
}

func FuzzHTTPIngest(f *testing.F) {
	for _, s := range []string{
		`{"samples":[{"sn":"INV-1","time":@now,"powerKw":12.5,"energyKwh":1000}]}`,
		`{"samples":[{"sn":"INV-1","time":@now,"energyKwh":5},{"sn":"INV-2","time":@now,"energyKwh":6},{"sn":"INV-1","time":@now,"energyKwh":5}]}`,
		`{"samples":[{"sn":"INV-2","time":@now}]}`,
		`{"samples":[{"sn":"INV-1","time":@now,"energyKwh":-5}]}`,
		`{"samples":[{"time":@now}]}`,
		`{"samples":[]}`, `{}`, `null`, `{"samples":null}`, `{"samples":[{"sn":"INV-1","time":"2026-13-01T00:00:00Z"}]}`,
		`{"samples":[{"sn":"INV-1","time":253402300800000}]}`, `{"samples":[{"sn":"INV-1","time":@now,"powerKw":"1"}]}`,
		`{"samples":[{"sn":"INV-1","time":@now}],"extra":1}`, `{"samples":[{"sn":"INV-1","time":@now}]}x`,
	} {
		for key := range uint8(4) {
			f.Add([]byte(s), key)
		}
	}
	ff := newFuzzFleet(f)
	api := httpapi.New(func(*http.Request) (*httpapi.Principal, error) { return nil, httpapi.Unauthorized() })
	(&Service{DB: ff.db, Writer: ff.w}).Routes(api)
	f.Fuzz(func(t *testing.T, body []byte, key uint8) {
		body = withNow(body)
		before := ff.rows(t)
		r := httptest.NewRequest("POST", "/v2/ingest/samples", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		switch key % 4 {
		case 0:
			r.Header.Set(KeyHeader, ff.devKey)
		case 1:
			r.Header.Set(KeyHeader, ff.collKey)
		case 2:
			r.Header.Set(KeyHeader, "hk_not-a-key")
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		stored := ff.rows(t) - before
		switch {
		case w.Code == 200:
			var env struct {
				Data IngestResponse `json:"data"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil {
				t.Fatalf("200 with an unreadable body %q: %v", w.Body.String(), err)
			}
			if stored != env.Data.Accepted {
				t.Fatalf("200 says %d accepted, %d stored", env.Data.Accepted, stored)
			}
		case w.Code >= 400 && w.Code < 500:
			if stored != 0 {
				t.Fatalf("%d stored %d samples: %s", w.Code, stored, w.Body.String())
			}
		default:
			t.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	})
}
