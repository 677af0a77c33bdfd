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
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
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

// ConnectQuery documents the WebSocket's query parameters.
type ConnectQuery struct {
	Token string `query:"token" validate:"required" doc:"the bearer token from POST /v2/login"`
	Lang  string `query:"lang" doc:"locale of the frames (zh-CN, en-US, zh-TW, ko-KR, ja-JP); default from Accept-Language"`
}

// Routes registers the WebSocket.
func (h *Hub) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/webpush/message", Tag: "message",
		Summary: "WebSocket of new messages and message counters (JSON frames {type, data}; see docs/alarms.md)",
		Access:  httpapi.Public, Query: ConnectQuery{}, Raw: h.ServeHTTP, RawType: "application/json"})
}

// Frame is one WebSocket text frame.
type Frame struct {
	Type string `json:"type" doc:"hello, message, counts, live or orders"`
	Data any    `json:"data"`
	// Counts rides on message frames: the reader's counters including the message.
	Counts *message.Counts `json:"counts,omitempty"`
}

// Hello is the first frame of a connection.
type Hello struct {
	UserID int64     `json:"userId"`
	Since  time.Time `json:"since" doc:"the session start: messages since then count"`
}

// ServeHTTP authenticates the token (query parameter `token`, or the Authorization
// header for non-browser clients) and upgrades to a WebSocket.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if token == "" {
		if t, ok := cutBearer(r.Header.Get("Authorization")); ok {
			token = t
		}
	}
	ctx := r.Context()
	p, err := h.opt.Sessions.Resolve(ctx, token)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	since, err := h.opt.Messages.SessionStart(ctx, p.TokenHash)
	if errors.Is(err, store.ErrNotFound) {
		httpapi.Fail(w, r, httpapi.Unauthorized())
		return
	}
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	if l := r.URL.Query().Get("lang"); l != "" {
		r.Header.Set("Accept-Language", l)
	}
	locale := httpapi.Locale(r)
	// Register before the handshake completes, so that no message committed after the
	// client sees the upgrade is missed: frames wait in the queue until the writer starts.
	c := &client{userID: p.UserID, orgID: p.OrgID, since: since, locale: locale, token: token, tokenHash: tokenHash(token),
		send: make(chan frame, h.opt.QueueSize), kick: make(chan struct{})}
	h.enqueue(c, frameBytes("hello", Hello{UserID: p.UserID, Since: since}))
	if !h.add(c) {
		httpapi.Fail(w, r, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: http.StatusServiceUnavailable, Key: "not_ready"})
		return
	}
	defer func() {
		h.remove(c)
		c.drain()
	}()
	// ended between the check above and the registration? (EndSessions comes after the
	// database says so, and found no connection yet)
	if _, err := h.opt.Sessions.Resolve(ctx, token); err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.opt.OriginPatterns})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(4096)
	h.mu.Lock() // EndSessions reads conn under the lock
	c.conn = conn
	h.mu.Unlock()
	// The server never expects data frames; CloseRead answers pings and closes.
	readCtx := conn.CloseRead(context.WithoutCancel(ctx))
	h.wantCounts(p.UserID)
	h.writeLoop(readCtx, c)
}

func cutBearer(h string) (string, bool) {
	const prefix = "Bearer "
	if len(h) > len(prefix) && h[:len(prefix)] == prefix {
		return h[len(prefix):], true
	}
	return "", false
}

func (h *Hub) writeLoop(readCtx context.Context, c *client) {
	ping := time.NewTicker(h.opt.PingInterval)
	defer ping.Stop()
	recheck := time.NewTicker(h.opt.RecheckInterval)
	defer recheck.Stop()
	for {
		select {
		case f := <-c.send:
			// Write this frame and whatever else is queued; Hub.watch bounds the time.
			c.writing.Store(time.Now().UnixNano())
			err := c.conn.Write(context.Background(), websocket.MessageText, f.b)
			f.d.Done()
			for n := len(c.send); err == nil && n > 0; n-- {
				f = <-c.send
				err = c.conn.Write(context.Background(), websocket.MessageText, f.b)
				f.d.Done()
			}
			c.writing.Store(0)
			if err != nil {
				c.conn.CloseNow()
				return
			}
		case <-ping.C:
			ctx, cancel := context.WithTimeout(readCtx, h.opt.PingTimeout)
			err := c.conn.Ping(ctx)
			cancel()
			if err != nil {
				c.conn.CloseNow()
				return
			}
		case <-recheck.C:
			if _, err := h.opt.Sessions.Resolve(readCtx, c.token); err != nil && httpapi.AsError(err).Status == http.StatusUnauthorized {
				c.conn.Close(StatusSessionEnded, "session ended")
				return
			}
		case <-c.kick:
			code, reason := closeCode(c)
			c.conn.Close(code, reason)
			return
		case <-readCtx.Done():
			c.conn.CloseNow()
			return
		}
	}
}

// StatusSessionEnded closes a connection whose session was signed out or revoked: the
// console should not reconnect with the same token.
const StatusSessionEnded websocket.StatusCode = 4001

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
