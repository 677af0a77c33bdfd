package httpapi

import (
	"container/list"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"sync"
	"time"
)

// AnswerCache keeps the answers of dashboard reads (routes marked Cache) for a short time,
// so that many screens polling the same figures cost one computation per TTL.
//
// An answer is kept per view (organisation, role and station authority: Principal.ViewKey),
// call and locale: users who see the same stations with the same rights share it, and what
// one user may see is never served to a user who may not. The call is its path and the
// query parameters its route declares (Route.Query): other parameters are neither part of
// the key nor seen by the handler, so junk parameters cannot multiply the entries. Any
// successful write through the API by a member of an organisation (a station edited, a
// device added, an alarm dealt) drops that organisation's answers at once; telemetry and
// alarms arriving from devices show within the TTL. Concurrent misses of one key wait for
// a single computation. Errors are never kept.
//
// Memory is bounded in bytes (keys and encoded answers): expired answers are dropped as
// new ones come in, and beyond the bound the oldest go first. An answer larger than a
// quarter of the bound is not kept.
//
// Each replica keeps its own answers; with ShareOver, a write on any replica drops the
// organisation's answers on every replica (else another replica's shows within the TTL).
type AnswerCache struct {
	ttl      time.Duration
	maxBytes int64
	now      func() time.Time

	mu      sync.Mutex
	entries map[string]*answer
	order   *list.List // of *answer, oldest first (the TTL is fixed, so also by expiry)
	bytes   int64
	gens    map[int64]uint64 // organisation → generation, bumped by its writes
	hits    uint64
	misses  uint64
	shared  func(orgID int64) // tells the other replicas of an Invalidate (ShareOver)
}

type answer struct {
	key     string
	ready   chan struct{} // closed once data or err is set
	data    json.RawMessage
	err     error
	expires time.Time
	size    int64
	elem    *list.Element
}

// entryOverhead approximates the bookkeeping of one entry beyond its key and answer.
const entryOverhead = 256

// DefaultAnswerBytes is the cache's bound when none is given: 64 MiB.
const DefaultAnswerBytes = 64 << 20

// NewAnswerCache returns a cache keeping answers for ttl, in at most maxBytes
// (0: DefaultAnswerBytes).
func NewAnswerCache(ttl time.Duration, maxBytes int64) *AnswerCache {
	if maxBytes <= 0 {
		maxBytes = DefaultAnswerBytes
	}
	return &AnswerCache{ttl: ttl, maxBytes: maxBytes, now: time.Now, entries: map[string]*answer{},
		order: list.New(), gens: map[int64]uint64{}}
}

// Stats reports the hits and misses so far.
func (c *AnswerCache) Stats() (hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// Size reports how many answers are kept and their bytes.
func (c *AnswerCache) Size() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// Invalidate drops the answers of an organisation's members (their keys carry its
// generation, which moves on).
func (c *AnswerCache) Invalidate(orgID int64) {
	c.mu.Lock()
	c.gens[orgID]++
	shared := c.shared
	c.mu.Unlock()
	if shared != nil {
		shared(orgID)
	}
}

// drop is Invalidate heard from another replica (not passed on).
func (c *AnswerCache) drop(orgID int64) {
	c.mu.Lock()
	c.gens[orgID]++
	c.mu.Unlock()
}

// queryNames lists the query parameters a route declares (the `query` tags of its Query
// struct).
func queryNames(q any) map[string]bool {
	t := reflect.TypeOf(q)
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	out := map[string]bool{}
	for _, p := range planOf(t) {
		out[p.name] = true
	}
	return out
}

// declaredQuery is r's query reduced to the parameters names holds, in canonical form.
func declaredQuery(r *http.Request, names map[string]bool) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	q := url.Values{}
	for k, v := range r.URL.Query() {
		if names[k] {
			q[k] = v
		}
	}
	return q.Encode()
}

// cachedRequest is r as a cached route's handler sees it: only the declared parameters.
func cachedRequest(r *http.Request, query string) *http.Request {
	if r.URL.RawQuery == query {
		return r
	}
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = query
	return r2
}

func (c *AnswerCache) key(rt *Route, r *http.Request, query string, p *Principal) string {
	c.mu.Lock()
	gen := c.gens[p.OrgID]
	c.mu.Unlock()
	return rt.Method + " " + r.URL.Path + "?" + query + "\x00" + p.ViewKey() + "\x00" +
		strconv.FormatInt(p.OrgID, 10) + "." + strconv.FormatUint(gen, 10) + "\x00" + Locale(r)
}

// get answers from the cache, or computes the answer once for every concurrent caller.
func (c *AnswerCache) get(key string, compute func() (any, error)) (json.RawMessage, error) {
	c.mu.Lock()
	now := c.now()
	if a, ok := c.entries[key]; ok {
		select {
		case <-a.ready:
			if now.Before(a.expires) {
				c.hits++
				c.mu.Unlock()
				return a.data, nil
			}
			c.remove(a)
		default: // being computed: wait for it
			c.hits++
			c.mu.Unlock()
			<-a.ready
			if a.err != nil {
				return c.compute(compute)
			}
			return a.data, nil
		}
	}
	c.misses++
	c.dropExpired(now)
	a := &answer{key: key, ready: make(chan struct{})}
	c.entries[key] = a
	a.elem = c.order.PushBack(a)
	c.mu.Unlock()

	a.data, a.err = c.compute(compute)
	c.mu.Lock()
	a.expires = c.now().Add(c.ttl)
	if c.entries[key] == a {
		a.size = int64(len(a.data)+len(key)) + entryOverhead
		c.bytes += a.size
		if a.err != nil || a.size > c.maxBytes/4 {
			c.remove(a)
		}
		c.evict()
	}
	c.mu.Unlock()
	close(a.ready)
	return a.data, a.err
}

func (c *AnswerCache) compute(compute func() (any, error)) (json.RawMessage, error) {
	data, err := compute()
	if err != nil {
		return nil, err
	}
	if a, ok := data.(Appender); ok {
		if b, err := a.AppendJSON(nil); err == nil {
			return b, nil
		}
	}
	return json.Marshal(data)
}

// remove forgets an entry. Called with mu held.
func (c *AnswerCache) remove(a *answer) {
	if c.entries[a.key] == a {
		delete(c.entries, a.key)
	}
	if a.elem != nil {
		c.order.Remove(a.elem)
		a.elem = nil
		c.bytes -= a.size
	}
}

// dropExpired drops the expired answers at the old end. Called with mu held.
func (c *AnswerCache) dropExpired(now time.Time) {
	for e := c.order.Front(); e != nil; {
		a := e.Value.(*answer)
		next := e.Next()
		select {
		case <-a.ready:
			if now.Before(a.expires) {
				return
			}
			c.remove(a)
		default: // being computed: newer ones may still have expired
		}
		e = next
	}
}

// evict drops the oldest finished answers until the bytes fit. Called with mu held.
func (c *AnswerCache) evict() {
	for e := c.order.Front(); e != nil && c.bytes > c.maxBytes; {
		a := e.Value.(*answer)
		next := e.Next()
		select {
		case <-a.ready:
			c.remove(a)
		default:
			if a.size > 0 { // finished computing, not yet announced: still droppable
				c.remove(a)
			}
		}
		e = next
	}
}

// invalidating drops an organisation's answers before a raw handler's answer goes out.
type invalidating struct {
	http.ResponseWriter
	drop func()
	once sync.Once
}

func (w *invalidating) WriteHeader(code int) {
	w.once.Do(w.drop)
	w.ResponseWriter.WriteHeader(code)
}

func (w *invalidating) Write(b []byte) (int, error) {
	w.once.Do(w.drop)
	return w.ResponseWriter.Write(b)
}

func (w *invalidating) Unwrap() http.ResponseWriter { return w.ResponseWriter }
