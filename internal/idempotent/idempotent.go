// Package idempotent makes a write safe to send twice: a client names each write with an
// Idempotency-Key header (a phone's offline queue sends its queued actions again until one
// answer arrives), and a repeated key answers as the first request did and changes nothing.
//
// The first request claims the key; the write marks it applied inside its own transaction
// (Applied), so "the write happened" and "the key was used" commit together; the answer is
// then kept. A repeat finds the kept answer, or, when the server stopped between the write and
// keeping its answer, answers the present state of the object the write named (Replay). A
// request that failed before applying releases its key, so it may be sent again. A key is
// kept for RetainFor.
package idempotent

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Header is the request header that names a write.
const Header = "Idempotency-Key"

// The rules of keys.
const (
	// RetainFor is how long a used key answers as the first time.
	RetainFor = 7 * 24 * time.Hour
	// staleAfter: a key claimed this long ago by a request that never applied it (the server
	// stopped) may be claimed again.
	staleAfter = time.Minute
)

// keyRe is a key's shape: 8 to 100 letters, digits and . _ : - (a UUID fits).
var keyRe = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,100}$`)

// Replay answers a repeated key whose write was applied but whose answer was not kept: the
// present state of the object the write made or changed.
type Replay func(r *http.Request, ref int64) (any, error)

// Keys keeps the keys.
type Keys struct {
	DB  *store.DB
	Now func() time.Time
}

func (k *Keys) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

type ctxKey struct{}

// claim is the key of the request under way.
type claim struct {
	user    int64
	key     string
	applied bool
}

// Applied records, in the write's transaction, that the request's key took effect on the
// object ref (the order made or changed). Without a key it does nothing.
func Applied(ctx context.Context, tx *store.Tx, ref int64) error {
	c, ok := ctx.Value(ctxKey{}).(*claim)
	if !ok {
		return nil
	}
	if _, err := tx.Exec(ctx, "UPDATE idempotency_keys SET state = 'applied', ref_id = ? WHERE user_id = ? AND idem_key = ? AND state = 'running'",
		ref, c.user, c.key); err != nil {
		return fmt.Errorf("idempotent: unable to mark a key applied: %w", err)
	}
	c.applied = true
	return nil
}

// Wrap makes a write handler idempotent for requests that carry a key; others run as they
// are. replay answers a repeat whose answer was not kept.
func (k *Keys) Wrap(h func(*http.Request) (any, error), replay Replay) func(*http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		key := r.Header.Get(Header)
		if key == "" {
			return h(r)
		}
		if !keyRe.MatchString(key) {
			return nil, httpapi.InvalidField(Header, "idempotency_key_invalid")
		}
		p := httpapi.Caller(r)
		request := r.Method + " " + r.URL.Path
		ctx := r.Context()
		first, err := k.claim(ctx, p.UserID, key, request)
		if err != nil {
			return nil, err
		}
		if first == nil { // a repeat: its answer
			return k.repeat(r, p.UserID, key, request, replay)
		}
		r = r.WithContext(context.WithValue(ctx, ctxKey{}, first))
		data, herr := h(r)
		if !first.applied {
			// nothing was written (or the write forgot to say so): keep the answer of a success,
			// release the key after a failure so that the request may be sent again
			if herr != nil {
				_, _ = k.DB.Exec(ctx, "DELETE FROM idempotency_keys WHERE user_id = ? AND idem_key = ? AND state = 'running'", p.UserID, key)
				return nil, herr
			}
		}
		if herr != nil {
			return nil, herr // applied: a repeat answers the object's state
		}
		if b, err := json.Marshal(data); err == nil {
			_, _ = k.DB.Exec(ctx, "UPDATE idempotency_keys SET state = 'done', response = ?, updated_at = ? WHERE user_id = ? AND idem_key = ?",
				string(b), k.now().UnixMilli(), p.UserID, key)
		}
		return data, nil
	}
}

// claim takes the key for this request and returns it, or nil when the key was used before
// (or is in use).
func (k *Keys) claim(ctx context.Context, user int64, key, request string) (*claim, error) {
	now := k.now().UnixMilli()
	_, err := k.DB.Exec(ctx, `INSERT INTO idempotency_keys (user_id, idem_key, request, state, created_at, updated_at)
		VALUES (?, ?, ?, 'running', ?, ?)`, user, key, request, now, now)
	if err == nil {
		if now%64 == 0 { // now and then, forget keys past their time
			_, _ = k.DB.Exec(ctx, "DELETE FROM idempotency_keys WHERE created_at < ?", now-RetainFor.Milliseconds())
		}
		return &claim{user: user, key: key}, nil
	}
	if !store.IsUniqueViolation(err) {
		return nil, httpapi.Internal(fmt.Errorf("idempotent: unable to claim a key: %w", err))
	}
	// used before; a claim left by a request that stopped before applying is taken over
	res, err := k.DB.Exec(ctx, `UPDATE idempotency_keys SET updated_at = ? WHERE user_id = ? AND idem_key = ? AND request = ?
		AND state = 'running' AND updated_at < ?`, now, user, key, request, now-staleAfter.Milliseconds())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return &claim{user: user, key: key}, nil
	}
	return nil, nil
}

// repeat answers a key used before: the kept answer, or the object's state.
func (k *Keys) repeat(r *http.Request, user int64, key, request string, replay Replay) (any, error) {
	var was, state, response string
	var ref int64
	err := k.DB.QueryRow(r.Context(), "SELECT request, state, ref_id, response FROM idempotency_keys WHERE user_id = ? AND idem_key = ?",
		user, key).Scan(&was, &state, &ref, &response)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpapi.Conflict("idempotency_in_progress") // released meanwhile: send it again
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	switch {
	case was != request:
		return nil, httpapi.InvalidField(Header, "idempotency_key_reused")
	case state == "done":
		return json.RawMessage(response), nil
	case state == "applied":
		return replay(r, ref)
	}
	return nil, httpapi.Conflict("idempotency_in_progress")
}
