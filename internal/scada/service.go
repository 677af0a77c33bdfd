package scada

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Bus carries small announcements to every replica (push.NATS on its own subject).
type Bus interface {
	Publish(ctx context.Context, data []byte) error
	Subscribe(fn func([]byte)) (func(), error)
}

// Relay carries a request to the one replica serving it and brings its answer back
// (push.NATS request and reply). Request fails with an error matching ErrNoResponder
// when no replica serves.
type Relay interface {
	Request(ctx context.Context, data []byte) ([]byte, error)
	Serve(fn func(ctx context.Context, data []byte) []byte) (stop func(), err error)
}

// PollerLock is the name of the lock (store.RunExclusive) held by the replica that polls.
const PollerLock = "field-poller"

// Service serves /v1/scada on every replica; the replica holding the PollerLock also
// polls the field devices (Run), keeps their statuses in memory and writes them to the
// database, where the other replicas read them.
type Service struct {
	DB *store.DB
	// Options configure the poller of each spell of polling.
	Options Options
	// FlushEvery is how often the polling replica writes the statuses that changed
	// (default 2 s); a change of state is written at once.
	FlushEvery time.Duration
	// CommTTL is how long a replica that does not poll keeps the states it read (default 2 s).
	CommTTL time.Duration

	mu      sync.Mutex // one reload at a time
	shareMu sync.Mutex // bus and relay
	poller  atomic.Pointer[Poller]
	kick    chan struct{}
	bus     Bus
	relay   Relay
	self    string
	comm    commCache
	init    sync.Once
	jobs    sync.WaitGroup
}

// NewService returns the service of a replica; it polls once Run holds the lock.
func NewService(db *store.DB, opt Options) *Service {
	s := &Service{DB: db, Options: opt}
	s.setup()
	return s
}

func (s *Service) setup() {
	s.init.Do(func() {
		if s.FlushEvery <= 0 {
			s.FlushEvery = 2 * time.Second
		}
		if s.CommTTL <= 0 {
			s.CommTTL = 2 * time.Second
		}
		s.kick = make(chan struct{}, 1)
		s.comm = commCache{db: s.DB, ttl: s.CommTTL}
		var b [8]byte
		_, _ = rand.Read(b[:])
		s.self = hex.EncodeToString(b[:])
	})
}

// Share makes link edits on any replica reach the polling one at once (bus), and the
// remote-debugging calls of any replica go to the polling one (relay). Either may be nil.
func (s *Service) Share(bus Bus, relay Relay) (func(), error) {
	s.setup()
	stop := func() {}
	if bus != nil {
		st, err := bus.Subscribe(func(msg []byte) {
			if from, _, _ := strings.Cut(string(msg), ":"); from != s.self {
				s.reloadSoon()
			}
		})
		if err != nil {
			return nil, err
		}
		stop = st
	}
	s.shareMu.Lock()
	s.bus, s.relay = bus, relay
	s.shareMu.Unlock()
	return stop, nil
}

// Polling reports whether this replica polls now.
func (s *Service) Polling() bool { return s.poller.Load() != nil }

// Run polls while this replica holds the PollerLock (PostgreSQL advisory lock; SQLite
// just polls), reloading the links every interval, until ctx ends.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	s.setup()
	s.jobs.Add(1)
	defer s.jobs.Done()
	s.DB.RunExclusive(ctx, PollerLock, func(ctx context.Context) { s.Poll(ctx, every) })
}

// Start is Run in the background.
func (s *Service) Start(ctx context.Context, every time.Duration) {
	s.setup()
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		s.DB.RunExclusive(ctx, PollerLock, func(ctx context.Context) { s.Poll(ctx, every) })
	}()
}

// Wait returns once Run and Start have ended (connections closed, statuses written).
func (s *Service) Wait() { s.jobs.Wait() }

// Poll polls every linked device until ctx ends, then closes the connections. Only the
// lock's holder calls it (Run).
func (s *Service) Poll(ctx context.Context, every time.Duration) {
	s.setup()
	p := NewPoller(s.Options)
	s.poller.Store(p)
	s.shareMu.Lock()
	relay := s.relay
	s.shareMu.Unlock()
	if relay != nil {
		if stop, err := relay.Serve(s.answer); err != nil {
			slog.Error("field debug calls of other replicas not served here", "err", err)
		} else {
			defer stop()
		}
	}
	defer func() {
		s.poller.Store(nil)
		p.Close()
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		s.flush(c, p)
		s.comm.drop()
	}()
	reload := time.NewTicker(every)
	defer reload.Stop()
	flush := time.NewTicker(s.FlushEvery)
	defer flush.Stop()
	var last time.Time // of the last flush
	for {
		if err := s.Reload(ctx); err != nil && ctx.Err() == nil {
			slog.Error("field links reload failed", "err", err)
		}
	wait:
		for {
			select {
			case <-ctx.Done():
				return
			case <-reload.C:
				break wait
			case <-s.kick:
				break wait
			case <-flush.C:
				s.flush(ctx, p)
				last = time.Now()
			case <-p.Changed():
				// at once, but not more often than every quarter second however many
				// devices flap (the ticker takes what waits)
				if time.Since(last) >= 250*time.Millisecond {
					s.flush(ctx, p)
					last = time.Now()
				}
			}
		}
	}
}

// flush writes the statuses that changed since the last flush.
func (s *Service) flush(ctx context.Context, p *Poller) {
	sts, gone := p.takeDirty()
	if err := SaveStatuses(ctx, s.DB, sts, gone); err != nil && ctx.Err() == nil {
		slog.Warn("field statuses not written", "err", err)
		p.mu.Lock()
		for id := range sts { // try again with the next flush
			p.dirty[id] = true
		}
		p.gone = append(p.gone, gone...)
		p.mu.Unlock()
	}
}

// Reload reads every link and applies it to the poller, when this replica polls (no
// restart needed). A device new to the poller starts from its stored status.
func (s *Service) Reload(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.poller.Load()
	if p == nil {
		return nil
	}
	ts, err := Targets(ctx, s.DB)
	if err != nil {
		return err
	}
	var fresh []int64
	for _, t := range ts {
		if _, ok := p.Status(t.DeviceID); !ok {
			fresh = append(fresh, t.DeviceID)
		}
	}
	seed, err := LoadStatuses(ctx, s.DB, fresh)
	if err != nil {
		slog.Warn("field statuses not read: new devices start afresh", "err", err)
	}
	p.ApplySeeded(ts, seed)
	return nil
}

// reloadSoon has the polling loop reload the links now.
func (s *Service) reloadSoon() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// linksChanged applies a link or map edit: at once when this replica polls, and
// announced to the others, so that the one that polls reloads at once too. Without a bus
// the polling replica picks it up at its next reload.
func (s *Service) linksChanged(ctx context.Context) {
	if err := s.Reload(ctx); err != nil {
		slog.Error("field links reload failed", "err", err)
	}
	s.comm.drop()
	s.shareMu.Lock()
	bus := s.bus
	s.shareMu.Unlock()
	if bus != nil {
		if err := bus.Publish(ctx, []byte(s.self+":links")); err != nil {
			slog.Warn("field link edit not announced to the other replicas", "err", err)
		}
	}
}

// Status is a device's poll status (ok false when no replica polls it): from memory on
// the polling replica, from the database on the others.
func (s *Service) Status(ctx context.Context, deviceID int64) (Status, bool, error) {
	m, err := s.statuses(ctx, []int64{deviceID})
	st, ok := m[deviceID]
	return st, ok, err
}

func (s *Service) statuses(ctx context.Context, ids []int64) (map[int64]Status, error) {
	if p := s.poller.Load(); p != nil {
		out := map[int64]Status{}
		for _, id := range ids {
			if st, ok := p.Status(id); ok {
				out[id] = st
			}
		}
		return out, nil
	}
	return LoadStatuses(ctx, s.DB, ids)
}

// CommStates returns every polled device's communication state (a device no replica
// polls is absent), for calls that read many devices: Comm's answers in one call, with
// the snapshot's generation (a new one whenever the map may differ). The map is shared
// and must not be changed.
func (s *Service) CommStates() (map[int64]string, uint64) {
	s.setup()
	if p := s.poller.Load(); p != nil {
		return p.CommStates()
	}
	return s.comm.all()
}

// Comm is a device's communication state ("" when no replica polls it): from memory on
// the polling replica, from the database (kept CommTTL) on the others.
func (s *Service) Comm(deviceID int64) string {
	s.setup()
	if p := s.poller.Load(); p != nil {
		return p.Comm(deviceID)
	}
	return s.comm.get(deviceID)
}
