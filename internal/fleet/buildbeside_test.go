package fleet

import (
	"bytes"
	"context"
	"encoding/gob"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// A build does not hold writes back while it reads: writes made between its snapshot and
// its swap go through at once, and the new state holds each of them exactly once.
func TestBuildBesideWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, time.Now().UTC().Add(-30*time.Hour).Truncate(time.Minute))
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(5, 8))
		if err := r.s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		for range 4 {
			r.step(t, rng)
			r.clock.Add((17 * time.Minute).Milliseconds())
		}
		r.s.afterSnap = func() {
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range 3 {
					r.step(t, rng)
					r.clock.Add((7 * time.Minute).Milliseconds())
				}
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Error("writes waited for the build's read")
			}
		}
		if err := r.s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		r.s.afterSnap = nil
		checkState(t, db, r.s, r.now(), "after a build with writes during its read")
		r.step(t, rng)
		checkState(t, db, r.s, r.now(), "after one more write")
	})
}

// tapBus is a real bus whose deliveries of other replicas' figure changes a test can hold
// back or drop.
type tapBus struct {
	Bus
	mu    sync.Mutex
	hold  bool
	held  [][]byte
	drop  int // the next n changes are lost
	heard atomic.Int64
	beats atomic.Int64 // beats heard, both replicas'
	fn    func([]byte)
}

func (b *tapBus) Subscribe(fn func([]byte)) (func(), error) {
	b.fn = fn
	return b.Bus.Subscribe(func(data []byte) {
		var w wire
		change := gob.NewDecoder(bytes.NewReader(data)).Decode(&w) == nil && (len(w.Latest) > 0 || len(w.Days) > 0)
		if w.Beat {
			defer b.beats.Add(1) // once B has taken it
		}
		b.mu.Lock()
		if change {
			b.heard.Add(1)
			if b.drop > 0 {
				b.drop--
				b.mu.Unlock()
				return
			}
		}
		if b.hold { // everything, beats too: the bus keeps a sender's order
			b.held = append(b.held, data)
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
		fn(data)
	})
}

// release delivers the held changes and stops holding.
func (b *tapBus) release() {
	b.mu.Lock()
	held := b.held
	b.held, b.hold = nil, false
	b.mu.Unlock()
	for _, d := range held {
		b.fn(d)
	}
}

// replicaPair is two replicas on one PostgreSQL schema: the rig's (A) and B, whose bus
// is tapped.
func replicaPair(t *testing.T) (*rig, *store.DB, *State, *tapBus, *atomic.Int64) {
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB := storetest.PostgresSchema(t, schema)
	r := newRig(t, dbA, time.Now().UTC().Add(-6*time.Hour).Truncate(time.Minute))
	sB := New(dbB, telemetry.NewWriter(dbB, telemetry.Options{Now: r.now}), r.now)
	sB.beatEvery, r.s.beatEvery = 100*time.Millisecond, 100*time.Millisecond
	subject := "helio.test.fleet." + schema
	var tap *tapBus
	told := &atomic.Int64{} // changes A published
	r.w.OnChange(func(c telemetry.Change) { told.Add(1) })
	for _, s := range []*State{r.s, sB} {
		nb, err := push.DialNATS("nats://127.0.0.1:4222", subject)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nb.Close() })
		var bus Bus = nb
		if s == sB {
			tap = &tapBus{Bus: nb}
			bus = tap
		}
		stop, err := s.Replicate(bus, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		if err := s.Build(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return r, dbB, sB, tap, told
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A replica building its state while another writes counts each change once: one it
// receives after its snapshot is skipped if the snapshot holds its transaction, applied
// if not.
func TestReplicaBuildCountsOnce(t *testing.T) {
	r, dbB, sB, tap, told := replicaPair(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 2))
	r.step(t, rng)
	waitFor(t, "B hears A", func() bool { return tap.heard.Load() == told.Load() })
	// changes committed before B's snapshot but heard after it
	tap.mu.Lock()
	tap.hold = true
	tap.mu.Unlock()
	r.clock.Add((11 * time.Minute).Milliseconds())
	r.step(t, rng)
	waitFor(t, "B holds A's changes", func() bool { return tap.heard.Load() == told.Load() })
	sB.afterSnap = func() {
		tap.release()
		// and changes committed after the snapshot, heard during the read
		r.clock.Add((11 * time.Minute).Milliseconds())
		r.step(t, rng)
		waitFor(t, "B hears A during its build", func() bool { return tap.heard.Load() == told.Load() })
	}
	if err := sB.Build(ctx); err != nil {
		t.Fatal(err)
	}
	sB.afterSnap = nil
	checkState(t, dbB, sB, r.now(), "replica B after a build beside A's writes")
	if sB.rebuild.Load() {
		t.Fatal("B asks for another build although it lost nothing")
	}
}

// A change lost on the bus is noticed (the next message, or the sender's beat, shows the
// gap) and the state is built again.
func TestReplicaRebuildsOnGap(t *testing.T) {
	for _, last := range []bool{false, true} {
		name := map[bool]string{false: "lost in the middle", true: "lost last, told by a beat"}[last]
		t.Run(name, func(t *testing.T) {
			r, dbB, sB, tap, told := replicaPair(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go sB.Run(ctx, 20*time.Millisecond)
			rng := rand.New(rand.NewPCG(4, 4))
			r.step(t, rng)
			waitFor(t, "B hears A", func() bool { return tap.heard.Load() == told.Load() })
			checkState(t, dbB, sB, r.now(), "replica B before the loss")
			tap.mu.Lock()
			tap.drop = 1
			tap.mu.Unlock()
			dev := r.devices[0]
			c := r.counters[dev]
			c[0] += 5
			r.counters[dev] = c
			if _, err := r.w.Write(ctx, "test", []telemetry.Sample{{DeviceID: dev, Time: r.now().Add(-time.Second), PowerKW: 3,
				EnergyKWh: c[0], Energy2KWh: c[1], Status: telemetry.StatusRunning}}); err != nil {
				t.Fatal(err)
			}
			if !last {
				r.clock.Add((9 * time.Minute).Milliseconds())
				r.step(t, rng)
			}
			waitFor(t, "B converges with A", func() bool {
				return snapshot(t, r.s, r.devices, r.stations) == snapshot(t, sB, r.devices, r.stations)
			})
			cancel()
			checkState(t, dbB, sB, r.now(), "replica B after the rebuild")
		})
	}
}

func TestSequenceGaps(t *testing.T) {
	q := &sequences{last: map[string]uint64{}}
	for i, c := range []struct {
		origin string
		seq    uint64
		beat   bool
		gap    bool
	}{
		{"a", 5, false, false}, // first heard: starts the count
		{"a", 6, false, false},
		{"a", 6, true, false}, // a beat with nothing new
		{"a", 8, false, true}, // 7 lost
		{"b", 0, true, false},
		{"b", 1, false, false},
		{"b", 2, true, true}, // 2 lost, told by the beat
		{"b", 3, false, false},
		{"a", 8, true, false},
	} {
		if got := q.gap(c.origin, c.seq, c.beat); got != c.gap {
			t.Errorf("%d: gap(%s, %d, %v) = %v", i, c.origin, c.seq, c.beat, got)
		}
	}
}

// A back-fill through one replica (a change too broad to list) makes the other build its
// state again, and the two agree.
func TestReplicaRebuildsAfterBackfill(t *testing.T) {
	r, dbB, sB, _, _ := replicaPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sB.Run(ctx, 20*time.Millisecond)
	dev := r.devices[0]
	var batch []telemetry.Sample
	for h := 30; h > 20; h-- {
		batch = append(batch, telemetry.Sample{DeviceID: dev, Time: r.now().Add(-time.Duration(h) * time.Hour), PowerKW: 4,
			EnergyKWh: float64(40 - h), Status: telemetry.StatusRunning})
	}
	res, err := r.w.Backfill(ctx, slices.Values([][]telemetry.Sample{batch}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted == 0 {
		t.Fatalf("back-fill took nothing: %+v", res)
	}
	waitFor(t, "B converges with A after A's back-fill", func() bool {
		return snapshot(t, r.s, r.devices, r.stations) == snapshot(t, sB, r.devices, r.stations)
	})
	cancel()
	checkState(t, dbB, sB, r.now(), "replica B after A's back-fill")
}

// Another replica's beats carry no change: they leave the alarm version alone (the
// stations' live flags are kept on it, and at 10,000 stations computing them all again
// every beat costs a replica most of a second).
func TestReplicaBeatsMoveNothing(t *testing.T) {
	_, _, sB, tap, _ := replicaPair(t)
	if err := sB.ensureAlarms(context.Background()); err != nil {
		t.Fatal(err)
	}
	v := sB.AlarmsVersion()
	beats := tap.beats.Load()
	waitFor(t, "B hears A's beats", func() bool { return tap.beats.Load() >= beats+6 })
	if got := sB.AlarmsVersion(); got != v {
		t.Fatalf("alarm version moved from %d to %d with beats alone", v, got)
	}
}
