package abusetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/proctest"
)

// server is the helio binary on a fresh data directory.
type server struct {
	t          *testing.T
	addr, prof string
	cmd        *exec.Cmd
	log        *proctest.Log
	admin      string // the first administrator's password, printed once at first start
}

var adminPwRe = regexp.MustCompile(`created user "admin" with password "([^"]+)"`)

// start starts helio with a short read timeout, the profiler (to read the
// heap after a collection) and a trusted proxy header (so that concurrent sign-ins come
// from many addresses).
func start(t *testing.T) *server {
	t.Helper()
	bin := proctest.Binary(t)
	s := &server{t: t, addr: proctest.FreeAddr(t), prof: proctest.FreeAddr(t), log: &proctest.Log{}}
	s.cmd = exec.Command(bin, "serve", "--addr", s.addr, "--data", t.TempDir(), "--pprof-addr", s.prof,
		"--read-timeout", "3s", "--trust-proxy", "--answer-cache", "5s")
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(s.url("/readyz")); err == nil {
			res.Body.Close()
			if m := adminPwRe.FindStringSubmatch(s.log.String()); res.StatusCode == 200 && m != nil {
				s.admin = m[1]
				return s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("helio not ready:\n%s", s.log.String())
	return nil
}

func (s *server) url(path string) string { return "http://" + s.addr + path }

func (s *server) stop() {
	proctest.Stop(s.cmd, 20*time.Second)
}

// alive fails the test when the server process has ended.
func (s *server) alive() {
	s.t.Helper()
	res, err := http.Get(s.url("/healthz"))
	if err != nil || res.StatusCode != 200 {
		s.t.Fatalf("the server is down (%v):\n%s", err, s.log.String())
	}
	res.Body.Close()
}

// heap is the live heap after a collection, read from the profiler.
func (s *server) heap() int64 {
	s.t.Helper()
	res, err := http.Get("http://" + s.prof + "/debug/pprof/heap?gc=1&debug=1")
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# HeapAlloc = "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	s.t.Fatal("no HeapAlloc in the heap profile")
	return 0
}

// goroutines is the server's goroutine count.
func (s *server) goroutines() int {
	s.t.Helper()
	res, err := http.Get("http://" + s.prof + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	line, _ := bufio.NewReader(res.Body).ReadString('\n')
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "goroutine profile: total")))
	if err != nil {
		s.t.Fatalf("goroutine profile: %q", line)
	}
	return n
}

// settle waits until the goroutines are back to at most want.
func (s *server) settle(want int, within time.Duration) int {
	deadline := time.Now().Add(within)
	n := s.goroutines()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		n = s.goroutines()
	}
	return n
}

// call makes one request and returns the status ("0" when the connection failed).
func (s *server) call(method, path, token, contentType string, body io.Reader, headers ...string) int {
	req, err := http.NewRequest(method, s.url(path), body)
	if err != nil {
		return 0
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func (s *server) login(t *testing.T, user, password string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"username": user, "password": password})
	res, err := http.Post(s.url("/v2/login"), "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Data struct{ Token string } `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.Data.Token == "" {
		t.Fatalf("login %s: %d %v", user, res.StatusCode, err)
	}
	return out.Data.Token
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
