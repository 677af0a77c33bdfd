package abusetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// route is one call of the OpenAPI document.
type route struct {
	method, path string
	query        []string // declared query parameters
	body         []string // the body's properties (JSON calls)
}

func routes(t *testing.T, s *server) []route {
	t.Helper()
	res, err := http.Get(s.url("/v2/openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
			RequestBody *struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var out []route
	for path, ops := range doc.Paths {
		for method, op := range ops {
			r := route{method: strings.ToUpper(method), path: path}
			for _, p := range op.Parameters {
				if p.In == "query" {
					r.query = append(r.query, p.Name)
				}
			}
			if op.RequestBody != nil {
				ref := op.RequestBody.Content["application/json"].Schema.Ref
				for name := range doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")].Properties {
					r.body = append(r.body, name)
				}
				sort.Strings(r.body)
			}
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// skip are calls the suite does not attack: they end the session it runs on.
var skip = map[string]bool{"POST /v2/logout": true}

func ids(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, i+1)
	}
	return b.String()
}

// attacks are the bad requests made of each call: a name and the request's query and body.
func attacks(r route) []struct {
	name, query, ctype string
	body               []byte
} {
	type attack = struct {
		name, query, ctype string
		body               []byte
	}
	big := strings.Repeat("x", 200_000)
	out := []attack{
		{name: "unknown parameters", query: "junk=1&" + strings.Repeat("a", 300) + "=2"},
		{name: "oversized parameter value", query: "q=" + big},
	}
	for _, q := range r.query {
		out = append(out,
			attack{name: "wrong type in " + q, query: q + "=%7B%7D%5B%5D-1e999"},
			attack{name: "oversized " + q, query: q + "=" + big},
			attack{name: "huge list in " + q, query: q + "=" + ids(33000)})
	}
	if r.method == http.MethodPost {
		deep := bytes.Repeat([]byte("["), 100_000)
		out = append(out,
			attack{name: "oversized body", ctype: "application/json", body: append(append([]byte(`{"x":"`), bytes.Repeat([]byte("y"), 17<<20)...), '"', '}')},
			attack{name: "deep JSON", ctype: "application/json", body: deep},
			attack{name: "deep object", ctype: "application/json", body: []byte(strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000))},
			attack{name: "unknown fields", ctype: "application/json", body: []byte(`{"zzz":1,"__proto__":{"admin":true}}`)},
			attack{name: "not an object", ctype: "application/json", body: []byte(`[1,2,3]`)},
			attack{name: "wrong content type", ctype: "text/plain", body: []byte(`{}`)},
			attack{name: "invalid UTF-8", ctype: "application/json", body: []byte("{\"name\":\"\xff\xfe\"}")},
		)
		for _, f := range r.body {
			huge := make([]int, 100_000)
			for i := range huge {
				huge[i] = i + 1
			}
			wrong, _ := json.Marshal(map[string]any{f: map[string]any{"nested": []any{1, "two", nil}}})
			list, _ := json.Marshal(map[string]any{f: huge})
			long, _ := json.Marshal(map[string]any{f: strings.Repeat("z", 900_000)})
			out = append(out,
				attack{name: "wrong type in " + f, ctype: "application/json", body: wrong},
				attack{name: "huge list in " + f, ctype: "application/json", body: list},
				attack{name: "oversized " + f, ctype: "application/json", body: long})
		}
	}
	return out
}

func TestAbuse(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the helio binary")
	}
	s := start(t)
	token := s.login(t, "admin", s.admin)
	list := routes(t, s)
	if len(list) < 40 {
		t.Fatalf("only %d calls in the OpenAPI document", len(list))
	}
	// warm up: every call once, so that lazily built state does not count as growth
	for _, r := range list {
		if skip[r.method+" "+r.path] {
			continue
		}
		s.call(r.method, strings.NewReplacer("{", "", "}", "").Replace(r.path), token, "", nil)
	}
	heap0, gor0 := s.heap(), s.goroutines()
	t.Logf("before: heap %s, %d goroutines, %d calls", mib(heap0), gor0, len(list))

	t.Run("per endpoint", func(t *testing.T) { perEndpoint(t, s, token, list) })
	t.Run("slow clients", func(t *testing.T) { slowClients(t, s) })
	t.Run("concurrent sign-ins", func(t *testing.T) { concurrentSignIns(t, s) })
	t.Run("many WebSockets of one user", func(t *testing.T) { manySockets(t, s, token) })
	s.alive()

	gor := s.settle(gor0+10, 15*time.Second)
	heap := s.heap()
	t.Logf("after: heap %s (%+.1f MiB), %d goroutines (%+d)", mib(heap), float64(heap-heap0)/(1<<20), gor, gor-gor0)
	if gor > gor0+10 {
		t.Errorf("%d goroutines after the attacks, %d before", gor, gor0)
	}
	// kept answers (at most 5 s old here) and the runtime's pools may hold a little
	if heap > heap0+32<<20 {
		t.Errorf("heap %s after the attacks, %s before", mib(heap), mib(heap0))
	}
}

func perEndpoint(t *testing.T, s *server, token string, list []route) {
	total := 0
	for _, r := range list {
		key := r.method + " " + r.path
		if skip[key] {
			continue
		}
		path := strings.NewReplacer("{", "", "}", "").Replace(r.path) // {uid} → uid: not an id
		for _, a := range attacks(r) {
			var body io.Reader
			if a.body != nil {
				body = bytes.NewReader(a.body)
			}
			url := path
			if a.query != "" {
				url += "?" + a.query
			}
			st := s.call(r.method, url, token, a.ctype, body)
			total++
			if st == 0 || (st >= 500 && st != http.StatusServiceUnavailable) {
				t.Errorf("%s, %s: status %d", key, a.name, st)
			}
		}
	}
	t.Logf("%d bad requests over %d calls", total, len(list))
	s.alive()
}

// slowClients trickles a request byte by byte: the server cuts it off at its read
// timeout (3 s here) instead of holding a worker for as long as the client likes.
func slowClients(t *testing.T, s *server) {
	for name, req := range map[string]string{
		"headers": "POST /v2/login HTTP/1.1\r\nHost: helio\r\nContent-Type: application/json\r\nX-Padding: " + strings.Repeat("p", 200),
		"body":    "POST /v2/login HTTP/1.1\r\nHost: helio\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"username\":\"" + strings.Repeat("u", 400),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", s.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			start := time.Now()
			closed := make(chan struct{})
			go func() {
				_, _ = io.Copy(io.Discard, conn)
				close(closed)
			}()
			for i := 0; i < len(req); i++ {
				if _, err := conn.Write([]byte{req[i]}); err != nil {
					break
				}
				select {
				case <-closed:
					i = len(req)
				case <-time.After(100 * time.Millisecond):
				}
				if time.Since(start) > 20*time.Second {
					t.Fatalf("still reading a trickled request after %s", time.Since(start))
				}
			}
			select {
			case <-closed:
			case <-time.After(20 * time.Second):
				t.Fatal("the connection was not closed")
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Fatalf("closed after %s, want about the 3 s read timeout", d)
			}
			t.Logf("cut off after %s", time.Since(start).Round(10*time.Millisecond))
		})
	}
}

// concurrentSignIns: 200 sign-ins at once with made-up names from 200 addresses. The
// hashing is bounded: each answers 401, or 503 when beyond capacity — nothing else.
func concurrentSignIns(t *testing.T, s *server) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := map[int]int{}
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"username":"nobody%d","password":"guess%d"}`, i, i)
			st := s.call("POST", "/v2/login", "", "application/json", strings.NewReader(body),
				"X-Forwarded-For", fmt.Sprintf("10.20.%d.%d", i/250, i%250+1))
			mu.Lock()
			count[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("200 concurrent sign-ins: %v", count)
	if count[401]+count[503] != 200 {
		t.Fatalf("statuses %v, want only 401 and 503", count)
	}
	s.alive()
}

// manySockets opens 300 WebSockets with one token: each is served, and all of them go
// when the clients leave.
func manySockets(t *testing.T, s *server, token string) {
	before := s.goroutines()
	var conns []*websocket.Conn
	for i := 0; i < 300; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, _, err := websocket.Dial(ctx, "ws://"+s.addr+"/v2/webpush/message?token="+token, nil)
		cancel()
		if err != nil {
			t.Fatalf("socket %d: %v", i, err)
		}
		conns = append(conns, c)
	}
	during := s.goroutines()
	for _, c := range conns {
		c.CloseNow()
	}
	after := s.settle(before+10, 15*time.Second)
	t.Logf("300 sockets: goroutines %d before, %d open, %d after", before, during, after)
	if after > before+10 {
		t.Fatalf("%d goroutines after closing 300 sockets, %d before", after, before)
	}
}
