package ingest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// A device registered a moment ago is known to the consumer for its very first message;
// a sample of a device Helio does not know is never counted as committed: it is counted
// as refused and a notice goes out on {prefix}/{org}/{collector}/refused.
func TestMQTTNewDeviceFirstSampleAndRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("N"))
		prefix := startConsumer(t, telemetry.NewWriter(db, telemetry.Options{}), brokerURL())
		pub := publisher(t)
		notices := make(chan RefusedNotice, 10)
		tok := pub.Subscribe(fmt.Sprintf("%s/%d/%s/refused", prefix, f.org, f.collector), 1, func(_ paho.Client, msg paho.Message) {
			var n RefusedNotice
			if json.Unmarshal(msg.Payload(), &n) == nil {
				notices <- n
			}
		})
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		now := time.Now().UTC().Truncate(time.Second)
		at := func(min int) int64 { return now.Add(-time.Duration(min) * time.Minute).UnixMilli() }
		topic := func(sn string) string { return fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.collector, sn) }
		publish(t, pub, topic(f.inv1SN), fmt.Sprintf(`{"time":%d,"powerKw":1,"energyKwh":1}`, at(9)))
		waitStored(t, db, 1, f.inv1, 0, always)

		refusedBefore := mqttMessages.Value("refused")
		unknownBefore := telemetry.RejectedCount("mqtt", telemetry.ReasonUnknownDevice)
		newSN := uniq("NEW-")
		publish(t, pub, topic(newSN), fmt.Sprintf(`{"time":%d,"powerKw":1,"energyKwh":1}`, at(8)))
		select {
		case n := <-notices:
			if len(n.Samples) != 1 || n.Samples[0].SN != newSN || n.Samples[0].Reason != "unknown_device" || n.Samples[0].Time != at(8) {
				t.Fatalf("notice %+v", n)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no refusal notice for an unknown device")
		}
		if got := mqttMessages.Value("refused") - refusedBefore; got != 1 {
			t.Fatalf("%v messages counted as refused, want 1", got)
		}
		if got := telemetry.RejectedCount("mqtt", telemetry.ReasonUnknownDevice) - unknownBefore; got != 1 {
			t.Fatalf("%v unknown-device samples counted, want 1", got)
		}

		// registered now (as the API does), published at once: stored
		ms := time.Now().UnixMilli()
		id := insert(t, db, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, collector_sn, created_at, updated_at)
			SELECT org_id, station_id, 'new', ?, 'inverter', 50, collector_sn, ?, ? FROM devices WHERE id = ?`, newSN, ms, ms, f.inv1)
		publish(t, pub, topic(newSN), fmt.Sprintf(`{"time":%d,"powerKw":1,"energyKwh":1}`, at(7)))
		waitStored(t, db, 1, id, 0, always)
		if n := stored(t, db, id, 0, always); n != 1 {
			t.Fatalf("%d samples of the new device", n)
		}
	})
}
