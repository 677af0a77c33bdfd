package ingest

import (
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/helio-energy/helio/internal/telemetry"
)

// refusal is a sample of an MQTT message that is not stored: its device is unknown in
// the topic's organisation, or reports through another collector.
type refusal struct {
	sn, reason string
	t          WireTime
}

// RefusedNotice is published (QoS 1, not retained) on {prefix}/{org}/{collector}/refused
// for every message with samples that were not stored, so that a collector can keep them
// and send them again once the device is registered.
type RefusedNotice struct {
	Topic   string          `json:"topic"`
	Samples []RefusedSample `json:"samples"`
}

// RefusedSample names one refused sample.
type RefusedSample struct {
	SN     string `json:"sn"`
	Time   int64  `json:"time" doc:"unix milliseconds"`
	Reason string `json:"reason" doc:"unknown_device or wrong_collector"`
}

// refusalLog keeps the WARN log to one line per device and reason per minute.
var refusalLog = struct {
	sync.Mutex
	last map[string]time.Time
}{last: map[string]time.Time{}}

func logRefusal(topic string, r refusal, n int) {
	key := r.sn + "\x00" + r.reason
	now := time.Now()
	refusalLog.Lock()
	if len(refusalLog.last) > 10_000 {
		clear(refusalLog.last)
	}
	if now.Sub(refusalLog.last[key]) < time.Minute {
		refusalLog.Unlock()
		return
	}
	refusalLog.last[key] = now
	refusalLog.Unlock()
	slog.Warn("MQTT samples refused, not stored", "topic", topic, "sn", r.sn, "reason", r.reason, "samples", n)
}

func (m *MQTT) refuse(msg paho.Message, org int64, collector string, refused []refusal) {
	notice := RefusedNotice{Topic: msg.Topic()}
	perSN := map[refusal]int{}
	for _, r := range refused {
		telemetry.CountRejected("mqtt", r.reason)
		notice.Samples = append(notice.Samples, RefusedSample{SN: r.sn, Time: time.Time(r.t).UnixMilli(), Reason: r.reason})
		perSN[refusal{sn: r.sn, reason: r.reason}]++
	}
	for r, n := range perSN {
		logRefusal(msg.Topic(), r, n)
	}
	mqttMessages.Inc("refused")
	body, err := json.Marshal(notice)
	if err != nil {
		return
	}
	m.client.Publish(m.opt.TopicPrefix+"/"+strconv.FormatInt(org, 10)+"/"+collector+"/refused", 1, false, body)
}
