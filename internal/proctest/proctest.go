// Package proctest holds what the tests that run the helio binary as a process share: the
// binary (built once), a free loopback address to give it, a log buffer its output can be written to while the
// test reads it, and a graceful stop.
package proctest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
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

// Stop ends a started process with SIGTERM, and kills it when it has not ended within
// grace; a process already waited for is left alone.
func Stop(cmd *exec.Cmd, grace time.Duration) {
	if cmd == nil || cmd.Process == nil || cmd.ProcessState != nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-done
	}
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// Binary is the helio binary the process tests run: $HELIO_BIN when set (make test builds
// bin/helio once for every process test and the browser suite), else built once per test
// process into a temporary directory that outlives the tests (the OS cleans it).
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("HELIO_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(abs); err != nil {
			t.Fatalf("HELIO_BIN: %v", err)
		}
		return abs
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "helio-proctest-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "helio")
		if out, err := exec.Command("go", "build", "-o", built, "github.com/helio-energy/helio/cmd/helio").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}
