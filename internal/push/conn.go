package push

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
)

// One live connection: its upgrade and hello, and the loop that writes its queued frames.

// ConnectQuery documents the WebSocket's query parameters.
type ConnectQuery struct {
	Token string `query:"token" doc:"the bearer token from POST /v2/login; a client that can send headers may use Authorization: Bearer instead"`
	Lang  string `query:"lang" doc:"locale of the frames (zh-CN, en-US, zh-TW, ko-KR, ja-JP); default from Accept-Language"`
}

// Routes registers the WebSocket.
func (h *Hub) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/webpush/message", Tag: "message",
		Summary: "WebSocket of new messages and message counters (JSON frames {type, data}; see docs/alarms.md)",
		Access:  httpapi.Public, Query: ConnectQuery{}, Raw: h.ServeHTTP, RawStatus: http.StatusSwitchingProtocols})
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
	q := httpapi.Query[ConnectQuery](r)
	token := q.Token
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
	if l := q.Lang; l != "" {
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
