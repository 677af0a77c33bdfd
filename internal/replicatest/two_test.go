package replicatest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/proctest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// committed is the replica's count of MQTT messages committed since it started.
func committed(t *testing.T, r *replica) int {
	t.Helper()
	status, body := call(t, "GET", r.url()+"/metrics", "", "")
	if status != 200 {
		t.Fatalf("metrics of %s: %d", r.name, status)
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, `helio_ingest_mqtt_messages_total{result="committed"} `) {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return 0
}

func login(t *testing.T, base, user string) string {
	t.Helper()
	status, body := call(t, "POST", base+"/v2/login", "", fmt.Sprintf(`{"username":%q,"password":%q}`, user, demo.Password))
	var out struct {
		Data struct{ Token string } `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &out); status != 200 || err != nil || out.Data.Token == "" {
		t.Fatalf("sign in as %s: %d %s", user, status, body)
	}
	return out.Data.Token
}

// inverter is a demo inverter the test feeds: over HTTP with its own key, or over MQTT
// behind the test's collector.
type inverter struct {
	id       int64
	sn, coll string
}

func seed(t *testing.T, db *store.DB, key, coll string) (orgID int64, http inverter, mqtt []inverter) {
	t.Helper()
	ctx := context.Background()
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(ctx, "SELECT id, sn FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 5", acc.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	var invs []inverter
	for rows.Next() {
		var v inverter
		if err := rows.Scan(&v.id, &v.sn); err != nil {
			t.Fatal(err)
		}
		invs = append(invs, v)
	}
	rows.Close()
	if len(invs) < 5 {
		t.Fatalf("the demo fleet has %d inverters", len(invs))
	}
	if _, err := db.Exec(ctx, "UPDATE devices SET ingest_key_hash = ? WHERE id = ?", ingest.HashKey(key), invs[0].id); err != nil {
		t.Fatal(err)
	}
	for i := range invs[1:] {
		invs[1+i].coll = coll
		if _, err := db.Exec(ctx, "UPDATE devices SET collector_sn = ? WHERE id = ?", coll, invs[1+i].id); err != nil {
			t.Fatal(err)
		}
	}
	return acc.OrgID, invs[0], invs[1:]
}

// Two replicas on one PostgreSQL schema, NATS and the MQTT broker (a shared subscription):
// a sample ingested through one shows through the other; an alarm raised on one reaches a
// WebSocket client of the other; a Modbus device is polled by one replica only (one
// connection) while both answer its status and live reads; a session ended on one is refused by the other at once;
// killing one (SIGKILL) while devices publish, and starting it again, loses no acknowledged
// sample. The broker keeps what its shared subscription gave the killed replica's session
// until that session returns: run replicas under a supervisor that restarts them
// (docs/deploy.md).
func TestTwoReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	schema := storetest.NewSchemaName()
	db := storetest.PostgresSchema(t, schema)
	key, coll := uniq("replica-key-"), uniq("REPL-")
	orgID, viaHTTP, viaMQTT := seed(t, db, key, coll)
	bin := buildHelio(t)
	// the topics are the test's own: they name its random collector
	const prefix = "helio/v1"
	common := []string{"--db", storetest.SchemaURL(schema), "--nats", natsURL(), "--mqtt", brokerURL(),
		"--mqtt-share-group", uniq("g")}
	var reps []*replica
	for _, name := range []string{"a", "b"} {
		r := &replica{t: t, name: name, bin: bin, data: t.TempDir(), addr: proctest.FreeAddr(t), log: &proctest.Log{},
			args: append(append([]string{}, common...), "--mqtt-client-id", uniq("helio-"+name+"-"))}
		r.start()
		t.Cleanup(r.stop)
		reps = append(reps, r)
	}
	a, b := reps[0], reps[1]
	ctx := context.Background()

	t.Run("a session ended on one is refused by the other at once", func(t *testing.T) {
		token := login(t, a.url(), "operator")
		if status, body := call(t, "GET", b.url()+"/v2/user/info", token, ""); status != 200 {
			t.Fatalf("the other replica refused a live session: %d %s", status, body)
		}
		if status, body := call(t, "POST", a.url()+"/v2/logout", token, ""); status != 200 {
			t.Fatalf("logout: %d %s", status, body)
		}
		if status, _ := call(t, "GET", b.url()+"/v2/user/info", token, ""); status != 401 {
			t.Fatalf("the other replica still serves an ended session: %d", status)
		}
	})

	admin := login(t, b.url(), "admin")
	sample := func(power float64, status int) string {
		return fmt.Sprintf(`{"samples":[{"sn":%q,"time":%d,"powerKw":%v,"status":%d}]}`, viaHTTP.sn, time.Now().UnixMilli(), power, status)
	}

	t.Run("a sample ingested through one is visible through the other", func(t *testing.T) {
		if status, body := call(t, "POST", a.url()+"/v2/ingest/samples", "", sample(7.321, 1), "X-Helio-Key", key); status != 200 {
			t.Fatalf("ingest: %d %s", status, body)
		}
		took := eventually(t, 10*time.Second, "the sample through the other replica", func() (bool, string) {
			status, body := call(t, "GET", fmt.Sprintf("%s/v2/dev/detail/%d", b.url(), viaHTTP.id), admin, "")
			return status == 200 && strings.Contains(body, "7.321"), body
		})
		t.Logf("shown by the other replica after %v", took.Round(time.Millisecond))
	})

	t.Run("an alarm raised on one reaches a WebSocket client of the other", func(t *testing.T) {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		c, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(b.url(), "http")+"/v2/webpush/message?token="+admin, nil)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		defer c.CloseNow()
		if _, hello, err := c.Read(wctx); err != nil || !strings.Contains(string(hello), `"type":"hello"`) {
			t.Fatalf("hello: %s %v", hello, err)
		}
		time.Sleep(200 * time.Millisecond) // the clock moves past the sample above
		sent := time.Now()
		if status, body := call(t, "POST", a.url()+"/v2/ingest/samples", "", sample(0, 2), "X-Helio-Key", key); status != 200 {
			t.Fatalf("fault sample: %d %s", status, body)
		}
		var frames []string
		for {
			_, frame, err := c.Read(wctx)
			if err != nil {
				var alarms, msgs int
				_ = db.QueryRow(ctx, "SELECT COUNT(*) FROM alarms WHERE device_id = ?", viaHTTP.id).Scan(&alarms)
				_ = db.QueryRow(ctx, "SELECT COUNT(*) FROM messages").Scan(&msgs)
				t.Fatalf("no alarm message reached the other replica's client: %v (alarms of the device %d, messages %d; frames: %s)",
					err, alarms, msgs, strings.Join(frames, " | "))
			}
			frames = append(frames, string(frame))
			if strings.Contains(string(frame), `"type":"message"`) && strings.Contains(string(frame), `"messageType":"alarm"`) {
				t.Logf("alarm message on the other replica's WebSocket %v after the sample", time.Since(sent).Round(time.Millisecond))
				break
			}
		}
	})

	t.Run("a Modbus device is polled by one replica and answered by both", func(t *testing.T) {
		var dev int64
		if err := db.QueryRow(ctx, "SELECT id FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 1 OFFSET 5", orgID).Scan(&dev); err != nil {
			t.Fatal(err)
		}
		im := sunspectest.NewImage()
		im.PutSunSpec(40000, sunspectest.Load(t, 103).Block(map[string]float64{"W": 6000, "WH": 1e6, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 0}, nil))
		device := sunspectest.Counting(t, sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: im}}).Addr)
		host, port, _ := strings.Cut(device.Addr, ":")
		if status, body := call(t, "POST", b.url()+"/v1/scada/dev/set", admin,
			fmt.Sprintf(`{"deviceId":%d,"host":%q,"port":%s,"unitId":1,"intervalS":1,"timeoutMs":500}`, dev, host, port)); status != 200 {
			t.Fatalf("link: %d %s", status, body)
		}
		var polls [2]int64
		for i, r := range reps {
			eventually(t, 15*time.Second, "the device online through replica "+r.name, func() (bool, string) {
				status, body := call(t, "POST", r.url()+"/v1/scada/dev/get", admin, fmt.Sprintf(`{"deviceId":%d}`, dev))
				var out struct {
					Data struct {
						Status *struct {
							State string
							Polls int64
						}
					}
				}
				_ = json.Unmarshal([]byte(body), &out)
				if st := out.Data.Status; status == 200 && st != nil && st.State == "online" && st.Polls >= 3 {
					polls[i] = st.Polls
					return true, body
				}
				return false, body
			})
		}
		for _, r := range reps {
			if status, body := call(t, "POST", r.url()+"/v1/scada/register/get", admin, fmt.Sprintf(`{"deviceId":%d}`, dev)); status != 200 ||
				!strings.Contains(body, `"protocol":"sunspec"`) {
				t.Fatalf("live read through replica %s: %d %s", r.name, status, body)
			}
		}
		if n := device.Opened(); n != 1 {
			t.Fatalf("the device saw %d connections from the replicas, want one (polls seen %v)", n, polls)
		}
		if status, body := call(t, "POST", a.url()+"/v1/scada/dev/delete", admin, fmt.Sprintf(`{"deviceId":%d}`, dev)); status != 200 {
			t.Fatalf("unlink: %d %s", status, body)
		}
		eventually(t, 5*time.Second, "the polling replica lets go of the device", func() (bool, string) {
			return device.Open() == 0, fmt.Sprintf("%d connections open", device.Open())
		})
	})

	t.Run("killing one and starting it again loses no acknowledged sample", func(t *testing.T) {
		pub := paho.NewClient(paho.NewClientOptions().AddBroker(brokerURL()).SetClientID(uniq("replicatest-pub-")).
			SetCleanSession(true).SetAutoReconnect(true))
		if tok := pub.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("MQTT broker: %v", tok.Error())
		}
		defer pub.Disconnect(100)
		base := time.Now().Add(-3 * time.Hour).Truncate(time.Minute).UnixMilli()
		var mu sync.Mutex
		acked := map[int64][]int64{} // device → acknowledged sample times
		const rounds = 120
		var beforeKill int
		for i := 0; i < rounds; i++ {
			if i == rounds/3 {
				beforeKill = committed(t, a)
				a.kill() // mid-stream, no goodbye
			}
			if i == 2*rounds/3 {
				a.start() // its broker session hands it what arrived meanwhile
			}
			at := base + int64(i)*60_000
			for _, d := range viaMQTT {
				body := fmt.Sprintf(`[{"time":%d,"powerKw":%v,"energyKwh":%v,"status":1}]`, at, 1+float64(i%7), 1000+float64(i))
				tok := pub.Publish(fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, orgID, d.coll, d.sn), 1, false, body)
				if tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
					mu.Lock()
					acked[d.id] = append(acked[d.id], at)
					mu.Unlock()
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		want := 0
		for _, ts := range acked {
			want += len(ts)
		}
		if want < rounds*len(viaMQTT)*9/10 {
			t.Fatalf("the broker acknowledged only %d of %d samples", want, rounds*len(viaMQTT))
		}
		eventually(t, 60*time.Second, "every acknowledged sample stored", func() (bool, string) {
			missing := 0
			for id, times := range acked {
				n, err := telemetry.CountStored(ctx, db, id, times[0], times[len(times)-1]+1)
				if err != nil {
					t.Fatal(err)
				}
				missing += max(0, len(times)-int(n))
			}
			return missing == 0, fmt.Sprintf("%d of %d acknowledged samples missing", missing, want)
		})
		for id, times := range acked {
			for _, at := range times {
				if n, err := telemetry.CountStored(ctx, db, id, at, at+1); err != nil || n != 1 {
					t.Fatalf("device %d, sample at %d: stored %d times (%v)", id, at, n, err)
				}
			}
		}
		// the shared subscription gave both replicas their part
		if onB := committed(t, b); beforeKill == 0 || onB == 0 {
			t.Fatalf("the replicas did not share the messages: %d committed by the killed one before its end, %d by the other", beforeKill, onB)
		}
		t.Logf("%d acknowledged samples, all stored once, across a SIGKILL of one replica", want)
	})
}
