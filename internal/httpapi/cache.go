package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// AnswerCache keeps the answers of dashboard reads (routes marked Cache) for a short time,
// so that many screens polling the same figures cost one computation per TTL.
//
// An answer is kept per view (organisation, role and station authority: Principal.ViewKey),
// call and locale: users who see the same stations with the same rights share it, and what
// one user may see is never served to a user who may not. Any successful write through the API by a member of an organisation
// (a station edited, a device added, an alarm dealt) drops that organisation's answers at
// once; telemetry and alarms arriving from devices show within the TTL. Concurrent misses
// of one key wait for a single computation. Errors are never kept.
//
// Each replica keeps its own answers: a write on another replica shows here within the TTL.
type AnswerCache struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*answer
	gens    map[int64]uint64 // organisation → generation, bumped by its writes
	hits    uint64
	misses  uint64
}

type answer struct {
	ready   chan struct{} // closed once data or err is set
	data    json.RawMessage
	err     error
	expires time.Time
}

// NewAnswerCache returns a cache keeping answers for ttl (at most max of them; 0: 10 000).
func NewAnswerCache(ttl time.Duration, max int) *AnswerCache {
	if max <= 0 {
		max = 10_000
	}
	return &AnswerCache{ttl: ttl, max: max, now: time.Now, entries: map[string]*answer{}, gens: map[int64]uint64{}}
}

// Stats reports the hits and misses so far.
func (c *AnswerCache) Stats() (hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// Invalidate drops the answers of an organisation's members (their keys carry its
// generation, which moves on).
func (c *AnswerCache) Invalidate(orgID int64) {
	c.mu.Lock()
	c.gens[orgID]++
	c.mu.Unlock()
}

func (c *AnswerCache) key(rt *Route, r *http.Request, p *Principal) string {
	c.mu.Lock()
	gen := c.gens[p.OrgID]
	c.mu.Unlock()
	return rt.Method + " " + r.URL.RequestURI() + "\x00" + p.ViewKey() + "\x00" +
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
	if len(c.entries) >= c.max {
		c.sweep(now)
	}
	a := &answer{ready: make(chan struct{})}
	c.entries[key] = a
	c.mu.Unlock()

	a.data, a.err = c.compute(compute)
	c.mu.Lock()
	a.expires = c.now().Add(c.ttl)
	if a.err != nil && c.entries[key] == a {
		delete(c.entries, key)
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
	return json.Marshal(data)
}

// sweep drops expired answers; when none had expired, all finished ones (the cache is a
// buffer for bursts, not a store). Called with mu held.
func (c *AnswerCache) sweep(now time.Time) {
	for k, a := range c.entries {
		select {
		case <-a.ready:
			if !now.Before(a.expires) {
				delete(c.entries, k)
			}
		default:
		}
	}
	if len(c.entries) < c.max {
		return
	}
	for k, a := range c.entries {
		select {
		case <-a.ready:
			delete(c.entries, k)
		default:
		}
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
