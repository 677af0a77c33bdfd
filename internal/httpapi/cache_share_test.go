package httpapi

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// natsBus is Bus over a real NATS server (as push.NATS, which this package cannot import).
type natsBus struct {
	nc      *nats.Conn
	subject string
}

func (b *natsBus) Publish(_ context.Context, data []byte) error { return b.nc.Publish(b.subject, data) }

func (b *natsBus) Subscribe(fn func([]byte)) (func(), error) {
	sub, err := b.nc.Subscribe(b.subject, func(m *nats.Msg) { fn(m.Data) })
	if err != nil {
		return nil, err
	}
	if err := b.nc.Flush(); err != nil {
		return nil, err
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func natsURL() string {
	if u := os.Getenv("HELIO_TEST_NATS"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

func gen(c *AnswerCache, org int64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gens[org]
}

// A write on one replica drops the organisation's answers on the others, over NATS; a
// replica does not drop its answers twice for its own announcement; other organisations
// keep theirs.
func TestInvalidateReachesEveryReplica(t *testing.T) {
	subject := fmt.Sprintf("helio.answers.test.%d", time.Now().UnixNano())
	var caches []*AnswerCache
	for i := 0; i < 3; i++ {
		nc, err := nats.Connect(natsURL())
		if err != nil {
			t.Fatalf("NATS at %s: %v", natsURL(), err)
		}
		t.Cleanup(nc.Close)
		c := NewAnswerCache(time.Minute, 0)
		stop, err := c.ShareOver(&natsBus{nc: nc, subject: subject})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		caches = append(caches, c)
	}
	caches[0].Invalidate(7)
	deadline := time.Now().Add(5 * time.Second)
	for gen(caches[1], 7) == 0 || gen(caches[2], 7) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the other replicas did not hear of the write: generations %d, %d", gen(caches[1], 7), gen(caches[2], 7))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// the writer's own announcement comes back to it too: it must not count twice
	caches[1].Invalidate(8)
	for gen(caches[0], 8) == 0 || gen(caches[2], 8) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the second announcement was not heard")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if g := gen(caches[0], 7); g != 1 {
		t.Errorf("the writer moved its generation %d times, want once", g)
	}
	if g := gen(caches[0], 9); g != 0 {
		t.Errorf("another organisation's answers were dropped (%d)", g)
	}
}
