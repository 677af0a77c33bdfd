package fleet

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/gob"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Bus carries events between replicas (push.NATS is one).
type Bus interface {
	Publish(ctx context.Context, data []byte) error
	Subscribe(fn func(data []byte)) (unsubscribe func(), err error)
}

// wire is one replica's message on the bus: a committed change, alarm changes, a reload
// after a back-fill, or a beat that only carries the sender's count.
type wire struct {
	Origin string
	// Seq numbers the origin's messages 1, 2, …; a beat repeats the last number sent.
	Seq    uint64
	Beat   bool
	Reload bool
	Xid    uint64 // the PostgreSQL transaction that committed Latest and Days
	Latest []telemetry.Sample
	Days   []telemetry.DayChange
	Alarms []AlarmChange
}

// BeatEvery is how often a replica tells the others how many messages it sent, so that
// a lost last message is noticed too.
var BeatEvery = 30 * time.Second

// Replicate makes the state converge with the other replicas on the same database: each
// change this replica's writer commits is published on bus, and the others' are applied
// as they arrive, so a sample written through any replica shows in every replica's
// figures. So is each alarm change reported to this replica (ApplyAlarms): alarm changes
// merge in any order and any number of times (alarms.go), so the occurring alarms converge.
//
// Nothing is missed or counted twice around a build: the build reads one snapshot and
// applies afterwards what it did not read (Build; on PostgreSQL each change carries its
// transaction, RecordTransactionIDs). A replica numbers its messages and beats every
// BeatEvery, so a message the bus lost (NATS delivers at most once) shows as a gap, and
// the state is then built again (Run does it within its interval). A back-fill on one
// replica makes the others build again. rebuild > 0 also builds every rebuild, for a bus
// that carries nothing (NATS unreachable at start). Call before serving; the returned
// function stops listening and beating.
func (s *State) Replicate(bus Bus, rebuild time.Duration) (func(), error) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	origin := hex.EncodeToString(b)
	s.mu.Lock()
	s.rebuildEvery = max(rebuild, 0)
	s.mu.Unlock()
	s.writer.RecordTransactionIDs()
	seen := &sequences{last: map[string]uint64{}}
	unsub, err := bus.Subscribe(func(data []byte) {
		var w wire
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
			slog.Warn("fleet: undecodable change on the bus", "err", err)
			return
		}
		if w.Origin == origin {
			return // applied when committed
		}
		if seen.gap(w.Origin, w.Seq, w.Beat) {
			slog.Warn("fleet: changes of another replica were lost on the bus: building the state again", "replica", w.Origin)
			s.rebuild.Store(true)
		}
		switch {
		case w.Reload:
			s.rebuild.Store(true) // a back-fill there: read what it wrote
		case len(w.Latest) > 0 || len(w.Days) > 0:
			s.take(telemetry.Change{Latest: w.Latest, Days: w.Days, Xid: w.Xid}, true)
		}
		s.applyAlarms(w.Alarms)
	})
	if err != nil {
		return nil, err
	}
	var pmu sync.Mutex // numbers in the order sent
	var seq uint64
	publish := func(w wire) {
		pmu.Lock()
		defer pmu.Unlock()
		if !w.Beat {
			seq++
		}
		w.Origin, w.Seq = origin, seq
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(w); err != nil {
			slog.Warn("fleet: unable to encode a change", "err", err)
			return
		}
		if err := bus.Publish(context.Background(), buf.Bytes()); err != nil {
			slog.Warn("fleet: unable to publish a change", "err", err)
		}
	}
	s.writer.OnChange(func(c telemetry.Change) {
		if c.Reload {
			publish(wire{Reload: true}) // a back-fill: the others read it
			return
		}
		publish(wire{Latest: c.Latest, Days: c.Days, Xid: c.Xid})
	})
	pubAlarms := func(cs []AlarmChange) { publish(wire{Alarms: cs}) }
	s.alarmPub.Store(&pubAlarms)
	stop := make(chan struct{})
	go func() {
		every := BeatEvery
		if s.beatEvery > 0 {
			every = s.beatEvery
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				publish(wire{Beat: true})
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			unsub()
		})
	}, nil
}

// sequences are the last message numbers heard from each other replica.
type sequences struct {
	mu   sync.Mutex
	last map[string]uint64
}

// gap records message seq of origin and reports whether one before it was lost. The
// first message heard from a replica starts its count: what it sent before this replica
// listened is in this replica's first build.
func (q *sequences) gap(origin string, seq uint64, beat bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	last, known := q.last[origin]
	if seq > last {
		q.last[origin] = seq
	}
	if !known {
		return false
	}
	if beat {
		return seq > last
	}
	return seq > last+1
}
