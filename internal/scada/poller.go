package scada

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/sunspec"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Target is one device the poller reads.
type Target struct {
	DeviceID   int64
	OrgID      int64
	DeviceType string
	Addr       string // host:port; devices sharing it share one connection (a gateway)
	Unit       uint8
	Interval   time.Duration
	Timeout    time.Duration
	MapID      int64
	MapName    string // shown on the debugging page with the version
	MapVersion int
	Registers  []Register // nil: SunSpec discovery
}

// Options configure a Poller.
type Options struct {
	// Sink takes each polled sample (the telemetry write path). It must not block long.
	Sink func(ctx context.Context, samples []telemetry.Sample)
	// MinBackoff and MaxBackoff bound the wait before reconnecting to an endpoint that
	// keeps failing (defaults 500 ms and 60 s); the wait doubles per failure.
	MinBackoff, MaxBackoff time.Duration
	// Logger takes "connection lost" and "connection restored", once per transition
	// (default: the server's log, slog.Default()).
	Logger *slog.Logger
}

// Poller polls every target on one goroutine per endpoint (host:port): requests to the
// units behind one gateway go one after another over one connection.
type Poller struct {
	opt       Options
	ctx       context.Context
	cancel    context.CancelFunc
	mu        sync.Mutex
	endpoints map[string]*endpoint
	status    map[int64]*Status
	comms     map[int64]string // CommStates' snapshot (nil: to be taken again)
	commsGen  uint64           // bumped at every new snapshot
	dirty     map[int64]bool   // statuses changed since takeDirty
	gone      []int64          // devices dropped since takeDirty
	changed   chan struct{}    // a device changed state
	wg        sync.WaitGroup
}

// NewPoller returns a running poller with no targets.
func NewPoller(opt Options) *Poller {
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = 500 * time.Millisecond
	}
	if opt.MaxBackoff <= 0 {
		opt.MaxBackoff = time.Minute
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Sink == nil {
		opt.Sink = func(context.Context, []telemetry.Sample) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Poller{opt: opt, ctx: ctx, cancel: cancel, endpoints: map[string]*endpoint{}, status: map[int64]*Status{},
		dirty: map[int64]bool{}, changed: make(chan struct{}, 1)}
}

// Close stops every endpoint and closes its connection.
func (p *Poller) Close() {
	p.mu.Lock()
	p.cancel() // under mu: no Apply starts an endpoint after this
	p.mu.Unlock()
	p.wg.Wait()
}

// Apply makes targets the poller's whole work: new devices start, removed ones stop,
// changed ones take their new settings at their next poll. No restart needed.
func (p *Poller) Apply(targets []Target) { p.ApplySeeded(targets, nil) }

// ApplySeeded is Apply where a device new to this poller starts from its status in seed
// (what the replica that polled it before knew), if there.
func (p *Poller) ApplySeeded(targets []Target, seed map[int64]Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return // closed
	}
	byAddr := map[string][]Target{}
	keep := map[int64]bool{}
	for _, t := range targets {
		byAddr[t.Addr] = append(byAddr[t.Addr], t)
		keep[t.DeviceID] = true
		if p.status[t.DeviceID] == nil {
			st, ok := seed[t.DeviceID]
			if !ok {
				st = Status{State: StateConnecting}
			}
			st.Errors = append([]PollError(nil), st.Errors...)
			p.status[t.DeviceID] = &st
			p.dirty[t.DeviceID] = true
			p.comms = nil
		}
	}
	for id := range p.status {
		if !keep[id] {
			delete(p.status, id)
			delete(p.dirty, id)
			p.comms = nil
			p.gone = append(p.gone, id)
		}
	}
	for addr, e := range p.endpoints {
		if _, ok := byAddr[addr]; !ok {
			e.stop()
			delete(p.endpoints, addr)
		}
	}
	for addr, ts := range byAddr {
		e := p.endpoints[addr]
		if e == nil {
			e = newEndpoint(p, addr)
			p.endpoints[addr] = e
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				e.run()
			}()
		}
		e.set(ts)
	}
}

// Devices is the number of devices being polled.
func (p *Poller) Devices() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.status)
}

// ErrNotPolled means the device has no field connection on this poller.
var ErrNotPolled = errors.New("scada: device not polled")

// Do runs fn on the device's connection between two polls (debug reads and writes), so
// it never overlaps another request on that connection.
func (p *Poller) Do(ctx context.Context, deviceID int64, fn func(s *Session) error) error {
	p.mu.Lock()
	var e *endpoint
	for _, x := range p.endpoints {
		if x.has(deviceID) {
			e = x
		}
	}
	p.mu.Unlock()
	if e == nil {
		return ErrNotPolled
	}
	j := &job{device: deviceID, fn: fn, done: make(chan error, 1)}
	select {
	case e.jobs <- j:
	case <-ctx.Done():
		return ctx.Err()
	case <-p.ctx.Done():
		return ErrNotPolled
	}
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Session is a device's connection lent to a debug call.
type Session struct {
	Target Target
	l      *link
	state  *tstate
}

// Read reads registers of the device.
func (s *Session) Read(function string, addr, count uint16) ([]uint16, error) {
	s.l.setUnit(s.Target.Unit)
	return s.l.read(function, addr, count)
}

// Write writes holding registers of the device.
func (s *Session) Write(addr uint16, words []uint16) error {
	s.l.setUnit(s.Target.Unit)
	return s.l.write(addr, words)
}

// Layout discovers (or returns the known) SunSpec layout of the device.
func (s *Session) Layout() (*sunspec.Layout, error) {
	if s.state.layout != nil {
		return s.state.layout, nil
	}
	l, err := sunspec.Discover(unitReader{s.l, s.Target.Unit})
	if err == nil {
		s.state.layout = l
	}
	return l, err
}

// Reader is the device as a sunspec.Reader.
func (s *Session) Reader() sunspec.Reader { return unitReader{s.l, s.Target.Unit} }

type job struct {
	device int64
	fn     func(s *Session) error
	done   chan error
}

// backoff is the wait after n consecutive connection failures (n >= 1), ±20 %.
func (p *Poller) backoff(n int) time.Duration {
	d := p.opt.MinBackoff
	for i := 1; i < n && d < p.opt.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, p.opt.MaxBackoff)
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}
