package push

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Bus carries events between replicas (DESIGN.md section 7). A published event reaches
// every subscriber of every replica on the bus, the publisher's own included, in the order
// published by each publisher.
type Bus interface {
	Publish(ctx context.Context, data []byte) error
	// Subscribe calls fn for each event, one at a time, until the returned function is
	// called.
	Subscribe(fn func(data []byte)) (unsubscribe func(), err error)
	Close() error
}

// Local is the in-process bus of a single replica.
type Local struct {
	mu     sync.Mutex
	subs   map[int]*localSub
	next   int
	closed bool
}

type localSub struct {
	ch   chan any
	done chan struct{}
}

// ValueBus is a Bus that can also carry Go values as they are (the in-process bus): a
// value is shared by every subscriber and must not change once published.
type ValueBus interface {
	Bus
	PublishValue(ctx context.Context, v any) error
	// SubscribeValues calls fn for each event, a []byte for those published as bytes.
	SubscribeValues(fn func(v any)) (unsubscribe func(), err error)
}

// NewLocal returns an in-process bus.
func NewLocal() *Local { return &Local{subs: map[int]*localSub{}} }

// ErrClosed is returned when publishing on a closed bus.
var ErrClosed = errors.New("push: bus closed")

// Publish hands the event to every subscriber's queue. A subscriber whose queue is full
// (4096 events behind) loses the event and a warning is logged.
func (b *Local) Publish(ctx context.Context, data []byte) error { return b.PublishValue(ctx, data) }

// PublishValue hands a Go value to every subscriber's queue, as Publish does bytes.
func (b *Local) PublishValue(_ context.Context, v any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	for _, s := range b.subs {
		select {
		case s.ch <- v:
		default:
			slog.Warn("push: local bus subscriber is behind; event dropped")
		}
	}
	return nil
}

// Subscribe starts delivering the events published as bytes to fn on its own goroutine.
func (b *Local) Subscribe(fn func([]byte)) (func(), error) {
	return b.SubscribeValues(func(v any) {
		if data, ok := v.([]byte); ok {
			fn(data)
		}
	})
}

// SubscribeValues starts delivering every event to fn on its own goroutine.
func (b *Local) SubscribeValues(fn func(any)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	s := &localSub{ch: make(chan any, 4096), done: make(chan struct{})}
	id := b.next
	b.next++
	b.subs[id] = s
	go func() {
		for {
			select {
			case v := <-s.ch:
				fn(v)
			case <-s.done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, id)
			b.mu.Unlock()
			close(s.done)
		})
	}, nil
}

// Close stops every subscription.
func (b *Local) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	for id, s := range b.subs {
		close(s.done)
		delete(b.subs, id)
	}
	return nil
}

// NATS is a bus on a NATS subject shared by every replica.
type NATS struct {
	nc      *nats.Conn
	subject string
}

// DefaultSubject is the NATS subject Helio's events travel on.
const DefaultSubject = "helio.events"

// DialNATS connects to a NATS server (e.g. nats://127.0.0.1:4222) and publishes on
// subject (DefaultSubject when empty). The client reconnects on its own.
func DialNATS(url, subject string) (*NATS, error) {
	if subject == "" {
		subject = DefaultSubject
	}
	nc, err := nats.Connect(url, nats.Name("helio"), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				slog.Warn("push: NATS disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { slog.Info("push: NATS reconnected") }))
	if err != nil {
		return nil, fmt.Errorf("push: unable to reach NATS at %s: %w", url, err)
	}
	return &NATS{nc: nc, subject: subject}, nil
}

// Publish sends the event to every replica.
func (b *NATS) Publish(_ context.Context, data []byte) error {
	if err := b.nc.Publish(b.subject, data); err != nil {
		return fmt.Errorf("push: NATS publish: %w", err)
	}
	return nil
}

// Subscribe delivers the subject's events to fn (one at a time, in order).
func (b *NATS) Subscribe(fn func([]byte)) (func(), error) {
	sub, err := b.nc.Subscribe(b.subject, func(m *nats.Msg) { fn(m.Data) })
	if err != nil {
		return nil, fmt.Errorf("push: NATS subscribe: %w", err)
	}
	// Events may come in bursts (one per chunk of a large fan-out): allow a deep queue.
	_ = sub.SetPendingLimits(1<<16, 256<<20)
	// Make sure the server knows the subscription before the caller relies on it.
	if err := b.nc.FlushTimeout(5 * time.Second); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("push: NATS subscribe: %w", err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// ErrNoResponders means no replica serves the subject's requests.
var ErrNoResponders = errors.New("push: no replica answers")

// Request sends data to one replica serving the subject (Serve) and returns its answer.
func (b *NATS) Request(ctx context.Context, data []byte) ([]byte, error) {
	m, err := b.nc.RequestWithContext(ctx, b.subject, data)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, ErrNoResponders
	}
	if err != nil {
		return nil, fmt.Errorf("push: NATS request: %w", err)
	}
	return m.Data, nil
}

// Serve answers the subject's requests with fn, each on its own goroutine, until the
// returned function is called. When several replicas serve, each request reaches one.
func (b *NATS) Serve(fn func(ctx context.Context, data []byte) []byte) (func(), error) {
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := b.nc.QueueSubscribe(b.subject, "serve", func(m *nats.Msg) {
		go func() { _ = m.Respond(fn(ctx, m.Data)) }()
	})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("push: NATS serve: %w", err)
	}
	if err := b.nc.FlushTimeout(5 * time.Second); err != nil {
		cancel()
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("push: NATS serve: %w", err)
	}
	return func() { _ = sub.Unsubscribe(); cancel() }, nil
}

// MaxPayload is the largest event the server accepts.
func (b *NATS) MaxPayload() int64 { return b.nc.MaxPayload() }

// Close drains the connection.
func (b *NATS) Close() error {
	b.nc.Close()
	return nil
}
