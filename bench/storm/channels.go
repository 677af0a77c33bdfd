package main

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
)

// With -channels every user also has app push (one subscribed browser each) and e-mail (a
// verified address, a 15-minute digest), and the organisation two webhooks (Helio's JSON and
// Slack's): the outbox is written with every decision and a worker sends it during the
// window, as the server runs it. Receivers on 127.0.0.1: a webhook receiver (204), a push
// service (201; it does not decrypt: the tests do) and Mailpit (a real SMTP server).
var (
	channels = flag.Bool("channels", false, "every channel on: app push, e-mail (digest 15 min) and two webhooks")
	mailpit  = flag.String("mailpit", "bin/mailpit", "the Mailpit binary (make bin/mailpit)")
)

// sinks are the receivers of one run.
type sinks struct {
	hooks, pushes *counter
	hookSrv       *httptest.Server
	pushSrv       *httptest.Server
	smtp, api     string
	mailpit       *exec.Cmd
}

// counter counts requests by delivery id.
type counter struct {
	mu    sync.Mutex
	n     int
	ids   map[string]bool
	dupes int
}

func (c *counter) handler(status int) http.Handler {
	c.ids = map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		c.mu.Lock()
		c.n++
		if id := r.Header.Get(notify.HeaderDelivery); id != "" {
			if c.ids[id] {
				c.dupes++
			}
			c.ids[id] = true
		}
		c.mu.Unlock()
		w.WriteHeader(status)
	})
}

func (c *counter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer l.Close()
	return l.Addr().String()
}

func startSinks(dir string) (*sinks, error) {
	s := &sinks{hooks: &counter{}, pushes: &counter{}}
	s.hookSrv = httptest.NewServer(s.hooks.handler(http.StatusNoContent))
	s.pushSrv = httptest.NewServer(s.pushes.handler(http.StatusCreated))
	s.smtp = freeAddr()
	listen := freeAddr()
	s.api = "http://" + listen
	s.mailpit = exec.Command(*mailpit, "--quiet", "--smtp", s.smtp, "--listen", listen, "--database", filepath.Join(dir, "mailpit.db"),
		"--disable-version-check", "--max", "0")
	s.mailpit.Stderr = os.Stderr
	if err := s.mailpit.Start(); err != nil {
		return nil, fmt.Errorf("mailpit (%s): %w", *mailpit, err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", s.smtp); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("mailpit did not start")
		}
	}
	return s, nil
}

func (s *sinks) close() {
	s.hookSrv.Close()
	s.pushSrv.Close()
	_ = s.mailpit.Process.Kill()
	_ = s.mailpit.Wait()
}

// mails is how many e-mails Mailpit holds.
func (s *sinks) mails() int {
	resp, err := http.Get(s.api + "/api/v1/messages?limit=1")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var out struct{ Total int }
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out.Total
}

// wire gives every user a verified address, a 15-minute digest and a subscribed browser,
// with methods 1, 2 and 3, and the organisation its two webhooks.
func (s *sinks) wire(ctx context.Context, db *store.DB, org int64) error {
	ms := time.Now().UnixMilli()
	for _, format := range []string{"helio", "slack"} {
		if _, err := db.Exec(ctx, `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
			VALUES (?, ?, ?, ?, ',alarm.raised,', 'en-US', 'whsec_storm', 1, ?, ?)`, org, "storm "+format, s.hookSrv.URL+"/"+format, format, ms, ms); err != nil {
			return err
		}
	}
	ids, err := store.IDs(ctx, db, "SELECT id FROM users WHERE org_id = ? ORDER BY id", org)
	if err != nil {
		return err
	}
	b64 := base64.RawURLEncoding
	for _, uid := range ids {
		if _, err := db.Exec(ctx, "UPDATE users SET email = ?, email_verified = ? WHERE id = ?",
			fmt.Sprintf("u%d@storm.example", uid), fmt.Sprintf("u%d@storm.example", uid), uid); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, "UPDATE alarm_notify_settings SET methods = '1,2,3', digest_minutes = 15 WHERE user_id = ?", uid); err != nil {
			return err
		}
		k, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		auth := make([]byte, 16)
		_, _ = rand.Read(auth)
		if _, err := db.Exec(ctx, "INSERT INTO webpush_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)",
			uid, fmt.Sprintf("%s/push/%d", s.pushSrv.URL, uid), b64.EncodeToString(k.PublicKey().Bytes()), b64.EncodeToString(auth), ms); err != nil {
			return err
		}
	}
	return nil
}

// outbox counts the deliveries by channel and state.
func outbox(ctx context.Context, db *store.DB) map[string]int {
	out := map[string]int{}
	rows, err := db.Query(ctx, "SELECT channel, state, COUNT(*) FROM notify_outbox GROUP BY channel, state")
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var c, st string
		var n int
		if rows.Scan(&c, &st, &n) == nil {
			out[c+" "+st] = n
		}
	}
	return out
}

// pushesSent counts the push deliveries sent, one per user and alarm: the users of each
// fan-out row sent (target 0, the users in its payload) and the users' own rows sent, less
// the parts of sent fan-out rows that went on as rows of their own and are not sent (yet).
func pushesSent(ctx context.Context, db *store.DB) int {
	rows, err := db.Query(ctx, "SELECT target_id, state, payload FROM notify_outbox WHERE channel = 'push'")
	if err != nil {
		return -1
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var target int64
		var state, payload string
		if rows.Scan(&target, &state, &payload) != nil {
			return -1
		}
		var f struct {
			Users  []int64 `json:"users"`
			Origin int64   `json:"origin"`
		}
		_ = json.Unmarshal([]byte(payload), &f)
		switch {
		case target == 0 && state == "sent":
			n += len(f.Users)
		case target != 0 && f.Origin == 0 && state == "sent":
			n++
		case target != 0 && f.Origin != 0 && state != "sent":
			n--
		}
	}
	return n
}
