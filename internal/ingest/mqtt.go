package ingest

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/telemetry"
)

var mqttMessages = metrics.Default.NewCounter("helio_ingest_mqtt_messages_total",
	"MQTT messages received, by result (committed, malformed, failed).", "result")

// MQTTOptions configure the MQTT consumer.
type MQTTOptions struct {
	// URL of the broker: mqtt://host:port or mqtts://host:port, with optional user:password.
	URL string
	// ClientID is fixed so that the broker keeps the session (and queues QoS 1 messages)
	// across restarts. Default "helio-ingest". Replicas each need their own.
	ClientID string
	// TopicPrefix is the first two topic levels (default "helio/v1").
	TopicPrefix string
	// SharedGroup, when set, subscribes as a shared subscription ($share/GROUP/…) so that
	// several replicas split the stream.
	SharedGroup string
	// InFlight is the broker's window of unacknowledged QoS 1 messages per client
	// (Mosquitto's max_inflight_messages, default 20): a batch is written when it is full.
	InFlight int
	// Mapping, when set, also consumes the organisations' own topic shapes under
	// MapPrefix/{orgId}/… through their mapping rules (mqtt_map.go, docs/ingest.md, "MQTT topics of their own shape").
	Mapping *Mapping
	// MapPrefix is the root of mapped topics (default "helio/map").
	MapPrefix string
	// Batch tunes the batcher. MaxPending defaults to half of InFlight, so that one batch
	// is received and parsed while the one before is written.
	Batch telemetry.BatchOptions
}

// MQTT consumes telemetry from a broker. Topics (see docs/telemetry.md):
//
//	{prefix}/{orgId}/{collectorSn}/{deviceSn}/telemetry   one device; samples without sn
//	{prefix}/{orgId}/{collectorSn}/telemetry              a collector; each sample has its sn
//
// The payload is one sample object or an array. Messages are QoS 1 on a persistent
// session and acknowledged only once their samples are committed.
type MQTT struct {
	w      *telemetry.Writer
	opt    MQTTOptions
	client paho.Client
	batch  *telemetry.Batcher
	ctx    context.Context
	cancel context.CancelFunc

	ready     chan struct{}
	readyOnce sync.Once
	resetting atomic.Bool
	synced    atomic.Int64 // when the registry was last checked (unix ns)

	merge   *merger       // rounds of mapped topics (nil without Mapping)
	mapDone chan struct{} // closed when the merge's clock has stopped
}

// StartMQTT connects to the broker and starts consuming. It does not wait for the broker:
// the client keeps retrying, and Ready tells when the first subscription is in place.
func StartMQTT(w *telemetry.Writer, opt MQTTOptions) (*MQTT, error) {
	u, err := url.Parse(opt.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("ingest: bad MQTT URL %q (want mqtt://host:port)", opt.URL)
	}
	broker := "tcp://" + u.Host
	switch u.Scheme {
	case "mqtt", "tcp":
	case "mqtts", "ssl", "tls":
		broker = "ssl://" + u.Host
	default:
		return nil, fmt.Errorf("ingest: bad MQTT URL scheme %q (want mqtt or mqtts)", u.Scheme)
	}
	if opt.ClientID == "" {
		opt.ClientID = "helio-ingest"
	}
	if opt.TopicPrefix == "" {
		opt.TopicPrefix = "helio/v1"
	}
	opt.TopicPrefix = strings.TrimSuffix(opt.TopicPrefix, "/")
	if opt.MapPrefix == "" {
		opt.MapPrefix = DefaultMapPrefix
	}
	opt.MapPrefix = strings.TrimSuffix(opt.MapPrefix, "/")
	if opt.InFlight <= 0 {
		opt.InFlight = 20
	}
	if opt.Batch.MaxPending == 0 {
		opt.Batch.MaxPending = max(1, opt.InFlight/2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &MQTT{w: w, opt: opt, ctx: ctx, cancel: cancel, ready: make(chan struct{})}
	m.batch = w.NewBatcher("mqtt", opt.Batch)
	if opt.Mapping != nil {
		m.startMapping()
	}

	co := paho.NewClientOptions().AddBroker(broker).SetClientID(opt.ClientID).
		SetCleanSession(false).SetAutoAckDisabled(true).SetOrderMatters(true).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).
		SetMaxReconnectInterval(10 * time.Second).SetKeepAlive(30 * time.Second).
		SetDefaultPublishHandler(m.handle).
		SetOnConnectHandler(m.subscribe).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			slog.Warn("MQTT connection lost, reconnecting", "broker", u.Host, "err", err)
		})
	if u.User != nil {
		co.SetUsername(u.User.Username())
		if p, ok := u.User.Password(); ok {
			co.SetPassword(p)
		}
	}
	m.client = paho.NewClient(co)
	m.client.Connect() // retries in the background (SetConnectRetry)
	return m, nil
}

// Ready is closed once the consumer is connected and subscribed.
func (m *MQTT) Ready() <-chan struct{} { return m.ready }

// Stop writes and acknowledges what is pending, then disconnects. The broker keeps the
// session: messages published meanwhile are delivered on the next start.
func (m *MQTT) Stop() {
	m.cancel()
	m.stopMapping()
	m.batch.Close()
	m.client.Disconnect(250)
}

func (m *MQTT) filters() map[string]byte {
	f := map[string]byte{
		m.opt.TopicPrefix + "/+/+/telemetry":   1,
		m.opt.TopicPrefix + "/+/+/+/telemetry": 1,
	}
	if m.opt.Mapping != nil {
		f[m.opt.MapPrefix+"/#"] = 1
	}
	if m.opt.SharedGroup != "" {
		shared := map[string]byte{}
		for k, v := range f {
			shared["$share/"+m.opt.SharedGroup+"/"+k] = v
		}
		f = shared
	}
	return f
}

func (m *MQTT) subscribe(c paho.Client) {
	tok := c.SubscribeMultiple(m.filters(), m.handle)
	go func() {
		if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			slog.Error("MQTT subscribe failed", "err", tok.Error())
			return
		}
		slog.Info("MQTT telemetry consumer subscribed", "client", m.opt.ClientID, "prefix", m.opt.TopicPrefix)
		m.readyOnce.Do(func() { close(m.ready) })
	}()
}

// parseTopic splits {prefix}/{org}/{collector}[/{device}]/telemetry.
func (m *MQTT) parseTopic(topic string) (org int64, collector, device string, ok bool) {
	rest, found := strings.CutPrefix(topic, m.opt.TopicPrefix+"/")
	if !found {
		return 0, "", "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 3 || len(parts) > 4 || parts[len(parts)-1] != "telemetry" {
		return 0, "", "", false
	}
	org, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || org <= 0 || parts[1] == "" {
		return 0, "", "", false
	}
	if len(parts) == 4 {
		if parts[2] == "" {
			return 0, "", "", false
		}
		device = parts[2]
	}
	return org, parts[1], device, true
}

func (m *MQTT) malformed(msg paho.Message, why string, err error) {
	malformedTotal.Inc("mqtt")
	mqttMessages.Inc("malformed")
	slog.Warn("MQTT message dropped", "topic", msg.Topic(), "reason", why, "err", err, "bytes", len(msg.Payload()))
	msg.Ack()
}

func (m *MQTT) handle(_ paho.Client, msg paho.Message) {
	if m.mapped(msg) {
		return
	}
	org, collector, deviceSN, ok := m.parseTopic(msg.Topic())
	if !ok {
		m.malformed(msg, "topic", nil)
		return
	}
	wire, err := ParsePayload(msg.Payload())
	if err != nil {
		m.malformed(msg, "payload", err)
		return
	}
	// the devices as they are now: checked at most every syncEvery, and again for a device
	// not known or known under another collector (one added or moved a moment ago); the
	// write path checks again before every batch
	if err := m.sync(false); err != nil {
		slog.Error("MQTT message not processed", "topic", msg.Topic(), "err", err)
		mqttMessages.Inc("failed")
		m.reset()
		return
	}
	samples := make([]telemetry.Sample, 0, len(wire))
	var refused []refusal
	for i := range wire {
		sn := deviceSN
		if sn == "" {
			sn = wire[i].SN
		} else if wire[i].SN != "" && wire[i].SN != sn {
			m.malformed(msg, "sn differs from the topic", nil)
			return
		}
		if sn == "" {
			m.malformed(msg, "sample without sn on a collector topic", nil)
			return
		}
		dev, found, err := m.w.DeviceBySN(m.ctx, org, sn)
		if err == nil && (!found || dev.CollectorSN != collector) {
			if err = m.sync(true); err == nil {
				dev, found, err = m.w.DeviceBySN(m.ctx, org, sn)
			}
		}
		if err != nil {
			slog.Error("MQTT message not processed", "topic", msg.Topic(), "err", err)
			mqttMessages.Inc("failed")
			m.reset()
			return
		}
		switch {
		case !found:
			refused = append(refused, refusal{sn: sn, reason: telemetry.ReasonUnknownDevice, t: wire[i].Time})
		case dev.CollectorSN != collector:
			refused = append(refused, refusal{sn: sn, reason: "wrong_collector", t: wire[i].Time})
		default:
			samples = append(samples, wire[i].Sample(dev.ID))
		}
	}
	if len(refused) > 0 {
		m.refuse(msg, org, collector, refused)
	}
	if len(samples) == 0 {
		// nothing to store: consumed (so one misconfigured device cannot stall the
		// broker's window for every other), counted as refused, never as committed
		msg.Ack()
		return
	}
	m.batch.Add(samples, func(_ telemetry.Result, err error) {
		if err != nil {
			// not acknowledged: the broker delivers it again after the reconnect
			mqttMessages.Inc("failed")
			slog.Error("MQTT samples not stored", "topic", msg.Topic(), "err", err)
			m.reset()
			return
		}
		mqttMessages.Inc("committed")
		msg.Ack()
	})
}

// syncEvery is how often at most the consumer checks the device registry's version for
// devices it knows (a check is a query; a message of a large fleet holds a few samples).
const syncEvery = 50 * time.Millisecond

// sync brings the writer's devices up to date: when force, or syncEvery after the last.
func (m *MQTT) sync(force bool) error {
	now := time.Now().UnixNano()
	if !force && now-m.synced.Load() < int64(syncEvery) {
		return nil
	}
	if err := m.w.Sync(m.ctx); err != nil {
		return err
	}
	m.synced.Store(now)
	return nil
}

// reset reconnects after a failure, so that the broker redelivers what was not
// acknowledged.
func (m *MQTT) reset() {
	if m.ctx.Err() != nil || !m.resetting.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer m.resetting.Store(false)
		m.client.Disconnect(100)
		select {
		case <-m.ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
		m.client.Connect()
	}()
}
