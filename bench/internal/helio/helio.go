// Package helio runs the helio binary for the benchmarks: on a free loopback port, until
// /readyz answers 200, with its resident memory, open files and metrics at hand.
package helio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FreeAddr returns a free loopback address.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Proc is a running helio.
type Proc struct {
	URL     string
	Started time.Time
	cmd     *exec.Cmd
	done    chan struct{}
	mu      sync.Mutex
	log     bytes.Buffer // the last lines of its output
}

// Start runs `bin serve --addr <free> --data dataDir args…`. The process is killed when
// ctx ends.
func Start(ctx context.Context, bin, dataDir string, args ...string) (*Proc, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	all := append([]string{"serve", "--addr", addr, "--data", dataDir}, args...)
	cmd := exec.CommandContext(ctx, bin, all...)
	cmd.Env = append(os.Environ(), "HELIO_LOG=text")
	p := &Proc{URL: "http://" + addr, cmd: cmd, done: make(chan struct{})}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			if p.log.Len() > 64<<10 {
				b := p.log.Bytes()
				p.log.Reset()
				p.log.Write(b[len(b)-32<<10:])
			}
			p.mu.Unlock()
		}
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Log returns the tail of the process's output.
func (p *Proc) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Pid is the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// WaitReady polls /readyz every interval until it answers 200, and returns the time from
// the start of the process.
func (p *Proc) WaitReady(timeout, interval time.Duration) (time.Duration, error) {
	deadline := time.Now().Add(timeout)
	c := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return 0, fmt.Errorf("helio exited before it was ready:\n%s", p.Log())
		default:
		}
		if resp, err := c.Get(p.URL + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return time.Since(p.Started), nil
			}
		}
		time.Sleep(interval)
	}
	return 0, fmt.Errorf("helio not ready within %s:\n%s", timeout, p.Log())
}

// Stop ends the process with SIGTERM (SIGKILL after 15 s) and waits for it.
func (p *Proc) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// RSS is the process's resident memory in bytes (from /proc).
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("no VmRSS")
}

// OpenFiles counts the process's open file descriptors (from /proc).
func OpenFiles(pid int) (int, error) {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(ents), err
}

// Metrics reads the Prometheus text at /metrics into name (with labels) → value.
func Metrics(base string) (map[string]float64, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out, sc.Err()
}

// Client calls the API with a bearer token.
type Client struct {
	Base  string
	Token string
	HTTP  *http.Client
}

// Login signs a user in.
func Login(base, user, password string) (*Client, error) {
	c := &Client{Base: base, HTTP: &http.Client{Timeout: 30 * time.Second}}
	body, _ := json.Marshal(map[string]string{"username": user, "password": password})
	resp, err := c.HTTP.Post(base+"/v2/login", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var env struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(b, &env) != nil || env.Data.Token == "" {
		return nil, fmt.Errorf("login %s: %d %s", user, resp.StatusCode, b)
	}
	c.Token = env.Data.Token
	return c, nil
}

// Get calls path and decodes the envelope's data into out (when not nil).
func (c *Client) Get(path string, out any) error {
	req, _ := http.NewRequest("GET", c.Base+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return json.Unmarshal(env.Data, out)
}
