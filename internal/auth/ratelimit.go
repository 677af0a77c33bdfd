package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Limiter counts failed sign-ins in the database, so that every replica sharing it
// applies the same limits:
//
//   - one account from one client address: after Max failures within Window, that pair is
//     refused until the oldest of those failures leaves the window;
//   - any accounts from one client address (password spraying: one password tried on many
//     names): after AddrMax failures within Window, the address is refused the same way.
//
// A successful sign-in forgets the pair's failures, not the address's.
type Limiter struct {
	DB      *store.DB
	Max     int
	AddrMax int
	Window  time.Duration
	Now     func() time.Time
}

// NewLimiter returns the sign-in limiter: 5 failures per account and address, 20 per
// address, within 15 minutes.
func NewLimiter(db *store.DB) *Limiter {
	return &Limiter{DB: db, Max: 5, AddrMax: 20, Window: 15 * time.Minute}
}

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// pairKey and addrKey are stored hashed: names people type into the user field can be
// passwords, and hex is safe in any column.
func pairKey(username, client string) string {
	return "pair:" + HashToken(strings.ToLower(username)+"\x00"+client)
}

func addrKey(client string) string { return "addr:" + HashToken(client) }

// Blocked reports whether the pair (or the address as a whole) is refused and for how long.
func (l *Limiter) Blocked(ctx context.Context, username, client string) (bool, time.Duration, error) {
	now := l.now()
	wait := time.Duration(0)
	for _, c := range []struct {
		key string
		max int
	}{{pairKey(username, client), l.Max}, {addrKey(client), l.AddrMax}} {
		w, err := l.blockedFor(ctx, c.key, c.max, now)
		if err != nil {
			return false, 0, err
		}
		wait = max(wait, w)
	}
	return wait > 0, wait, nil
}

// blockedFor is how long key stays refused: 0 unless it has max failures in the window.
func (l *Limiter) blockedFor(ctx context.Context, key string, limit int, now time.Time) (time.Duration, error) {
	rows, err := l.DB.Query(ctx, `SELECT at FROM login_failures WHERE subject = ? AND at > ? ORDER BY at DESC LIMIT ?`,
		key, now.Add(-l.Window).UnixMilli(), limit)
	if err != nil {
		return 0, fmt.Errorf("auth: unable to read sign-in failures: %w", err)
	}
	defer rows.Close()
	var n int
	var oldest int64
	for rows.Next() {
		if err := rows.Scan(&oldest); err != nil {
			return 0, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if n < limit {
		return 0, nil
	}
	return l.Window - now.Sub(time.UnixMilli(oldest)), nil
}

// Fail records a failed attempt (for the pair and for the address) and drops failures
// that have left the window.
func (l *Limiter) Fail(ctx context.Context, username, client string) error {
	now := l.now()
	return l.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM login_failures WHERE at <= ?", now.Add(-l.Window).UnixMilli()); err != nil {
			return err
		}
		for _, k := range []string{pairKey(username, client), addrKey(client)} {
			if _, err := tx.Exec(ctx, "INSERT INTO login_failures (subject, at) VALUES (?, ?)", k, now.UnixMilli()); err != nil {
				return fmt.Errorf("auth: unable to record a sign-in failure: %w", err)
			}
		}
		return nil
	})
}

// Reset forgets the pair's failures after a successful sign-in.
func (l *Limiter) Reset(ctx context.Context, username, client string) error {
	_, err := l.DB.Exec(ctx, "DELETE FROM login_failures WHERE subject = ?", pairKey(username, client))
	return err
}
