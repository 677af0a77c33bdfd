package ingest

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// cutProxy forwards TCP connections to the broker and can cut every open one at once, as
// a network fault or a broker restart does; it keeps accepting new ones.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(b, c); b.Close() }()
			go func() { _, _ = io.Copy(c, b); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) url() string { return "mqtt://" + p.ln.Addr().String() }

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// The connection to the broker is cut while the consumer waits for a commit, with a
// window of messages received and not yet acknowledged: the consumer reconnects, the broker
// delivers again what was not acknowledged, and every sample is stored, those published
// after the cut included.
func TestMQTTConnectionCutWhileCommitsWait(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	f := newFleet(t, db, uniq("C"))
	proxy := newCutProxy(t, strings.TrimPrefix(brokerURL(), "mqtt://"))
	prefix := startConsumer(t, telemetry.NewWriter(db, telemetry.Options{}), proxy.url())
	pub := publisher(t)
	topic := fmt.Sprintf("%s/%d/%s/%s/telemetry", prefix, f.org, f.collector, f.inv1SN)
	start := time.Now().UTC().Add(-6 * time.Hour).Truncate(time.Minute)
	sent := 0
	send := func(n int) {
		for range n {
			publish(t, pub, topic, fmt.Sprintf(`{"time":%d,"powerKw":1,"energyKwh":%d}`, start.Add(time.Duration(sent)*time.Minute).UnixMilli(), sent))
			sent++
		}
	}
	send(5)
	waitStored(t, db, 5, f.inv1, 0, always)

	// hold SQLite's write lock: the consumer's next commit waits for it
	release := make(chan struct{})
	held := make(chan struct{})
	lockDone := make(chan error, 1)
	go func() {
		lockDone <- db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE devices SET name = name WHERE id = ?", f.inv2); err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	send(40) // more than the broker's window of unacknowledged messages
	time.Sleep(500 * time.Millisecond)
	proxy.cut()
	time.Sleep(3 * time.Second) // the client finds the connection gone while the handler waits
	close(release)
	if err := <-lockDone; err != nil {
		t.Fatal(err)
	}
	send(10)

	deadline := time.Now().Add(40 * time.Second)
	n := -1
	for time.Now().Before(deadline) {
		if n = stored(t, db, f.inv1, 0, always); n == sent {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%d of %d samples stored 40 s after the cut: the consumer did not recover", n, sent)
}
