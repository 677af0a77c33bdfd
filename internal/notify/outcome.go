package notify

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// What every channel records of an attempt: the attempt in notify_attempts and the
// delivery's new state, together.

// settle ends the deliveries: sent (reason "") or failed, logging an attempt when one was
// made (status > 0).
func (w *Worker) settle(ctx context.Context, list []Delivery, reason string, status int, took time.Duration) error {
	state := "sent"
	if reason != "" {
		state = "failed"
	}
	now := w.now().UnixMilli()
	at := now - took.Milliseconds() // when the attempt began
	return w.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, d := range list {
			if status > 0 {
				if _, err := tx.Exec(ctx, `INSERT INTO notify_attempts (outbox_id, attempt, at, status, duration_ms, error) VALUES (?, ?, ?, ?, ?, '')`,
					d.ID, d.Attempts+1, at, status, took.Milliseconds()); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `UPDATE notify_outbox SET state = ?, attempts = attempts + ?, done_at = ?, next_at = ?, last_error = ?
				WHERE id = ? AND state = 'pending'`, state, min(status, 1), now, now, reason, d.ID); err != nil {
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
