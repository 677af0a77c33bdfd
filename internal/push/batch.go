package push

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/helio-energy/helio/internal/message"
)

// maxBatchChunk bounds the users named by one bus event of a batch (a few hundred KB of
// JSON on NATS).
const maxBatchChunk = 8192

// frameHead and idHead open every message frame; the message's own fields follow its id.
var (
	frameHead = []byte(`{"type":"message","data":{"id":`)
	idHead    = []byte(`{"id":0`)
)

// deliverBatch queues a batch's message frames: the message is rendered and encoded
// once per locale, and each connection's frame is that encoding with the reader's id
// and counters spliced in (exactly what encode would give). It returns recount with the
// users whose counters are not known yet. The caller holds h.mu for reading.
func (h *Hub) deliverBatch(b *message.Batch, recount []int64) []int64 {
	tails := map[string][]byte{}
	m := &b.Message
	alarmPending := m.Kind == message.KindAlarm && m.ProcessStatus == "pending"
	countsAlarms := h.opt.Messages.CountsAlarms()
	var buf []byte
	for i, u := range b.Users {
		id := b.IDs[i]
		for c := range h.byUser[u] {
			if m.Created.Before(c.since) {
				continue
			}
			var cnt message.Counts
			c.cmu.Lock()
			known := c.ready
			if known {
				if id > c.counts.LastID && m.Status == message.Unread {
					c.counts.Unread++
					if alarmPending && !countsAlarms {
						c.counts.UnprocessedAlarm++
					}
				}
				if alarmPending && countsAlarms && b.Opened && m.AlarmID > c.counts.LastAlarm {
					c.counts.UnprocessedAlarm++
					c.counts.LastAlarm = m.AlarmID
				}
				cnt = c.counts
			}
			c.cmu.Unlock()
			if !known {
				recount = append(recount, c.userID)
			}
			tail, ok := tails[c.locale]
			if !ok {
				tail = messageTail(m, c.locale)
				tails[c.locale] = tail
			}
			if tail == nil {
				continue
			}
			buf = appendMessageFrame(buf[:0], id, tail, cnt, known)
			framesTotal.Inc("message")
			h.enqueueFor(c, bytes.Clone(buf), b.Delivery)
		}
	}
	return recount
}

// batchQueued says a batch's frames are all queued on this replica (b may be nil).
func batchQueued(b *message.Batch) {
	if b != nil {
		b.Delivery.Queued()
	}
}

// messageTail is the JSON of a message rendered in a locale, after its id field.
func messageTail(m *message.Record, locale string) []byte {
	b, err := json.Marshal(m.Render(locale))
	if err != nil || !bytes.HasPrefix(b, idHead) {
		slog.Error("push: unable to encode frame", "type", "message", "err", err)
		return nil
	}
	return b[len(idHead):]
}

// appendMessageFrame appends {"type":"message","data":{"id":<id>…tail},"counts":{…}}.
func appendMessageFrame(dst []byte, id int64, tail []byte, cnt message.Counts, withCounts bool) []byte {
	dst = append(dst, frameHead...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, tail...)
	if withCounts {
		dst = append(dst, `,"counts":{"unread":`...)
		dst = strconv.AppendInt(dst, int64(cnt.Unread), 10)
		dst = append(dst, `,"unprocessedAlarm":`...)
		dst = strconv.AppendInt(dst, int64(cnt.UnprocessedAlarm), 10)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
