package notify

import (
	"context"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// What every channel records of an attempt: the attempt in notify_attempts and the
// delivery's new state, together.

// settle ends the deliveries: sent (reason "") or failed, logging an attempt when one was
// made (status > 0). A summary push settles thousands at once: a few hundred rows per
// statement.
func (w *Worker) settle(ctx context.Context, list []Delivery, reason string, status int, took time.Duration) error {
	state := "sent"
	if reason != "" {
		state = "failed"
	}
	now := w.now().UnixMilli()
	at := now - took.Milliseconds() // when the attempt began
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for start := 0; start < len(list); start += 200 {
			chunk := list[start:min(start+200, len(list))]
			ids := make([]any, 0, len(chunk)+5)
			ids = append(ids, state, min(status, 1), now, now, reason)
			for _, d := range chunk {
				ids = append(ids, d.ID)
			}
			if status > 0 {
				args := make([]any, 0, 5*len(chunk))
				for _, d := range chunk {
					args = append(args, d.ID, d.Attempts+1, at, status, took.Milliseconds())
				}
				if _, err := tx.Exec(ctx, "INSERT INTO notify_attempts (outbox_id, attempt, at, status, duration_ms, error) VALUES "+
					strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ''), ", len(chunk)), ", "), args...); err != nil {
					return err
				}
			}
			// (state || '': the rows by their ids, not by scanning every pending one in
			// notify_outbox_due, which SQLite would choose for an IN list)
			if _, err := tx.Exec(ctx, `UPDATE notify_outbox SET state = ?, attempts = attempts + ?, done_at = ?, next_at = ?, last_error = ?
				WHERE id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")+") AND state || '' = 'pending'", ids...); err != nil {
				return err
			}
		}
		return nil
	})
}

// retry logs a failed attempt of the deliveries (status: the receiver's answer, 0 when none
// came) and sets their next one, or gives them up past RetryFor.
func (w *Worker) retry(ctx context.Context, list []Delivery, cause error, status int, start time.Time, took time.Duration) error {
	text := cause.Error()
	if len(text) > 500 {
		text = text[:500]
	}
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, d := range list {
			n := d.Attempts + 1
			state, next, done := "pending", start.Add(Backoff(n)).UnixMilli(), int64(0)
			if next > d.CreatedAt+RetryFor.Milliseconds() {
				state, next, done = "failed", start.UnixMilli(), start.UnixMilli()
			}
			if _, err := tx.Exec(ctx, `INSERT INTO notify_attempts (outbox_id, attempt, at, status, duration_ms, error) VALUES (?, ?, ?, ?, ?, ?)`,
				d.ID, n, start.UnixMilli(), status, took.Milliseconds(), text); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE notify_outbox SET state = ?, attempts = ?, next_at = ?, done_at = ?, last_error = ? WHERE id = ?",
				state, n, next, done, text, d.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// putOff is a user whose deliveries of a channel wait until at (unix ms).
type putOff struct {
	user, at int64
}

// putOff makes the users' pending deliveries of channel due no sooner than their time, in one
// transaction; the deliveries already due later are not written.
func (w *Worker) putOff(ctx context.Context, channel string, list []putOff) error {
	if len(list) == 0 {
		return nil
	}
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, p := range list {
			// (next_at + 0: the user's rows are found by notify_outbox_target, not by
			// scanning every pending delivery in notify_outbox_due)
			if _, err := tx.Exec(ctx, "UPDATE notify_outbox SET next_at = ? WHERE channel = ? AND target_id = ? AND state = 'pending' AND next_at + 0 < ?",
				p.at, channel, p.user, p.at); err != nil {
				return err
			}
		}
		return nil
	})
}
