// Package push delivers new messages and message counters to the console over a
// WebSocket (GET /v2/webpush/message?token=…), and carries the events between replicas
// over a Bus (in-process, or NATS across replicas). docs/alarms.md describes the
// protocol.
package push

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/metrics"
)

var (
	framesTotal   = metrics.Default.NewCounter("helio_push_frames_total", "WebSocket frames queued, by type.", "type")
	droppedTotal  = metrics.Default.NewCounter("helio_push_slow_clients_total", "Connections closed because they fell behind.")
	busErrorTotal = metrics.Default.NewCounter("helio_push_bus_errors_total", "Events that could not be published or decoded.")
	// openConns counts the open connections of every hub in the process.
	openConns atomic.Int64
)

func init() {
	metrics.Default.NewGaugeFunc("helio_push_connections", "Open WebSocket connections.",
		func() float64 { return float64(openConns.Load()) })
}

// Resolver turns a bearer token into the signed-in principal (auth.Sessions).
type Resolver interface {
	Resolve(ctx context.Context, token string) (*httpapi.Principal, error)
}

// Options configure a Hub. Messages and Sessions are required.
type Options struct {
	Messages *message.Store
	Sessions Resolver
	// Bus carries events between replicas (default: an in-process bus).
	Bus Bus
	// PingInterval is how often the server pings each connection (default 25 s); a
	// connection that does not answer within PingTimeout (default 15 s) is closed.
	PingInterval time.Duration
	PingTimeout  time.Duration
	// RecheckInterval is how often a connection's session is checked again (default
	// 2 min): a session that was signed out or revoked closes its connections.
	RecheckInterval time.Duration
	// WriteTimeout bounds one frame write (default 10 s).
	WriteTimeout time.Duration
	// QueueSize is how many frames may wait for a slow connection before it is closed
	// (default 256).
	QueueSize int
	// CountsDelay is how long counter updates wait after the event that asked for them
	// (default 50 ms): message frames go out first, and a burst costs one database round.
	CountsDelay time.Duration
	// OriginPatterns lists other origins allowed to connect (the console's own host is
	// always allowed).
	OriginPatterns []string
}

// Hub holds this replica's WebSocket connections and delivers the bus's events to them.
type Hub struct {
	opt   Options
	unsub func()

	mu      sync.RWMutex
	byUser  map[int64]map[*client]struct{}
	count   atomic.Int64
	closing chan struct{}
	closed  bool

	countsMu      sync.Mutex
	countsPending map[int64]struct{}
	countsWake    chan struct{}
	wg            sync.WaitGroup

	live liveState
}

type client struct {
	userID int64
	orgID  int64
	since  time.Time
	locale string
	token  string
	// tokenHash is the session's stored form (auth.HashToken), named by EndSessions.
	tokenHash string
	ended     atomic.Bool
	send      chan frame
	conn      *websocket.Conn
	kick      chan struct{}
	kickOnce  sync.Once

	// counts are the connection's counters: read from the database when it connects and
	// whenever messages are read or alarms processed, and advanced in memory by each
	// new message after counts.LastID (so a message frame needs no database round).
	cmu    sync.Mutex
	counts message.Counts
	ready  bool

	// writing is when the frame being written began (unix nanoseconds, 0 when idle): a
	// write stuck longer than WriteTimeout closes the connection (Hub.watch).
	writing atomic.Int64
}

func (c *client) close() { c.kickOnce.Do(func() { close(c.kick) }) }

// NewHub starts a hub on the bus.
func NewHub(opt Options) (*Hub, error) {
	if opt.Messages == nil || opt.Sessions == nil {
		return nil, errors.New("push: Messages and Sessions are required")
	}
	if opt.Bus == nil {
		opt.Bus = NewLocal()
	}
	if opt.PingInterval <= 0 {
		opt.PingInterval = 25 * time.Second
	}
	if opt.PingTimeout <= 0 {
		opt.PingTimeout = 15 * time.Second
	}
	if opt.RecheckInterval <= 0 {
		opt.RecheckInterval = 2 * time.Minute
	}
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = 10 * time.Second
	}
	if opt.QueueSize <= 0 {
		opt.QueueSize = 256
	}
	if opt.CountsDelay <= 0 {
		opt.CountsDelay = 50 * time.Millisecond
	}
	h := &Hub{opt: opt, byUser: map[int64]map[*client]struct{}{}, closing: make(chan struct{}),
		countsPending: map[int64]struct{}{}, countsWake: make(chan struct{}, 1)}
	var unsub func()
	var err error
	if vb, ok := opt.Bus.(ValueBus); ok {
		unsub, err = vb.SubscribeValues(h.onValue)
	} else {
		unsub, err = opt.Bus.Subscribe(h.onEvent)
	}
	if err != nil {
		return nil, err
	}
	h.unsub = unsub
	h.wg.Add(2)
	go h.countsLoop()
	go h.watch()
	return h, nil
}

// watch closes connections whose write has been stuck for longer than WriteTimeout (a
// peer that stopped reading), checking a few times per timeout.
func (h *Hub) watch() {
	defer h.wg.Done()
	t := time.NewTicker(max(h.opt.WriteTimeout/4, 50*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-h.closing:
			return
		case now := <-t.C:
			limit := now.Add(-h.opt.WriteTimeout).UnixNano()
			h.mu.RLock()
			for _, set := range h.byUser {
				for c := range set {
					if w := c.writing.Load(); w != 0 && w < limit {
						c.conn.CloseNow()
					}
				}
			}
			h.mu.RUnlock()
		}
	}
}

// Close disconnects every client and stops listening to the bus (the bus itself is the
// caller's to close).
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.closing)
	for _, set := range h.byUser {
		for c := range set {
			c.close()
		}
	}
	h.mu.Unlock()
	h.unsub()
	h.wg.Wait()
	return nil
}

// Connections is the number of open connections on this replica.
func (h *Hub) Connections() int { return int(h.count.Load()) }

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	set := h.byUser[c.userID]
	if set == nil {
		set = map[*client]struct{}{}
		h.byUser[c.userID] = set
	}
	set[c] = struct{}{}
	h.count.Add(1)
	openConns.Add(1)
	return true
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.byUser[c.userID]; set != nil {
		if _, ok := set[c]; ok {
			delete(set, c)
			h.count.Add(-1)
			openConns.Add(-1)
		}
		if len(set) == 0 {
			delete(h.byUser, c.userID)
		}
	}
}

// frame is a queued frame and the delivery it belongs to (nil for most).
type frame struct {
	b []byte
	d *message.Delivery
}

// enqueue queues a frame; a connection that has fallen QueueSize frames behind is closed
// (the console reconnects and reloads its counters).
func (h *Hub) enqueue(c *client, b []byte) { h.enqueueFor(c, b, nil) }

// enqueueFor queues a frame of a followed delivery: counted now, done when written or
// dropped.
func (h *Hub) enqueueFor(c *client, b []byte, d *message.Delivery) {
	d.Add()
	select {
	case c.send <- frame{b, d}:
	default:
		d.Done()
		droppedTotal.Inc()
		c.close()
	}
}

// drain lets go of the frames still queued once the connection is gone.
func (c *client) drain() {
	for {
		select {
		case f := <-c.send:
			f.d.Done()
		default:
			return
		}
	}
}

func frameBytes(typ string, data any) []byte { return encode(Frame{Type: typ, Data: data}) }

func encode(f Frame) []byte {
	b, err := json.Marshal(f)
	if err != nil {
		slog.Error("push: unable to encode frame", "type", f.Type, "err", err)
		return nil
	}
	framesTotal.Inc(f.Type)
	return b
}
