package replicatest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/proctest"
)

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func natsURL() string   { return env("HELIO_TEST_NATS", "nats://127.0.0.1:4222") }
func brokerURL() string { return env("HELIO_TEST_MQTT", "tcp://127.0.0.1:1883") }

func uniq(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// replica is one helio process.
type replica struct {
	t         *testing.T
	name      string
	bin, data string
	addr      string
	args      []string
	cmd       *exec.Cmd
	log       *proctest.Log
}

func (r *replica) url() string { return "http://" + r.addr }

func (r *replica) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, append([]string{"serve", "--addr", r.addr, "--data", r.data}, r.args...)...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _, _ = r.cmd.Process.Wait(); close(exited) }()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(r.url() + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case <-exited:
			r.t.Fatalf("replica %s ended at start:\n%s", r.name, tail(r.log.String()))
		case <-time.After(50 * time.Millisecond):
		}
	}
	r.t.Fatalf("replica %s not ready:\n%s", r.name, tail(r.log.String()))
}

// kill ends the replica with SIGKILL: no flush, no goodbye.
func (r *replica) kill() {
	_ = r.cmd.Process.Kill()
	_, _ = r.cmd.Process.Wait()
}

func (r *replica) stop() { proctest.Stop(r.cmd, 20*time.Second) }

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

func buildHelio(t *testing.T) string { return proctest.Binary(t) }

// call sends one request and returns the status and body.
func call(t *testing.T, method, url, token, body string, headers ...string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// eventually retries check every 50 ms until it holds or within runs out.
func eventually(t *testing.T, within time.Duration, what string, check func() (bool, string)) time.Duration {
	t.Helper()
	began := time.Now()
	var last string
	for time.Since(began) < within {
		ok, got := check()
		if ok {
			return time.Since(began)
		}
		last = got
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v; last seen: %s", what, within, tail(last))
	return 0
}
