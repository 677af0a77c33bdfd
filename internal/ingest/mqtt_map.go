package ingest

import (
	"log/slog"
	"strconv"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/telemetry"
)

var mqttMapped = metrics.Default.NewCounter("helio_ingest_mqtt_mapped_total",
	"Messages on mapped topics (helio/map/{orgId}/…), by result: merged (into a sample), retained (a retained value, kept to carry), no_rule, unknown_device, no_value, rejected (a merged sample the write path refused), failed.", "result")

// DefaultMapPrefix is the root of the organisations' mapped topics: helio/map/{orgId}/….
const DefaultMapPrefix = "helio/map"

// mapTick is how often rounds past the merge window are closed.
const mapTick = 200 * time.Millisecond

// startMapping begins the merge's clock; it runs until the consumer stops.
func (m *MQTT) startMapping() {
	m.merge = newMerger(max(1, m.opt.InFlight/2))
	m.mapDone = make(chan struct{})
	go func() {
		defer close(m.mapDone)
		t := time.NewTicker(mapTick)
		defer t.Stop()
		for {
			select {
			case <-m.ctx.Done():
				return
			case <-t.C:
				m.submit(m.merge.due(false))
			}
		}
	}()
}

// stopMapping writes the open rounds (before the batcher closes).
func (m *MQTT) stopMapping() {
	if m.merge == nil {
		return
	}
	<-m.mapDone
	m.submit(m.merge.due(true))
}

// mapped tells whether a topic is under the mapping root, and handles it if so.
func (m *MQTT) mapped(msg paho.Message) bool {
	if m.opt.Mapping == nil {
		return false
	}
	rest, ok := strings.CutPrefix(msg.Topic(), m.opt.MapPrefix+"/")
	if !ok {
		return false
	}
	m.handleMapped(msg, rest)
	return true
}

func (m *MQTT) handleMapped(msg paho.Message, rest string) {
	orgPart, rel, _ := strings.Cut(rest, "/")
	org, err := strconv.ParseInt(orgPart, 10, 64)
	if err != nil || org <= 0 || rel == "" {
		m.malformed(msg, "topic", nil)
		return
	}
	mp := m.opt.Mapping
	rules, err := mp.Rules(m.ctx, org)
	if err != nil {
		m.mapFailed(msg, err)
		return
	}
	levels := strings.Split(rel, "/")
	var rule *compiledRule
	var sn string
	for _, r := range rules {
		if s, ok := r.match(levels); ok {
			rule, sn = r, s
			break
		}
	}
	if rule == nil {
		m.unstored(msg, org, rel, "no_rule", "")
		return
	}
	found, vals := rule.extract(msg.Payload())
	if found == 0 {
		m.unstored(msg, org, rel, "no_value", sn)
		return
	}
	if err := m.sync(false); err != nil {
		m.mapFailed(msg, err)
		return
	}
	dev, ok, err := m.w.DeviceBySN(m.ctx, org, sn)
	if err == nil && !ok {
		if err = m.sync(true); err == nil {
			dev, ok, err = m.w.DeviceBySN(m.ctx, org, sn)
		}
	}
	if err != nil {
		m.mapFailed(msg, err)
		return
	}
	if !ok {
		telemetry.CountRejected("mqtt", telemetry.ReasonUnknownDevice)
		m.unstored(msg, org, rel, "unknown_device", sn)
		return
	}
	if m.merge.needsSeed(dev.ID) {
		latest, err := telemetry.LatestIn(m.ctx, mp.db, []int64{dev.ID})
		if err != nil {
			m.mapFailed(msg, err)
			return
		}
		s, had := latest[dev.ID]
		m.merge.seed(dev.ID, s, had)
	}
	if msg.Retained() {
		m.merge.remember(dev.ID, found, vals)
		mqttMapped.Inc("retained")
		msg.Ack()
		return
	}
	mqttMapped.Inc("merged")
	src := source{org: org, topic: rel, sn: sn, payload: msg.Payload()}
	m.submit(m.merge.add(dev.ID, found, vals, src, func(ok bool) {
		if ok {
			msg.Ack()
		}
	}))
}

// unstored counts, lists and acknowledges a mapped message that gives no sample: it is
// never dropped silently, and never redelivered forever.
func (m *MQTT) unstored(msg paho.Message, org int64, rel, reason, sn string) {
	mqttMapped.Inc(reason)
	m.opt.Mapping.Arrived.Note(org, rel, reason, sn, msg.Payload(), time.Now())
	msg.Ack()
}

// mapFailed leaves a message unacknowledged and reconnects, so that it comes again.
func (m *MQTT) mapFailed(msg paho.Message, err error) {
	mqttMapped.Inc("failed")
	slog.Error("MQTT mapped message not processed", "topic", msg.Topic(), "err", err)
	m.reset()
}

// submit writes closed rounds; their messages are acknowledged once committed.
func (m *MQTT) submit(rounds []round) {
	for _, r := range rounds {
		acks, src := r.acks, r.src
		m.batch.Add([]telemetry.Sample{r.sample}, func(res telemetry.Result, err error) {
			switch {
			case err != nil:
				mqttMessages.Add(float64(len(acks)), "failed")
				slog.Error("MQTT mapped sample not stored", "device", r.sample.DeviceID, "err", err)
				m.reset()
			case res.Rejected > 0 && len(res.Reasons) > 0:
				// refused by the write path (a wrong scale gives an absurd power, …):
				// acknowledged, since it would be refused again, and listed with the reason
				mqttMessages.Add(float64(len(acks)), "refused")
				mqttMapped.Inc("rejected")
				m.opt.Mapping.Arrived.NoteRejected(src.org, src.topic, src.sn, res.Reasons[0], src.payload, time.Now())
			default:
				mqttMessages.Add(float64(len(acks)), "committed")
			}
			for _, a := range acks {
				a(err == nil)
			}
		})
	}
}
