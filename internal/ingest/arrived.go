package ingest

import (
	"sort"
	"sync"
	"time"
	"unicode/utf8"
)

// Arrived keeps, per organisation, the topics under its mapping root that were not made
// into samples — no rule matched, the device is unknown, no mapped value was found, or the
// write path refused the merged sample —
// so that an operator can see what arrives and write rules for it. Memory is bounded:
// at most maxTopics topics per organisation (the least recent goes) and maxOrgs
// organisations (the least recently active goes); a topic name and a payload are kept
// truncated.
type Arrived struct {
	mu        sync.Mutex
	orgs      map[int64]*arrivedOrg
	maxOrgs   int
	maxTopics int
}

// ArrivedTopic is one topic as listed.
type ArrivedTopic struct {
	Topic string `json:"topic" doc:"relative to the organisation's root, at most 256 bytes"`
	// Reason is why its messages were not stored: no_rule, unknown_device, no_value or
	// rejected (the merged sample was refused by the write path).
	Reason string `json:"reason" doc:"no_rule, unknown_device, no_value or rejected"`
	Device string `json:"device" doc:"unknown_device, rejected: the serial number the rule named"`
	// Detail is, for rejected, the write path's reason (power_out_of_range, …).
	Detail  string    `json:"detail"`
	Count   int64     `json:"count"`
	Last    time.Time `json:"last" doc:"RFC 3339"`
	Payload string    `json:"payload" doc:"the latest payload, at most 512 bytes"`
	Trimmed bool      `json:"trimmed" doc:"the payload was longer"`
}

type arrivedOrg struct {
	topics map[string]*ArrivedTopic
	last   time.Time
}

// Bounds of the view (about 200 × 1 KiB per organisation).
const (
	arrivedOrgs    = 256
	arrivedTopics  = 200
	arrivedPayload = 512
	arrivedTopic   = 256
)

// NewArrived keeps up to maxTopics topics for each of up to maxOrgs organisations.
func NewArrived(maxOrgs, maxTopics int) *Arrived {
	return &Arrived{orgs: map[int64]*arrivedOrg{}, maxOrgs: maxOrgs, maxTopics: maxTopics}
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// NoteRejected records a merged sample the write path refused, under its latest topic.
func (a *Arrived) NoteRejected(orgID int64, topic, device, why string, payload []byte, now time.Time) {
	a.note(orgID, topic, "rejected", device, why, payload, now)
}

// Note records a message of topic that was not stored.
func (a *Arrived) Note(orgID int64, topic, reason, device string, payload []byte, now time.Time) {
	a.note(orgID, topic, reason, device, "", payload, now)
}

func (a *Arrived) note(orgID int64, topic, reason, device, detail string, payload []byte, now time.Time) {
	topic, _ = truncate(topic, arrivedTopic)
	a.mu.Lock()
	defer a.mu.Unlock()
	o := a.orgs[orgID]
	if o == nil {
		if len(a.orgs) >= a.maxOrgs {
			var oldest int64
			first := true
			for id, x := range a.orgs {
				if first || x.last.Before(a.orgs[oldest].last) {
					oldest, first = id, false
				}
			}
			delete(a.orgs, oldest)
		}
		o = &arrivedOrg{topics: map[string]*ArrivedTopic{}}
		a.orgs[orgID] = o
	}
	o.last = now
	t := o.topics[topic]
	if t == nil {
		if len(o.topics) >= a.maxTopics {
			var oldest *ArrivedTopic
			for _, x := range o.topics {
				if oldest == nil || x.Last.Before(oldest.Last) {
					oldest = x
				}
			}
			delete(o.topics, oldest.Topic)
		}
		t = &ArrivedTopic{Topic: topic}
		o.topics[topic] = t
	}
	t.Count++
	t.Last, t.Reason, t.Device, t.Detail = now, reason, device, detail
	t.Payload, t.Trimmed = truncate(string(payload), arrivedPayload)
}

// List returns an organisation's topics, the most recent first.
func (a *Arrived) List(orgID int64) []ArrivedTopic {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := []ArrivedTopic{}
	if o := a.orgs[orgID]; o != nil {
		for _, t := range o.topics {
			out = append(out, *t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Last.Equal(out[j].Last) {
			return out[i].Last.After(out[j].Last)
		}
		return out[i].Topic < out[j].Topic
	})
	return out
}
