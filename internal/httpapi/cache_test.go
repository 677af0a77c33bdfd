package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cacheAPI serves GET /v2/n (a cached read counting its computations), GET /v2/fails
// (failing once, then answering) and POST /v2/write; the caller is named by the X-User
// header as "user/org/authority/dept".
func cacheAPI(t *testing.T, ttl time.Duration) (*API, *AnswerCache, *atomic.Int64, *time.Time) {
	t.Helper()
	api := New(func(r *http.Request) (*Principal, error) {
		f := strings.Split(r.Header.Get("X-User"), "/")
		if len(f) != 4 {
			return nil, Unauthorized()
		}
		user, _ := strconv.ParseInt(f[0], 10, 64)
		org, _ := strconv.ParseInt(f[1], 10, 64)
		dept, _ := strconv.ParseInt(f[3], 10, 64)
		return &Principal{UserID: user, OrgID: org, DeptID: dept, Role: "user", StationAuthority: f[2]}, nil
	})
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	c := NewAnswerCache(ttl, 0)
	c.now = func() time.Time { return now }
	api.UseAnswerCache(c)
	var computed atomic.Int64
	api.Add(Route{Method: "GET", Path: "/v2/n", Access: Signed, Cache: true, Query: pageQuery{}, Handle: func(r *http.Request) (any, error) {
		return map[string]int64{"n": computed.Add(1)}, nil
	}})
	var failed atomic.Bool
	api.Add(Route{Method: "GET", Path: "/v2/fails", Access: Signed, Cache: true, Handle: func(r *http.Request) (any, error) {
		if failed.CompareAndSwap(false, true) {
			return nil, Internal(errors.New("database away"))
		}
		return "fine", nil
	}})
	api.Add(Route{Method: "POST", Path: "/v2/write", Access: Signed, Handle: func(r *http.Request) (any, error) { return "done", nil }})
	return api, c, &computed, &now
}

func call(t *testing.T, api *API, method, path, user, lang string) (int, string) {
	t.Helper()
	r := httptest.NewRequest(method, path, nil)
	r.Header.Set("X-User", user)
	if lang != "" {
		r.Header.Set("Accept-Language", lang)
	}
	w := httptest.NewRecorder()
	api.ServeHTTP(w, r)
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &env)
	return w.Code, string(env.Data)
}

func TestAnswerCacheKeepsPerViewUntilTTLOrAWrite(t *testing.T) {
	api, c, computed, now := cacheAPI(t, 5*time.Second)
	get := func(user string) string {
		t.Helper()
		code, data := call(t, api, "GET", "/v2/n", user, "")
		if code != 200 {
			t.Fatalf("GET as %s: %d", user, code)
		}
		return data
	}
	if a, b := get("1/10/own/3"), get("1/10/own/3"); a != `{"n":1}` || b != a || computed.Load() != 1 {
		t.Fatalf("same user twice: %s %s, %d computations", a, b, computed.Load())
	}
	// a user who sees other stations (another department) never gets the first one's answer
	if got := get("2/10/own/4"); got != `{"n":2}` {
		t.Fatalf("second user: %s", got)
	}
	// one who sees the same ones shares it; one who sees all of them does not
	if got := get("5/10/own/3"); got != `{"n":1}` {
		t.Fatalf("same view: %s", got)
	}
	if got := get("6/10/all/3"); got != `{"n":3}` {
		t.Fatalf("whole organisation's view: %s", got)
	}
	// another locale and another query are other answers
	if _, data := call(t, api, "GET", "/v2/n", "1/10/own/3", "zh-CN"); data != `{"n":4}` {
		t.Fatalf("other locale: %s", data)
	}
	if _, data := call(t, api, "GET", "/v2/n?page=2", "1/10/own/3", ""); data != `{"n":5}` {
		t.Fatalf("other query: %s", data)
	}
	// a write by a member of another organisation leaves this one's answers
	if code, _ := call(t, api, "POST", "/v2/write", "7/70/all/0", ""); code != 200 {
		t.Fatal("write failed")
	}
	if got := get("1/10/own/3"); got != `{"n":1}` {
		t.Fatalf("after another organisation's write: %s", got)
	}
	// a write by a member drops the organisation's answers at once
	call(t, api, "POST", "/v2/write", "2/10/own/4", "")
	if got := get("1/10/own/3"); got != `{"n":6}` {
		t.Fatalf("after a write: %s", got)
	}
	// the TTL ends an answer
	*now = now.Add(5 * time.Second)
	if got := get("1/10/own/3"); got != `{"n":7}` {
		t.Fatalf("after the TTL: %s", got)
	}
	if hits, misses := c.Stats(); hits != 3 || misses != 7 {
		t.Fatalf("stats: %d hits, %d misses", hits, misses)
	}
}

func TestAnswerCacheKeepsNoErrors(t *testing.T) {
	api, _, _, _ := cacheAPI(t, time.Minute)
	if code, _ := call(t, api, "GET", "/v2/fails", "1/10/own/3", ""); code != 500 {
		t.Fatalf("first call: %d", code)
	}
	if code, data := call(t, api, "GET", "/v2/fails", "1/10/own/3", ""); code != 200 || data != `"fine"` {
		t.Fatalf("second call: %d %s", code, data)
	}
}

func TestAnswerCacheComputesConcurrentMissesOnce(t *testing.T) {
	api := New(func(r *http.Request) (*Principal, error) { return &Principal{UserID: 1, OrgID: 1}, nil })
	api.UseAnswerCache(NewAnswerCache(time.Minute, 0))
	var computed atomic.Int64
	release := make(chan struct{})
	api.Add(Route{Method: "GET", Path: "/v2/slow", Access: Signed, Cache: true, Handle: func(r *http.Request) (any, error) {
		computed.Add(1)
		<-release
		return 42, nil
	}})
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := httptest.NewRecorder()
			api.ServeHTTP(w, httptest.NewRequest("GET", "/v2/slow", nil))
			codes[i] = w.Code
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	for i, c := range codes {
		if c != 200 {
			t.Fatalf("caller %d: %d", i, c)
		}
	}
	if n := computed.Load(); n != 1 {
		t.Fatalf("%d computations for 20 concurrent callers", n)
	}
}

type pageQuery struct {
	Page int `query:"page"`
}

// Junk parameters neither make new entries nor reach the handler; the parameters a route
// declares do, whatever their order.
func TestAnswerCacheKeysByDeclaredParameters(t *testing.T) {
	api := New(func(r *http.Request) (*Principal, error) { return &Principal{UserID: 1, OrgID: 1}, nil })
	c := NewAnswerCache(time.Minute, 0)
	api.UseAnswerCache(c)
	var computed atomic.Int64
	api.Add(Route{Method: "GET", Path: "/v2/q", Access: Signed, Cache: true, Query: struct {
		A string `query:"a"`
		B string `query:"b"`
	}{}, Handle: func(r *http.Request) (any, error) {
		computed.Add(1)
		return r.URL.RawQuery, nil
	}})
	get := func(q string) string {
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest("GET", "/v2/q?"+q, nil))
		var env struct{ Data string }
		_ = json.Unmarshal(w.Body.Bytes(), &env)
		return env.Data
	}
	if got := get("b=2&a=1"); got != "a=1&b=2" {
		t.Fatalf("handler saw %q", got)
	}
	for i := range 1000 {
		if got := get("a=1&b=2&junk" + strconv.Itoa(i) + "=" + strings.Repeat("x", 100)); got != "a=1&b=2" {
			t.Fatalf("handler saw %q", got)
		}
	}
	if n, _ := c.Size(); n != 1 || computed.Load() != 1 {
		t.Fatalf("%d entries, %d computations for one declared query and junk", n, computed.Load())
	}
	get("a=2")
	if n, _ := c.Size(); n != 2 {
		t.Fatalf("%d entries, want 2", n)
	}
}

// Expired answers go as new ones come in, without waiting for a count.
func TestAnswerCacheDropsExpired(t *testing.T) {
	c := NewAnswerCache(time.Second, 0)
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	for i := range 50 {
		if _, err := c.get(strconv.Itoa(i), func() (any, error) { return i, nil }); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(2 * time.Second)
	if _, err := c.get("fresh", func() (any, error) { return 0, nil }); err != nil {
		t.Fatal(err)
	}
	if n, bytes := c.Size(); n != 1 || bytes > 1024 {
		t.Fatalf("%d entries (%d bytes) after the TTL, want only the fresh one", n, bytes)
	}
}

func TestAnswerCacheStaysBoundedInBytes(t *testing.T) {
	const bound = 1 << 20
	c := NewAnswerCache(time.Hour, bound)
	big := strings.Repeat("x", 10_000)
	for i := range 1000 {
		if _, err := c.get(strconv.Itoa(i), func() (any, error) { return big, nil }); err != nil {
			t.Fatal(err)
		}
		if _, bytes := c.Size(); bytes > bound {
			t.Fatalf("%d bytes kept after %d answers, bound %d", bytes, i+1, bound)
		}
	}
	n, bytes := c.Size()
	if n < 50 || n > 105 {
		t.Fatalf("%d answers (%d bytes) kept, want about 100", n, bytes)
	}
	// the newest stay, the oldest went
	if _, ok := c.entries["999"]; !ok {
		t.Fatal("the newest answer was dropped")
	}
	if _, ok := c.entries["0"]; ok {
		t.Fatal("the oldest answer is still there")
	}
	// an answer beyond a quarter of the bound is answered, not kept
	huge := strings.Repeat("y", bound/2)
	if data, err := c.get("huge", func() (any, error) { return huge, nil }); err != nil || len(data) < bound/2 {
		t.Fatalf("huge answer: %d bytes, %v", len(data), err)
	}
	if _, ok := c.entries["huge"]; ok {
		t.Fatal("an answer beyond a quarter of the bound was kept")
	}
}
