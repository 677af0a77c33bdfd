package push

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/message"
)

// Events between replicas: published to every replica's hub, delivered to this replica's
// connections as message frames and counters.

// maxChunk bounds the messages carried by one bus event (NATS' default payload limit is
// 1 MiB; a message is well under 2 KiB).
const maxChunk = 256

// FollowsDelivery says a batch's Delivery is followed: the events reach this replica's
// connections in process (message.Follower).
func (h *Hub) FollowsDelivery() bool {
	_, ok := h.opt.Bus.(ValueBus)
	return ok
}

// Publish sends an event to every replica's hub (message.Publisher).
func (h *Hub) Publish(ctx context.Context, ev message.Event) error {
	if vb, ok := h.opt.Bus.(ValueBus); ok {
		// In process the event travels as it is.
		if err := vb.PublishValue(ctx, &ev); err != nil {
			batchQueued(ev.Batch)
			busErrorTotal.Inc()
			slog.Error("push: unable to publish", "err", err)
			return err
		}
		return nil
	}
	var first error
	send := func(e message.Event) {
		b, err := json.Marshal(e)
		if err == nil {
			err = h.opt.Bus.Publish(ctx, b)
		}
		if err != nil {
			busErrorTotal.Inc()
			slog.Error("push: unable to publish", "err", err)
			if first == nil {
				first = err
			}
		}
	}
	for start := 0; start < len(ev.Messages); start += maxChunk {
		send(message.Event{Messages: ev.Messages[start:min(start+maxChunk, len(ev.Messages))]})
	}
	if len(ev.CountsOf) > 0 || len(ev.Live) > 0 || len(ev.Orders) > 0 {
		send(message.Event{CountsOf: ev.CountsOf, Live: ev.Live, Orders: ev.Orders})
	}
	if b := ev.Batch; b != nil {
		for start := 0; start < len(b.Users); start += maxBatchChunk {
			end := min(start+maxBatchChunk, len(b.Users))
			send(message.Event{Batch: &message.Batch{Message: b.Message, Users: b.Users[start:end], IDs: b.IDs[start:end], Opened: b.Opened}})
		}
	}
	return first
}

// onEvent delivers one bus event to this replica's connections: message frames at once,
// counters right after from the database.
func (h *Hub) onEvent(data []byte) {
	if h.onEnded(data) {
		return
	}
	var ev message.Event
	if err := json.Unmarshal(data, &ev); err != nil {
		busErrorTotal.Inc()
		slog.Error("push: undecodable event", "err", err)
		return
	}
	h.deliver(&ev)
}

// wantCounts schedules a counters frame for every connection of the users.
func (h *Hub) wantCounts(users ...int64) {
	if len(users) == 0 {
		return
	}
	h.countsMu.Lock()
	for _, u := range users {
		h.countsPending[u] = struct{}{}
	}
	h.countsMu.Unlock()
	select {
	case h.countsWake <- struct{}{}:
	default:
	}
}

// countsLoop sends counters frames, coalescing the users asked for meanwhile into one
// database round per batch.
func (h *Hub) countsLoop() {
	defer h.wg.Done()
	for {
		select {
		case <-h.closing:
			return
		case <-h.countsWake:
		}
		select {
		case <-h.closing:
			return
		case <-time.After(h.opt.CountsDelay):
		}
		h.countsMu.Lock()
		pending := h.countsPending
		h.countsPending = map[int64]struct{}{}
		h.countsMu.Unlock()
		type target struct {
			c *client
			r message.Reader
		}
		var targets []target
		var readers []message.Reader
		h.mu.RLock()
		for u := range pending {
			for c := range h.byUser[u] {
				r := message.Reader{UserID: u, Since: c.since}
				targets = append(targets, target{c, r})
				readers = append(readers, r)
			}
		}
		h.mu.RUnlock()
		if len(targets) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		counts, err := h.opt.Messages.CountsOf(ctx, readers)
		cancel()
		if err != nil {
			slog.Error("push: unable to count messages", "err", err)
			continue
		}
		cache := map[message.Reader][]byte{}
		for _, t := range targets {
			cnt := counts[t.r]
			t.c.cmu.Lock()
			t.c.counts, t.c.ready = cnt, true
			t.c.cmu.Unlock()
			b, ok := cache[t.r]
			if !ok {
				b = frameBytes("counts", cnt)
				cache[t.r] = b
			}
			h.enqueue(t.c, b)
		}
	}
}
