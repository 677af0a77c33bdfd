package scada

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// natsURL is the NATS server the tests use.
const natsURL = "nats://127.0.0.1:4222"

// replica is one replica's field service with its own database pool and NATS connections.
type replica struct {
	s    *Service
	c    *collector
	stop context.CancelFunc
	done chan struct{}
}

func startReplica(t *testing.T, db *store.DB, subject string) *replica {
	t.Helper()
	bus, err := push.DialNATS(natsURL, subject)
	if err != nil {
		t.Fatal(err)
	}
	relay, err := push.DialNATS(natsURL, subject+".debug")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bus.Close(); _ = relay.Close() })
	r := &replica{c: &collector{got: map[int64][]telemetry.Sample{}}, done: make(chan struct{})}
	r.s = quickService(db, r.c)
	if _, err := r.s.Share(bus, relay); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	r.stop = stop
	r.s.Start(ctx, time.Minute) // no reload within the test: edits must travel on the bus
	go func() { r.s.Wait(); close(r.done) }()
	t.Cleanup(func() { stop(); <-r.done })
	return r
}

// Two replicas on one PostgreSQL schema and one NATS: one polls (one connection to the
// device), both answer its status and debug calls, an edit on either reaches the poller at
// once, and when the poller stops the other takes over.
func TestOnePollerAcrossReplicasOnPostgres(t *testing.T) {
	old := store.ExclusiveRetry
	store.ExclusiveRetry = 100 * time.Millisecond
	defer func() { store.ExclusiveRetry = old }()
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB, err := store.Open(context.Background(), "", storetest.SchemaURL(schema))
	if err != nil {
		t.Fatal(err)
	}
	defer dbB.Close()
	orgID, devs := fieldFleet(t, dbA)
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 12000, 5e6)}})
	proxy := sunspectest.Counting(t, srv.Addr)
	linkTo(t, dbA, orgID, devs[0], proxy.Addr)
	ctx := context.Background()

	subject := "helio.scada." + schema
	a := startReplica(t, dbA, subject)
	b := startReplica(t, dbB, subject)
	replicas := []*replica{a, b}
	holder := func() *replica {
		var h *replica
		n := 0
		for _, r := range replicas {
			if r.s.Polling() {
				h = r
				n++
			}
		}
		if n > 1 {
			t.Fatal("two replicas poll at once")
		}
		return h
	}
	eventually(t, "one replica polls", 5*time.Second, func() bool { return holder() != nil })
	h := holder()
	other := a
	if h == a {
		other = b
	}
	eventually(t, "several polls", 5*time.Second, func() bool { return len(h.c.samples(devs[0])) >= 4 })
	for i := 0; i < 5; i++ { // the other never polls meanwhile
		holder()
		time.Sleep(50 * time.Millisecond)
	}
	if n := len(other.c.samples(devs[0])); n != 0 {
		t.Errorf("the other replica wrote %d samples", n)
	}
	if n := proxy.Opened(); n != 1 {
		t.Errorf("the device saw %d connections, want 1", n)
	}
	for _, r := range replicas {
		eventually(t, "both answer online", 3*time.Second, func() bool { return r.s.Comm(devs[0]) == StateOnline })
		st, ok, err := r.s.Status(ctx, devs[0])
		if err != nil || !ok || st.Manufacturer != "Helio" || st.Polls == 0 {
			t.Errorf("status: %+v %v %v", st, ok, err)
		}
	}

	// a debug read on the other replica runs on the holder's connection
	ans := other.s.debug(ctx, debugCall{Op: opRead, DeviceID: devs[0]})
	if err := ans.err(); err != nil || ans.Live == nil || len(ans.Live.Registers) == 0 {
		t.Fatalf("debug read through the other replica: %+v %v", ans, err)
	}
	// a map preview travels the same way, its registers (code table, bit) intact
	bit := 0
	preview := []Register{{Name: "marker", Address: 40000, Function: "holding", DataType: "uint16", Scale: 1, Values: CodeTable{"0x5375": "running"}},
		{Name: "marker.bit0", Address: 40000, Function: "holding", DataType: "uint16", Scale: 1, Bit: &bit}}
	ans = other.s.debug(ctx, debugCall{Op: opPreview, DeviceID: devs[0], Registers: preview})
	if ans.err() != nil || ans.Live == nil || len(ans.Live.Registers) != 2 || ans.Live.Registers[0].Text != "running" ||
		ans.Live.Registers[1].Value == nil || *ans.Live.Registers[1].Value != 1 {
		t.Fatalf("preview through the other replica: %+v", ans)
	}
	if ans := other.s.debug(ctx, debugCall{Op: opWrite, DeviceID: devs[0], Register: "x", Value: 1}); ans.Kind != "input" {
		t.Errorf("write of a register not in a map: %+v", ans)
	}
	if n := proxy.Opened(); n != 1 {
		t.Errorf("the debug read opened a connection of its own (%d in all)", n)
	}

	// a link added through the other replica is polled at once (the reload is a minute off)
	srv2 := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 3000, 1e6)}})
	linkTo(t, dbB, orgID, devs[1], srv2.Addr)
	other.s.linksChanged(ctx)
	eventually(t, "the holder polls the new link", 3*time.Second, func() bool { return len(h.c.samples(devs[1])) > 0 })

	// the holder stops: the other takes over, on a connection of its own
	polls, _, _ := other.s.Status(ctx, devs[0])
	h.stop()
	<-h.done
	eventually(t, "the holder's connection closed", 2*time.Second, func() bool { return proxy.Open() == 0 })
	eventually(t, "the other takes over", 3*time.Second, func() bool { return other.s.Polling() })
	eventually(t, "and polls", 5*time.Second, func() bool { return len(other.c.samples(devs[0])) >= 2 })
	if n := proxy.Opened(); n != 2 {
		t.Errorf("%d connections in all, want 2", n)
	}
	if st, _, _ := other.s.Status(ctx, devs[0]); st.Polls <= polls.Polls {
		t.Errorf("counters restarted on take-over: %d after %d", st.Polls, polls.Polls)
	}
	eventually(t, "the stopped replica reads the new holder's status", 3*time.Second, func() bool {
		st, _, _ := h.s.Status(ctx, devs[0])
		return st.Polls > polls.Polls+2
	})
}
