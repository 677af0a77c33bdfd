package auth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestLimiter(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *store.DB{"sqlite": storetest.SQLite, "postgres": storetest.Postgres} {
		t.Run(name, func(t *testing.T) {
			db := open(t)
			t.Run("window", func(t *testing.T) { testLimiterWindow(t, db) })
			t.Run("spraying", func(t *testing.T) { testLimiterSpraying(t, db) })
		})
	}
}

func blocked(t *testing.T, l *Limiter, user, client string) (bool, time.Duration) {
	t.Helper()
	b, wait, err := l.Blocked(context.Background(), user, client)
	if err != nil {
		t.Fatal(err)
	}
	return b, wait
}

func fail(t *testing.T, l *Limiter, user, client string) {
	t.Helper()
	if err := l.Fail(context.Background(), user, client); err != nil {
		t.Fatal(err)
	}
}

func testLimiterWindow(t *testing.T, db *store.DB) {
	now := time.Unix(1_000_000, 0)
	l := NewLimiter(db)
	l.Now = func() time.Time { return now }
	// a second replica on the same database sees the same failures
	other := NewLimiter(db)
	other.Now = l.Now
	for i := 0; i < 4; i++ {
		fail(t, l, "Admin", "1.2.3.4")
		now = now.Add(time.Minute)
	}
	if b, _ := blocked(t, l, "admin", "1.2.3.4"); b {
		t.Fatal("blocked after 4 failures")
	}
	fail(t, other, "admin", "1.2.3.4")
	b, wait := blocked(t, l, "ADMIN", "1.2.3.4")
	if !b || wait != 11*time.Minute {
		t.Fatalf("blocked=%v wait=%v, want true 11m (usernames are case-insensitive; replicas share failures)", b, wait)
	}
	if b, _ := blocked(t, other, "admin", "1.2.3.4"); !b {
		t.Fatal("the other replica does not refuse the pair")
	}
	if b, _ := blocked(t, l, "admin", "1.2.3.5"); b {
		t.Fatal("another address is refused")
	}
	now = now.Add(11 * time.Minute)
	if b, _ := blocked(t, l, "admin", "1.2.3.4"); b {
		t.Fatal("still blocked after the first failure left the window")
	}
	fail(t, l, "admin", "1.2.3.4")
	if err := l.Reset(context.Background(), "admin", "1.2.3.4"); err != nil {
		t.Fatal(err)
	}
	if b, _ := blocked(t, l, "admin", "1.2.3.4"); b {
		t.Fatal("reset did not clear")
	}
}

// One wrong password tried on many names from one address: each name fails once, yet the
// address is refused after AddrMax failures, for every name.
func testLimiterSpraying(t *testing.T, db *store.DB) {
	now := time.Unix(2_000_000, 0)
	l := NewLimiter(db)
	l.Now = func() time.Time { return now }
	for i := 0; i < l.AddrMax; i++ {
		if b, _ := blocked(t, l, fmt.Sprintf("user%d", i), "198.51.100.9"); b {
			t.Fatalf("address refused after %d failures", i)
		}
		fail(t, l, fmt.Sprintf("user%d", i), "198.51.100.9")
		now = now.Add(time.Second)
	}
	b, wait := blocked(t, l, "someone-new", "198.51.100.9")
	if !b || wait <= 0 || wait > l.Window {
		t.Fatalf("spraying address: blocked=%v wait=%v", b, wait)
	}
	if b, _ := blocked(t, l, "someone-new", "198.51.100.10"); b {
		t.Fatal("a different address is refused")
	}
	now = now.Add(l.Window)
	if b, _ := blocked(t, l, "someone-new", "198.51.100.9"); b {
		t.Fatal("still refused after the window")
	}
	// old failures are dropped by the next failure
	fail(t, l, "x", "198.51.100.11")
	var n int
	if err := db.QueryRow(context.Background(), "SELECT COUNT(*) FROM login_failures WHERE at < ?", now.Add(-l.Window).UnixMilli()).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d failures older than the window kept", n)
	}
}
