package scada

import (
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/sunspec"
	"github.com/helio-energy/helio/internal/telemetry"
	"github.com/simonvetter/modbus"
)

// tstate is a target and what the endpoint remembers of it between polls.
type tstate struct {
	Target
	next   time.Time
	layout *sunspec.Layout
	acc    sunspec.Accumulators
	ident  [3]string
	named  bool // the common model was read
}

// endpoint owns one address's connection and polls its targets in turn.
type endpoint struct {
	p       *Poller
	addr    string
	mu      sync.Mutex
	targets map[int64]*tstate
	wake    chan struct{}
	jobs    chan *job
	quit    chan struct{}
	once    sync.Once
	link    *link
	fails   int       // consecutive connection-level failures
	retryAt time.Time // no connection attempt before this
}

func newEndpoint(p *Poller, addr string) *endpoint {
	return &endpoint{p: p, addr: addr, targets: map[int64]*tstate{}, wake: make(chan struct{}, 1),
		jobs: make(chan *job), quit: make(chan struct{})}
}

func (e *endpoint) stop() { e.once.Do(func() { close(e.quit) }) }

func (e *endpoint) has(id int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.targets[id]
	return ok
}

// set replaces the endpoint's targets; a device whose connection settings or map
// changed is read afresh (layout discovered again).
func (e *endpoint) set(ts []Target) {
	e.mu.Lock()
	now := time.Now()
	next := map[int64]*tstate{}
	for _, t := range ts {
		old := e.targets[t.DeviceID]
		switch {
		case old == nil:
			// spread first polls over the interval (at most a second here) so a thousand
			// devices do not all ask at once
			spread := time.Duration(rand.Int64N(int64(min(t.Interval, time.Second)) + 1))
			next[t.DeviceID] = &tstate{Target: t, next: now.Add(spread)}
		case old.Unit != t.Unit || old.MapID != t.MapID || old.MapVersion != t.MapVersion || old.DeviceType != t.DeviceType:
			next[t.DeviceID] = &tstate{Target: t, next: now}
		default:
			old.Target = t
			next[t.DeviceID] = old
		}
	}
	e.targets = next
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// due returns the target to poll next and when.
func (e *endpoint) due() (*tstate, time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var best *tstate
	for _, t := range e.targets {
		if best == nil || t.next.Before(best.next) {
			best = t
		}
	}
	if best == nil {
		return nil, time.Now().Add(time.Hour)
	}
	at := best.next
	if e.link == nil && e.retryAt.After(at) {
		at = e.retryAt
	}
	return best, at
}

func (e *endpoint) timeout() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := time.Duration(0)
	for _, t := range e.targets {
		d = max(d, t.Timeout)
	}
	return max(d, 100*time.Millisecond)
}

func (e *endpoint) run() {
	defer func() {
		if e.link != nil {
			e.link.close()
		}
	}()
	for {
		t, at := e.due()
		timer := time.NewTimer(time.Until(at))
		select {
		case <-e.p.ctx.Done():
			timer.Stop()
			return
		case <-e.quit:
			timer.Stop()
			return
		case <-e.wake:
			timer.Stop()
		case j := <-e.jobs:
			timer.Stop()
			j.done <- e.runJob(j)
		case <-timer.C:
			if t != nil {
				e.poll(t)
			}
		}
	}
}

// connect makes sure the endpoint has a connection.
func (e *endpoint) connect() error {
	if e.link != nil {
		return nil
	}
	l, err := dial(e.addr, e.timeout())
	if err != nil {
		e.broken()
		return err
	}
	e.link = l
	return nil
}

// broken drops the connection after a link-level failure; repeated failures back off.
func (e *endpoint) broken() {
	if e.link != nil {
		e.link.close()
		e.link = nil
	}
	e.fails++
	if e.fails > 1 {
		e.retryAt = time.Now().Add(e.p.backoff(e.fails - 1))
	}
}

func (e *endpoint) poll(t *tstate) {
	e.mu.Lock()
	tg := t.Target
	e.mu.Unlock()
	start := time.Now()
	at := start.Truncate(time.Millisecond)
	defer func() {
		e.mu.Lock()
		t.next = t.next.Add(tg.Interval)
		if now := time.Now(); t.next.Before(now) {
			t.next = now.Add(tg.Interval)
		}
		e.mu.Unlock()
	}()
	if err := e.connect(); err != nil {
		e.p.failed(tg.DeviceID, e.addr, at, "connect", err)
		return
	}
	s, err := e.read(t, tg, at)
	latency := time.Since(start)
	switch {
	case err == nil:
		e.fails = 0
		e.p.succeeded(tg.DeviceID, e.addr, at, latency, t.layout, t.ident)
		e.p.opt.Sink(e.p.ctx, []telemetry.Sample{s})
	case IsException(err):
		if errors.Is(err, modbus.ErrIllegalDataAddress) {
			t.layout = nil // the map may have moved: discover it again
		}
		e.p.failed(tg.DeviceID, e.addr, at, "device", err)
	case errors.Is(err, sunspec.ErrNotSunSpec):
		e.p.failed(tg.DeviceID, e.addr, at, "decode", err)
	default:
		t.layout = nil
		e.broken()
		e.p.failed(tg.DeviceID, e.addr, at, "link", err)
	}
}

// read reads one device into a sample.
func (e *endpoint) read(t *tstate, tg Target, at time.Time) (telemetry.Sample, error) {
	e.link.setUnit(tg.Unit)
	if tg.Registers != nil {
		rd, err := readMap(e.link, tg.Registers)
		if err != nil {
			return telemetry.Sample{}, err
		}
		s := telemetry.Sample{DeviceID: tg.DeviceID, Time: at}
		mapSample(&s, tg.Registers, rd)
		return s, nil
	}
	r := unitReader{e.link, tg.Unit}
	if t.layout == nil {
		l, err := sunspec.Discover(r)
		if err != nil {
			return telemetry.Sample{}, err
		}
		t.layout, t.named = l, false
	}
	withCommon := !t.named
	blocks, err := sunspec.Read(r, t.layout, withCommon)
	if err != nil {
		return telemetry.Sample{}, err
	}
	t.named = true
	for _, b := range blocks {
		if b.ID == 1 {
			t.ident = [3]string{b.Text("Mn"), b.Text("Md"), b.Text("SN")}
		}
	}
	return sunspec.ToSample(tg.DeviceID, at, tg.DeviceType, blocks, &t.acc), nil
}

func (e *endpoint) runJob(j *job) error {
	e.mu.Lock()
	t := e.targets[j.device]
	e.mu.Unlock()
	if t == nil {
		return ErrNotPolled
	}
	if err := e.connect(); err != nil {
		return err
	}
	err := j.fn(&Session{Target: t.Target, l: e.link, state: t})
	if err != nil && !IsException(err) && !errors.Is(err, sunspec.ErrNotSunSpec) && !isInput(err) {
		e.broken()
	}
	return err
}

// inputError is a debug call's bad argument (not the link's fault).
type inputError struct{ msg string }

func (e inputError) Error() string { return e.msg }

func isInput(err error) bool {
	var ie inputError
	return errors.As(err, &ie)
}
