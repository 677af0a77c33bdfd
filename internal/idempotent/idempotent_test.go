package idempotent_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// rig is a write handler that inserts a comment row (marking the key applied in its
// transaction) and answers the comments' count, wrapped by Keys.
type rig struct {
	db    *store.DB
	user  int64
	keys  *idempotent.Keys
	fail  error // answered before writing, when set
	crash bool  // the answer is lost after the write (the server stopped)
	calls int
}

func (g *rig) handler() func(*http.Request) (any, error) {
	return g.keys.Wrap(func(r *http.Request) (any, error) {
		g.calls++
		if g.fail != nil {
			return nil, g.fail
		}
		err := g.db.InTx(r.Context(), func(tx *store.Tx) error {
			if _, err := tx.Exec(r.Context(), "INSERT INTO idem_probe (n) VALUES (1)"); err != nil {
				return err
			}
			return idempotent.Applied(r.Context(), tx, 42)
		})
		if err != nil {
			return nil, err
		}
		if g.crash {
			return nil, httpapi.Internal(context.Canceled)
		}
		return map[string]int{"rows": g.rows(r.Context())}, nil
	}, func(r *http.Request, ref int64) (any, error) {
		return map[string]any{"replayed": ref}, nil
	})
}

func (g *rig) rows(ctx context.Context) int {
	var n int
	_ = g.db.QueryRow(ctx, "SELECT COUNT(*) FROM idem_probe").Scan(&n)
	return n
}

// call sends one request with a key (none: "") on a path, as the rig's user.
func (g *rig) call(t *testing.T, path, key string) (string, int) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, nil)
	if key != "" {
		req.Header.Set(idempotent.Header, key)
	}
	req = req.WithContext(httpapi.WithPrincipal(req.Context(), &httpapi.Principal{UserID: g.user}))
	data, err := g.handler()(req)
	if err != nil {
		return "", httpapi.AsError(err).Status
	}
	b, _ := json.Marshal(data)
	return string(b), 200
}

func TestIdempotencyKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, "CREATE TABLE idem_probe (n INTEGER)"); err != nil {
			t.Fatal(err)
		}
		c := &clock{t: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)}
		g := &rig{db: db, user: acc.OperatorID, keys: &idempotent.Keys{DB: db, Now: c.Now}}

		// without a key every request writes
		g.call(t, "/v2/x/1", "")
		g.call(t, "/v2/x/1", "")
		if n := g.rows(ctx); n != 2 {
			t.Fatalf("without keys: %d rows, want 2", n)
		}
		// a key: the first writes, the repeat answers the first answer and writes nothing
		first, st := g.call(t, "/v2/x/1", "offline-0001")
		again, st2 := g.call(t, "/v2/x/1", "offline-0001")
		if st != 200 || st2 != 200 || first != again || first != `{"rows":3}` {
			t.Fatalf("repeat: %d %s, then %d %s; want the same {\"rows\":3} twice", st, first, st2, again)
		}
		if n, calls := g.rows(ctx), g.calls; n != 3 || calls != 3 {
			t.Fatalf("repeat: %d rows after %d handler calls, want 3 and 3", n, calls)
		}
		// bad keys and a key used for another request are refused, naming the header
		for _, k := range []string{"short", "has space inside", string(make([]byte, 101))} {
			if _, st := g.call(t, "/v2/x/1", k); st != 400 {
				t.Fatalf("key %q: %d, want 400", k, st)
			}
		}
		if _, st := g.call(t, "/v2/x/2", "offline-0001"); st != 400 {
			t.Fatalf("a key reused on another path: %d, want 400", st)
		}
		// a request refused before writing releases its key: sent again, it runs
		g.fail = httpapi.Conflict("wo_not_from")
		if _, st := g.call(t, "/v2/x/1", "offline-0002"); st != 409 {
			t.Fatalf("failing request: %d, want 409", st)
		}
		g.fail = nil
		if out, st := g.call(t, "/v2/x/1", "offline-0002"); st != 200 || out != `{"rows":4}` {
			t.Fatalf("after a refusal the same key: %d %s, want 200 {\"rows\":4}", st, out)
		}
		// the write committed but its answer was lost: the repeat answers the object's state
		g.crash = true
		if _, st := g.call(t, "/v2/x/1", "offline-0003"); st != 500 {
			t.Fatalf("crashing request: %d, want 500", st)
		}
		g.crash = false
		if out, st := g.call(t, "/v2/x/1", "offline-0003"); st != 200 || out != `{"replayed":42}` {
			t.Fatalf("after a lost answer: %d %s, want the replay of object 42", st, out)
		}
		if n := g.rows(ctx); n != 5 {
			t.Fatalf("after the lost answer: %d rows, want 5 (written once)", n)
		}
		// a claim left by a request that stopped before writing: in progress for a minute,
		// then taken over
		if _, err := db.Exec(ctx, `INSERT INTO idempotency_keys (user_id, idem_key, request, state, created_at, updated_at)
			VALUES (?, 'offline-0004', 'POST /v2/x/1', 'running', ?, ?)`, acc.OperatorID, c.Now().UnixMilli(), c.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if _, st := g.call(t, "/v2/x/1", "offline-0004"); st != 409 {
			t.Fatalf("a key in use: %d, want 409", st)
		}
		c.Add(2 * time.Minute)
		if out, st := g.call(t, "/v2/x/1", "offline-0004"); st != 200 || out != `{"rows":6}` {
			t.Fatalf("a stale claim: %d %s, want it taken over and written", st, out)
		}
		// keys are the user's own: another user's same key is a new request
		g.user = acc.AdminID
		if out, st := g.call(t, "/v2/x/1", "offline-0001"); st != 200 || out != `{"rows":7}` {
			t.Fatalf("another user's key: %d %s, want a write of its own", st, out)
		}
	})
}
