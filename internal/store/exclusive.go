package store

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// ExclusiveRetry is how often a replica that does not hold a job's lock tries to take it,
// and how often the holder checks that its lock (its connection) is still there.
var ExclusiveRetry = 5 * time.Second

// RunExclusive runs job on one replica at a time: the simulator, the alarm sweeps, retention.
// On PostgreSQL the replica that takes the advisory lock named by name (per schema) runs the
// job; the others wait and take over within ExclusiveRetry when it stops or loses its
// connection, in which case the job's context is cancelled. SQLite has one process, so the
// job just runs. RunExclusive returns when ctx ends.
func (db *DB) RunExclusive(ctx context.Context, name string, job func(ctx context.Context)) {
	if db.Dialect != Postgres {
		job(ctx)
		return
	}
	for ctx.Err() == nil {
		held, err := db.holdExclusive(ctx, name, job)
		if err != nil && ctx.Err() == nil {
			slog.Warn("exclusive job: lock unavailable", "job", name, "err", err)
		}
		if held && ctx.Err() == nil {
			slog.Info("exclusive job: lost its lock, trying to take it again", "job", name)
		}
		select {
		case <-ctx.Done():
		case <-time.After(ExclusiveRetry):
		}
	}
}

// holdExclusive takes the lock on a connection of its own and runs job while it holds it.
func (db *DB) holdExclusive(ctx context.Context, name string, job func(ctx context.Context)) (bool, error) {
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	var got bool
	const key = "hashtext(current_schema() || '/' || $1)"
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock("+key+")", name).Scan(&got); err != nil {
		return false, fmt.Errorf("store: advisory lock %s: %w", name, err)
	}
	if !got {
		return false, nil
	}
	slog.Info("exclusive job: running on this replica", "job", name)
	jobCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		job(jobCtx)
	}()
	t := time.NewTicker(ExclusiveRetry)
	defer t.Stop()
	for {
		select {
		case <-done:
			cancel()
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock("+key+")", name)
			return true, nil
		case <-t.C:
			// a lost connection means a lost lock: another replica may have it by now
			if err := conn.PingContext(ctx); err != nil {
				cancel()
				<-done
				return true, err
			}
		}
	}
}
