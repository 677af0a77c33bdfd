package push

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"

	"github.com/coder/websocket"
)

// endedEvent travels on the bus when sessions end (logout, password reset, account
// disabled): every replica closes the matching connections at once.
type endedEvent struct {
	SessionsEnded struct {
		UserID int64 `json:"userId"`
		// TokenHash names one session (logout); empty: all of the user's sessions.
		TokenHash string `json:"tokenHash,omitempty"`
	} `json:"sessionsEnded"`
}

var endedPrefix = []byte(`{"sessionsEnded":`)

// EndSessions closes, on every replica, the connections of a user's ended sessions: the
// one whose token hashes to tokenHash, or all of them when tokenHash is empty. Call it
// after the sessions are ended in the database (a connection that is opening re-checks its
// session once registered, so it cannot slip between the two).
func (h *Hub) EndSessions(ctx context.Context, userID int64, tokenHash string) {
	var ev endedEvent
	ev.SessionsEnded.UserID, ev.SessionsEnded.TokenHash = userID, tokenHash
	b, err := json.Marshal(ev)
	if err == nil {
		err = h.opt.Bus.Publish(ctx, b)
	}
	if err != nil {
		busErrorTotal.Inc()
		slog.Error("push: unable to publish ended sessions; their connections close at the next recheck", "err", err)
		h.closeEnded(ev) // this replica's at least
	}
}

// onEnded handles an endedEvent from the bus; false when data is another event.
func (h *Hub) onEnded(data []byte) bool {
	if !bytes.HasPrefix(data, endedPrefix) {
		return false
	}
	var ev endedEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		busErrorTotal.Inc()
		return true
	}
	h.closeEnded(ev)
	return true
}

func (h *Hub) closeEnded(ev endedEvent) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for c := range h.byUser[ev.SessionsEnded.UserID] {
		if ev.SessionsEnded.TokenHash == "" || c.tokenHash == ev.SessionsEnded.TokenHash {
			c.end()
		}
	}
}

// end closes the connection as ended (StatusSessionEnded): the console does not reconnect.
func (c *client) end() {
	c.ended.Store(true)
	c.close()
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func closeCode(c *client) (websocket.StatusCode, string) {
	if c.ended.Load() {
		return StatusSessionEnded, "session ended"
	}
	return websocket.StatusGoingAway, "closing"
}
