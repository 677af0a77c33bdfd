package sunspectest

import (
	"io"
	"net"
	"sync/atomic"
	"testing"
)

// Proxy forwards TCP connections to a server and counts them: how many clients
// connected, and how many connections are open now.
type Proxy struct {
	Addr   string
	opened atomic.Int64
	open   atomic.Int64
}

// Opened is the number of connections accepted so far.
func (p *Proxy) Opened() int64 { return p.opened.Load() }

// Open is the number of connections open now (until the client or the server closes one).
func (p *Proxy) Open() int64 { return p.open.Load() }

// Counting starts a proxy in front of target (host:port), stopped when the test ends.
func Counting(tb testing.TB, target string) *Proxy {
	tb.Helper()
	p := &Proxy{}
	p.Addr = rawServer(tb, func(c net.Conn, _ int) {
		up, err := net.Dial("tcp", target)
		if err != nil {
			return
		}
		defer up.Close()
		p.opened.Add(1)
		p.open.Add(1)
		defer p.open.Add(-1)
		done := make(chan struct{}, 2)
		go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
		go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
		<-done // either side closed: close both
	})
	return p
}
