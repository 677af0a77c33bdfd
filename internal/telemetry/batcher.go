package telemetry

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// BatchOptions tune a Batcher. Zero values take the defaults.
type BatchOptions struct {
	// MaxSamples: a batch is written once it holds this many samples (default 5000); Add
	// waits while a full batch is waiting for the writer.
	MaxSamples int
	// MaxPending: or once it holds this many submissions (0 = no limit). An MQTT consumer
	// sets it to the broker's in-flight window, which no more messages can pass unacked.
	MaxPending int
	// Linger: an idle writer takes a batch this long after its first submission
	// (default 5 ms), so that submissions arriving together are written together.
	Linger time.Duration
	// Retries: a failed write is retried this many times with back-off (default 3)
	// before the submissions are told the error.
	Retries int
}

// Done is told what became of a submission, after the commit (or the final failure).
// Its Result covers the submission's samples only, in their order.
type Done func(Result, error)

type submission struct {
	samples []Sample
	done    Done
}

// Batcher gathers samples from a streaming source into batches for Write. Submitters
// learn the outcome of their own samples once their batch is committed: an MQTT
// consumer acknowledges a message only then. On SQLite a batch's roll-up changes are
// written a moment later with those of the batches after it (deferred.go).
type Batcher struct {
	w      *Writer
	source string
	opt    BatchOptions
	in     chan submission
	out    chan []submission
	stop   chan struct{}
	wg     sync.WaitGroup
	mu     sync.RWMutex // held by Add while sending, by Close to mark closed
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
}

// ErrClosed is told to submissions added after Close.
var ErrClosed = errors.New("telemetry: batcher closed")

// NewBatcher starts a batcher writing as source.
func (w *Writer) NewBatcher(source string, opt BatchOptions) *Batcher {
	if opt.MaxSamples <= 0 {
		opt.MaxSamples = 5000
	}
	if opt.Linger <= 0 {
		opt.Linger = 5 * time.Millisecond
	}
	if opt.Retries <= 0 {
		opt.Retries = 3
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Batcher{w: w, source: source, opt: opt, in: make(chan submission, 64), out: make(chan []submission),
		stop: make(chan struct{}), ctx: ctx, cancel: cancel}
	b.wg.Add(2)
	go b.gather()
	go b.write()
	return b
}

// Add submits samples; done is called once, from the batcher's goroutine, when they are
// committed or have failed. It must not block.
func (b *Batcher) Add(samples []Sample, done Done) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		if done != nil {
			done(Result{}, ErrClosed)
		}
		return
	}
	b.in <- submission{samples, done}
}

// Close writes what is pending, waits for it and stops the batcher; the roll-up changes
// its writes left waiting are written too.
func (b *Batcher) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.stop)
	}
	b.mu.Unlock()
	b.wg.Wait()
	b.cancel()
	if err := b.w.Flush(context.Background()); err != nil {
		slog.Warn("telemetry roll-ups not written at close: the next start adds them", "source", b.source, "err", err)
	}
}

func (b *Batcher) gather() {
	defer b.wg.Done()
	defer close(b.out)
	var cur []submission
	n := 0
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	stopping, stop := false, b.stop
	for {
		full := n >= b.opt.MaxSamples || (b.opt.MaxPending > 0 && len(cur) >= b.opt.MaxPending)
		ready := len(cur) > 0 && (full || stopping || time.Since(first) >= b.opt.Linger)
		var out chan []submission
		if ready {
			out = b.out
		}
		in := b.in
		if full {
			in = nil // back-pressure: Add waits until the writer takes this batch
		}
		if stopping && len(cur) == 0 {
			// drain what was submitted before Close
			select {
			case s := <-b.in:
				cur, n, first = append(cur, s), n+len(s.samples), time.Now()
				continue
			default:
				return
			}
		}
		select {
		case s := <-in:
			if len(cur) == 0 {
				first = time.Now()
				timer.Reset(b.opt.Linger)
			}
			cur = append(cur, s)
			n += len(s.samples)
		case out <- cur:
			cur, n = nil, 0
		case <-timer.C:
		case <-stop:
			stopping, stop = true, nil
		}
	}
}

func (b *Batcher) write() {
	defer b.wg.Done()
	for batch := range b.out {
		var all []Sample
		for _, s := range batch {
			all = append(all, s.samples...)
		}
		var res Result
		var err error
		for attempt := 0; ; attempt++ {
			res, err = b.w.write(b.ctx, b.source, all, false, true)
			if err == nil || attempt >= b.opt.Retries {
				break
			}
			slog.Warn("telemetry batch failed, retrying", "source", b.source, "samples", len(all), "err", err)
			time.Sleep(time.Duration(100<<attempt) * time.Millisecond)
		}
		off := 0
		for _, s := range batch {
			n := len(s.samples)
			if s.done != nil {
				if err != nil {
					s.done(Result{}, err)
				} else {
					part := Result{Outcomes: res.Outcomes[off : off+n], Reasons: res.Reasons[off : off+n]}
					part.count()
					s.done(part, nil)
				}
			}
			off += n
		}
	}
}
