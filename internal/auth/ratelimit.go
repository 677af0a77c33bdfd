package auth

import (
	"strings"
	"sync"
	"time"
)

// Limiter counts failed sign-ins per account and client address: after Max failures
// within Window, further attempts from that pair are refused until the oldest failure
// leaves the window. It is kept in memory, per process.
type Limiter struct {
	Max    int
	Window time.Duration
	Now    func() time.Time

	mu       sync.Mutex
	failures map[string][]time.Time
}

// NewLimiter returns the sign-in limiter: 5 failures per 15 minutes.
func NewLimiter() *Limiter {
	return &Limiter{Max: 5, Window: 15 * time.Minute, failures: map[string][]time.Time{}}
}

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func limiterKey(username, client string) string { return strings.ToLower(username) + "\x00" + client }

func (l *Limiter) recent(key string, now time.Time) []time.Time {
	list := l.failures[key]
	i := 0
	for i < len(list) && now.Sub(list[i]) >= l.Window {
		i++
	}
	list = list[i:]
	if len(list) == 0 {
		delete(l.failures, key)
	} else {
		l.failures[key] = list
	}
	return list
}

// Blocked reports whether the pair is locked out and for how long.
func (l *Limiter) Blocked(username, client string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	list := l.recent(limiterKey(username, client), now)
	if len(list) < l.Max {
		return false, 0
	}
	return true, l.Window - now.Sub(list[len(list)-l.Max])
}

// Fail records a failed attempt.
func (l *Limiter) Fail(username, client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := limiterKey(username, client)
	now := l.now()
	l.failures[k] = append(l.recent(k, now), now)
}

// Reset forgets the pair's failures after a successful sign-in.
func (l *Limiter) Reset(username, client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.failures, limiterKey(username, client))
}
