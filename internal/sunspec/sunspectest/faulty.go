package sunspectest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Garbage listens on loopback and answers every request with bytes that are not Modbus.
func Garbage(tb testing.TB) string {
	return rawServer(tb, func(c net.Conn, _ int) {
		buf := make([]byte, 260)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
			if _, err := c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n\x00\x01\x00\x00\x00\xff\x01\x03")); err != nil {
				return
			}
		}
	})
}

// Dropping forwards to a real server but cuts every other connection after `after`
// requests: a device whose link breaks in the middle of a poll, then comes back.
func Dropping(tb testing.TB, target string, after int) string {
	return rawServer(tb, func(c net.Conn, n int) {
		up, err := net.Dial("tcp", target)
		if err != nil {
			return
		}
		defer up.Close()
		go func() { _, _ = io.Copy(c, up) }()
		buf := make([]byte, 260)
		for i := 0; ; i++ {
			if n%2 == 1 && i == after {
				return // the poll is cut: the client sees the connection close
			}
			k, err := c.Read(buf)
			if err != nil {
				return
			}
			if _, err := up.Write(buf[:k]); err != nil {
				return
			}
		}
	})
}

func rawServer(tb testing.TB, serve func(c net.Conn, n int)) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	go func() {
		for n := 1; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[c] = true
			mu.Unlock()
			wg.Add(1)
			go func(n int) {
				defer wg.Done()
				defer c.Close()
				serve(c, n)
			}(n)
		}
	}()
	tb.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}
