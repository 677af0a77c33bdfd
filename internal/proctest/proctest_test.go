package proctest

import (
	"fmt"
	"net"
	"sync"
	"testing"
)

func TestLogTakesConcurrentWrites(t *testing.T) {
	var l Log
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				fmt.Fprint(&l, "x")
				_ = l.String()
			}
		}()
	}
	wg.Wait()
	if n := len(l.String()); n != 800 {
		t.Fatalf("%d bytes kept, want 800", n)
	}
}

func TestFreeAddrCanBeListenedOn(t *testing.T) {
	addr := FreeAddr(t)
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("%s: %v", addr, err)
	}
	l.Close()
}
