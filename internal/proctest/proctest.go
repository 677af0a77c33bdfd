// Package proctest holds what the tests that run the helio binary as a process share: a
// free loopback address to give it and a log buffer its output can be written to while the
// test reads it.
package proctest

import (
	"bytes"
	"net"
	"sync"
	"testing"
)

// Log is a buffer safe for a process to write while a test reads it.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *Log) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *Log) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// FreeAddr is a loopback address no one listens on now.
func FreeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
