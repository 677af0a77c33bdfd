// Package mailpittest runs Mailpit (a real SMTP server with an HTTP API to read what
// arrived) on 127.0.0.1 for tests. `make test` builds bin/mailpit and names it in
// HELIO_MAILPIT, so there the tests that need it cannot be skipped.
package mailpittest

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Server is a running Mailpit.
type Server struct {
	SMTP string // host:port
	API  string // http://host:port
}

// Bin is the Mailpit binary: HELIO_MAILPIT, else bin/mailpit at the module's root; the test
// is skipped without one only when HELIO_MAILPIT is not set.
func Bin(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("HELIO_MAILPIT"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("HELIO_MAILPIT: %v", err)
		}
		return p
	}
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test")
		}
		dir = parent
	}
	p := filepath.Join(dir, "bin", "mailpit")
	if _, err := os.Stat(p); err != nil {
		t.Skip("no Mailpit: run make bin/mailpit (make test does)")
	}
	return p
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Start runs a Mailpit of the test's own, stopped at the test's end.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Bin(t)
	s := &Server{SMTP: freePort(t)}
	listen := freePort(t)
	s.API = "http://" + listen
	cmd := exec.Command(bin, "--quiet", "--smtp", s.SMTP, "--listen", listen, "--database", filepath.Join(t.TempDir(), "mailpit.db"),
		"--disable-version-check", "--smtp-auth-accept-any", "--smtp-auth-allow-insecure")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(s.API + "/api/v1/messages")
		if err == nil {
			resp.Body.Close()
			if c, err := net.Dial("tcp", s.SMTP); err == nil {
				c.Close()
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailpit did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Summary is a message as Mailpit lists it.
type Summary struct {
	ID      string
	Subject string
	To      []struct{ Address string }
}

// Message is a message's whole text.
type Message struct {
	ID, Subject, Text, HTML, MessageID string
	To                                 []struct{ Address string }
}

func (s *Server) get(t testing.TB, path string, out any) {
	t.Helper()
	resp, err := http.Get(s.API + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("mailpit %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// Messages lists what arrived, newest first.
func (s *Server) Messages(t testing.TB) []Summary {
	t.Helper()
	var out struct{ Messages []Summary }
	s.get(t, "/api/v1/messages?limit=1000", &out)
	return out.Messages
}

// Message reads one message whole.
func (s *Server) Message(t testing.TB, id string) Message {
	t.Helper()
	var m Message
	s.get(t, "/api/v1/message/"+id, &m)
	return m
}

// Wait waits until at least n messages arrived, and returns them.
func (s *Server) Wait(t testing.TB, n int, within time.Duration) []Summary {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := s.Messages(t)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d e-mails arrived in %s, want %d", len(got), within, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
