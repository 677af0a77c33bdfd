package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"strings"
)

// Bus carries small messages to every replica (push.NATS is one).
type Bus interface {
	Publish(ctx context.Context, data []byte) error
	Subscribe(fn func([]byte)) (func(), error)
}

// ShareOver makes every replica's cache drop an organisation's answers when any replica's
// does (an API write): each Invalidate is announced on bus as "<replica>:<org>", and the
// announcements of other replicas are applied here. It returns a function that stops
// listening.
func (c *AnswerCache) ShareOver(bus Bus) (func(), error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	self := hex.EncodeToString(b[:])
	stop, err := bus.Subscribe(func(msg []byte) {
		from, org, ok := strings.Cut(string(msg), ":")
		if !ok || from == self {
			return
		}
		if id, err := strconv.ParseInt(org, 10, 64); err == nil {
			c.drop(id)
		}
	})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.shared = func(orgID int64) {
		if err := bus.Publish(context.Background(), []byte(self+":"+strconv.FormatInt(orgID, 10))); err != nil {
			slog.Warn("answer cache: the other replicas were not told of a write", "org", orgID, "err", err)
		}
	}
	c.mu.Unlock()
	return stop, nil
}
