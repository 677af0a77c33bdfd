package fleet

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/gob"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Bus carries events between replicas (push.NATS is one).
type Bus interface {
	Publish(ctx context.Context, data []byte) error
	Subscribe(fn func(data []byte)) (unsubscribe func(), err error)
}

// wire is one replica's committed change on the bus.
type wire struct {
	Origin string
	Latest []telemetry.Sample
	Days   []telemetry.DayChange
	Alarms []AlarmChange
}

// Replicate makes the state converge with the other replicas on the same database: each
// change this replica's writer commits is published on bus, and the others' are applied
// as they arrive, so a sample written through any replica shows in every replica's
// figures. So is each alarm change reported to this replica (ApplyAlarms): alarm changes
// merge in any order and any number of times (alarms.go), so the occurring alarms converge.
// A change can be missed or counted twice only around a build (one published
// before this replica subscribed, or one both read from the database and received), so
// the state is also rebuilt from the database every rebuild (Run does it); rebuild <= 0
// means every 10 minutes. Call before serving; the returned function stops listening.
func (s *State) Replicate(bus Bus, rebuild time.Duration) (func(), error) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	origin := hex.EncodeToString(b)
	if rebuild <= 0 {
		rebuild = 10 * time.Minute
	}
	s.mu.Lock()
	s.rebuildEvery = rebuild
	s.mu.Unlock()
	unsub, err := bus.Subscribe(func(data []byte) {
		var w wire
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
			slog.Warn("fleet: undecodable change on the bus", "err", err)
			return
		}
		if w.Origin == origin {
			return // applied when committed
		}
		if len(w.Latest) > 0 || len(w.Days) > 0 {
			s.apply(telemetry.Change{Latest: w.Latest, Days: w.Days})
		}
		s.applyAlarms(w.Alarms)
	})
	if err != nil {
		return nil, err
	}
	publish := func(w wire) {
		w.Origin = origin
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
			return // a back-fill: the others rebuild on their schedule
		}
		publish(wire{Latest: c.Latest, Days: c.Days})
	})
	pubAlarms := func(cs []AlarmChange) { publish(wire{Alarms: cs}) }
	s.alarmPub.Store(&pubAlarms)
	return unsub, nil
}
