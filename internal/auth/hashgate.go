package auth

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"
)

// ErrBusy is returned by HashGate.Do when the hashing work is at its bound.
var ErrBusy = errors.New("auth: password hashing is at capacity")

// HashGate bounds the password hashing a process does at once. Each argon2id check takes
// argonMemory (19 MiB) for its duration, so without a bound concurrent sign-ins with
// made-up names grow the heap by 19 MiB each. At most Slots checks run at once (memory:
// Slots × 19 MiB); up to Queue more wait at most Wait for a slot; beyond that, and after
// the wait, Do answers ErrBusy without hashing.
type HashGate struct {
	slots   chan struct{}
	queue   int64
	wait    time.Duration
	waiting atomic.Int64
	busy    atomic.Uint64
}

// NewHashGate returns a gate of slots concurrent checks (0: the number of CPUs, at most 4),
// queue waiting ones (0: 8 per slot) and a wait of at most wait (0: 3 s).
func NewHashGate(slots, queue int, wait time.Duration) *HashGate {
	if slots <= 0 {
		slots = min(runtime.NumCPU(), 4)
	}
	if queue <= 0 {
		queue = 8 * slots
	}
	if wait <= 0 {
		wait = 3 * time.Second
	}
	return &HashGate{slots: make(chan struct{}, slots), queue: int64(queue), wait: wait}
}

// Slots is the number of checks that may run at once.
func (g *HashGate) Slots() int { return cap(g.slots) }

// Refused counts the calls answered ErrBusy so far.
func (g *HashGate) Refused() uint64 { return g.busy.Load() }

// Do runs fn once a slot is free, or answers ErrBusy (or the context's error).
func (g *HashGate) Do(ctx context.Context, fn func()) error {
	select {
	case g.slots <- struct{}{}:
	default:
		if g.waiting.Add(1) > g.queue {
			g.waiting.Add(-1)
			g.busy.Add(1)
			return ErrBusy
		}
		t := time.NewTimer(g.wait)
		select {
		case g.slots <- struct{}{}:
			g.waiting.Add(-1)
			t.Stop()
		case <-t.C:
			g.waiting.Add(-1)
			g.busy.Add(1)
			return ErrBusy
		case <-ctx.Done():
			g.waiting.Add(-1)
			t.Stop()
			return ctx.Err()
		}
	}
	defer func() { <-g.slots }()
	fn()
	return nil
}
