package push

import (
	"context"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/message"
)

// Live is the data of a "live" frame: the stations the user may see have new samples.
// It names no station (the frame goes to the whole organisation): the console reads its
// own view of the figures again.
type Live struct {
	At time.Time `json:"at"`
}

// liveDelay merges the samples committed within it into one "live" event per
// organisation, so a busy ingest costs each connection at most one frame a second.
const liveDelay = time.Second

// liveState gathers the organisations whose stations changed since the last event.
type liveState struct {
	mu      sync.Mutex
	pending map[int64]struct{}
	armed   bool
}

// StationsChanged announces that samples of the organisations' devices were committed.
// Calls within liveDelay are merged; the event reaches every replica's connections.
func (h *Hub) StationsChanged(orgIDs []int64) {
	if len(orgIDs) == 0 {
		return
	}
	h.live.mu.Lock()
	if h.live.pending == nil {
		h.live.pending = map[int64]struct{}{}
	}
	for _, o := range orgIDs {
		h.live.pending[o] = struct{}{}
	}
	arm := !h.live.armed
	h.live.armed = true
	h.live.mu.Unlock()
	if arm {
		time.AfterFunc(liveDelay, h.flushLive)
	}
}

func (h *Hub) flushLive() {
	h.live.mu.Lock()
	orgs := make([]int64, 0, len(h.live.pending))
	for o := range h.live.pending {
		orgs = append(orgs, o)
	}
	h.live.pending, h.live.armed = map[int64]struct{}{}, false
	h.live.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = h.Publish(ctx, message.Event{Live: orgs})
}

// deliverLive queues a "live" frame for each connection of the organisations (h.mu held
// for reading).
func (h *Hub) deliverLive(orgs []int64) { h.deliverToOrgs("live", orgs) }

// deliverOrders queues an "orders" frame (work orders changed: the console reads its orders
// and the alarms they were opened from again) for each connection of the organisations.
// Like "live" it names nothing: each reader reads its own view again.
func (h *Hub) deliverOrders(orgs []int64) { h.deliverToOrgs("orders", orgs) }

func (h *Hub) deliverToOrgs(typ string, orgs []int64) {
	if len(orgs) == 0 {
		return
	}
	want := make(map[int64]bool, len(orgs))
	for _, o := range orgs {
		want[o] = true
	}
	b := frameBytes(typ, Live{At: time.Now().UTC()})
	for _, set := range h.byUser {
		for c := range set {
			if want[c.orgID] {
				h.enqueue(c, b)
			}
		}
	}
}
