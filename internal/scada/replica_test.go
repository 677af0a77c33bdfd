package scada

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fieldFleet seeds the demo accounts and fleet and returns two inverters' ids.
func fieldFleet(t *testing.T, db *store.DB) (orgID int64, devs [2]int64) {
	t.Helper()
	ctx := context.Background()
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(ctx, "SELECT id FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 2", acc.OrgID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		if err := rows.Scan(&devs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return acc.OrgID, devs
}

// linkTo connects a device to addr, polled every 200 ms (below what the API accepts, to
// keep the tests short).
func linkTo(t *testing.T, db *store.DB, orgID, dev int64, addr string) {
	t.Helper()
	ctx := context.Background()
	host, port := splitAddr(t, addr)
	if err := SaveLink(ctx, db, orgID, &Link{DeviceID: dev, Host: host, Port: port, UnitID: 1, IntervalS: 1, TimeoutMs: 500}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "UPDATE field_links SET interval_ms = 200 WHERE device_id = ?", dev); err != nil {
		t.Fatal(err)
	}
}

func splitAddr(t *testing.T, addr string) (string, int) {
	t.Helper()
	var port int
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			for _, c := range addr[i+1:] {
				port = port*10 + int(c-'0')
			}
			return addr[:i], port
		}
	}
	t.Fatalf("no port in %s", addr)
	return "", 0
}

func eventually(t *testing.T, what string, within time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
	}
}

func quickService(db *store.DB, c *collector) *Service {
	s := &Service{DB: db, Options: Options{Sink: c.sink, MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond},
		FlushEvery: 100 * time.Millisecond, CommTTL: 50 * time.Millisecond}
	s.setup()
	return s
}

// A replica that does not poll answers from the statuses the polling one writes; when the
// polling one's job ends its connection closes, and the next holder goes on from the
// stored status.
func TestStatusSharedAndTakenOver(t *testing.T) {
	db := storetest.SQLite(t)
	orgID, devs := fieldFleet(t, db)
	dev := devs[0]
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: inverter103(t, 12000, 5e6)}})
	proxy := sunspectest.Counting(t, srv.Addr)
	linkTo(t, db, orgID, dev, proxy.Addr)
	ctx := context.Background()

	ca, cb := &collector{got: map[int64][]telemetry.Sample{}}, &collector{got: map[int64][]telemetry.Sample{}}
	a, b := quickService(db, ca), quickService(db, cb)
	if st := b.Comm(dev); st != "" {
		t.Fatalf("before any poll, comm %q", st)
	}
	ctxA, stopA := context.WithCancel(ctx)
	doneA := make(chan struct{})
	go func() { defer close(doneA); a.Poll(ctxA, time.Minute) }()

	eventually(t, "the other replica sees the device online", 5*time.Second, func() bool { return b.Comm(dev) == StateOnline })
	eventually(t, "polled several times", 5*time.Second, func() bool { return len(ca.samples(dev)) >= 3 })
	if !a.Polling() || b.Polling() {
		t.Fatalf("polling: a %v, b %v", a.Polling(), b.Polling())
	}
	eventually(t, "stored status follows", 3*time.Second, func() bool {
		st, ok, err := b.Status(ctx, dev)
		return err == nil && ok && st.Polls >= 3
	})
	st, _, _ := b.Status(ctx, dev)
	mem, _, _ := a.Status(ctx, dev)
	if st.State != StateOnline || st.Manufacturer != "Helio" || st.Serial != "SN103" || st.Layout == nil || st.Layout.Base != 40000 ||
		st.LastSuccess == nil || st.LatencyMs <= 0 {
		t.Errorf("stored status %+v", st)
	}
	if mem.Polls < st.Polls || mem.Manufacturer != st.Manufacturer {
		t.Errorf("holder %+v behind stored %+v", mem, st)
	}
	if n := len(cb.samples(dev)); n != 0 {
		t.Errorf("the replica that does not poll wrote %d samples", n)
	}
	if n := proxy.Opened(); n != 1 {
		t.Errorf("%d connections to the device, want 1", n)
	}

	// the holder's job ends: its connection closes, nobody polls
	stopA()
	select {
	case <-doneA:
	case <-time.After(5 * time.Second):
		t.Fatal("the poll job did not end with its context")
	}
	eventually(t, "the holder's connection closed", 2*time.Second, func() bool { return proxy.Open() == 0 })
	if a.Polling() {
		t.Fatal("still polling after its job ended")
	}
	stored, _, _ := b.Status(ctx, dev)
	requests := srv.Requests.Load()
	time.Sleep(400 * time.Millisecond)
	if srv.Requests.Load() != requests {
		t.Error("the device was still read after the poll job ended")
	}

	// b takes over, starting from the stored counters
	ctxB, stopB := context.WithCancel(ctx)
	defer stopB()
	go b.Poll(ctxB, time.Minute)
	eventually(t, "the new holder polls", 5*time.Second, func() bool { return len(cb.samples(dev)) >= 2 })
	eventually(t, "counters go on", 3*time.Second, func() bool {
		st, _, _ := a.Status(ctx, dev) // a now reads the database
		return st.Polls > stored.Polls
	})
	if st, _, _ := b.Status(ctx, dev); st.Polls <= stored.Polls || st.Manufacturer != "Helio" {
		t.Errorf("after take-over %+v (stored %d polls)", st, stored.Polls)
	}
	if n := proxy.Opened(); n != 2 {
		t.Errorf("%d connections in all, want 2 (one per holder)", n)
	}

	// a debug read on a (not polling, no relay) opens a connection of its own and closes it
	ans := a.debug(ctx, debugCall{Op: opRead, DeviceID: dev})
	if err := ans.err(); err != nil || ans.Live == nil || ans.Live.Protocol != "sunspec" || len(ans.Live.Registers) == 0 {
		t.Fatalf("debug read elsewhere: %+v %v", ans, err)
	}
	eventually(t, "the short-lived connection closed", 2*time.Second, func() bool { return proxy.Open() == 1 })
	// on the holder it goes over the poll's connection
	opened := proxy.Opened()
	if ans := b.debug(ctx, debugCall{Op: opRead, DeviceID: dev}); ans.err() != nil || ans.Live == nil {
		t.Fatalf("debug read on the holder: %+v", ans)
	}
	if proxy.Opened() != opened {
		t.Error("a debug read on the holder opened a connection")
	}
	// a map preview goes the same ways: on the holder's connection, or on one of its own
	marker := []Register{{Name: "marker", Address: 40000, Function: "holding", DataType: "string", Size: 2, Scale: 1}}
	for name, svc := range map[string]*Service{"holder": b, "elsewhere": a} {
		ans := svc.debug(ctx, debugCall{Op: opPreview, DeviceID: dev, Registers: marker})
		if ans.err() != nil || ans.Live == nil || len(ans.Live.Registers) != 1 || ans.Live.Registers[0].Text != "SunS" {
			t.Fatalf("preview %s: %+v", name, ans)
		}
	}
	if proxy.Opened() != opened+1 {
		t.Errorf("previews opened %d connections, want 1 (elsewhere only)", proxy.Opened()-opened)
	}
	eventually(t, "the preview's connection closed", 2*time.Second, func() bool { return proxy.Open() == 1 })

	// a link removed on a replica that does not poll: its status goes at once there too
	if ok, err := DeleteLink(ctx, db, dev); !ok || err != nil {
		t.Fatal(ok, err)
	}
	a.linksChanged(ctx)
	if _, ok, _ := a.Status(ctx, dev); ok {
		t.Error("status of an unlinked device still answered")
	}
	b.linksChanged(ctx) // what the bus does on the holder
	eventually(t, "polling stops", 2*time.Second, func() bool { return proxy.Open() == 0 })
	if ans := a.debug(ctx, debugCall{Op: opRead, DeviceID: dev}); ans.Kind != "not_polled" {
		t.Errorf("debug read of an unlinked device: %+v", ans)
	}
}
