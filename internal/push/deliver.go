package push

import "github.com/helio-energy/helio/internal/message"

// onValue is onEvent for the in-process bus: events come as Go values.
func (h *Hub) onValue(v any) {
	switch ev := v.(type) {
	case []byte:
		h.onEvent(ev)
	case *message.Event:
		h.deliver(ev)
	}
}

// deliver hands one event to this replica's connections.
func (h *Hub) deliver(ev *message.Event) {
	type key struct {
		m      *message.Record
		locale string
		counts message.Counts
		known  bool
	}
	rendered := map[key][]byte{}
	var recount []int64
	h.mu.RLock()
	for i := range ev.Messages {
		m := &ev.Messages[i]
		for c := range h.byUser[m.UserID] {
			if m.Created.Before(c.since) {
				continue
			}
			// Each message frame carries the reader's counters with the message in them.
			k := key{m: m, locale: c.locale}
			c.cmu.Lock()
			if c.ready {
				if m.ID > c.counts.LastID && m.Status == message.Unread {
					c.counts.Unread++
					if m.Kind == message.KindAlarm && m.ProcessStatus == "pending" && !h.opt.Messages.CountsAlarms() {
						c.counts.UnprocessedAlarm++
					}
				}
				k.counts, k.known = c.counts, true
			}
			c.cmu.Unlock()
			if !k.known {
				recount = append(recount, c.userID)
			}
			b, ok := rendered[k]
			if !ok {
				f := Frame{Type: "message", Data: m.Render(c.locale)}
				if k.known {
					cnt := k.counts
					f.Counts = &cnt
				}
				b = encode(f)
				rendered[k] = b
			}
			h.enqueue(c, b)
		}
		clear(rendered)
	}
	if ev.Batch != nil {
		recount = h.deliverBatch(ev.Batch, recount)
		batchQueued(ev.Batch)
	}
	for _, u := range ev.CountsOf {
		if len(h.byUser[u]) > 0 {
			recount = append(recount, u)
		}
	}
	h.deliverLive(ev.Live)
	h.deliverOrders(ev.Orders)
	h.mu.RUnlock()
	h.wantCounts(recount...)
}
