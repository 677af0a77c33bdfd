package fleet

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Build reads the whole state from the database (start-up, a back-fill, or a replica
// catching up) beside the live one, which goes on taking changes and answering. Its
// figures are read in one snapshot (store.Snapshot), taken while this process's writes are
// held back for an instant (Writer.Exclusive): a change told before it is in what is read,
// and the changes told after it are kept (pending) and applied to the new state once it
// replaces the old one. A change from another replica received after the snapshot is
// applied unless the snapshot already holds its transaction (Change.Xid; without one, on
// SQLite, it is applied).
func (s *State) Build(ctx context.Context) error {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	seen := s.changes.Load() // every change before here is in what is read below
	var snap *store.Tx
	var sees func(xid uint64) bool
	err := s.writer.Exclusive(func() error {
		s.mu.Lock()
		s.pending = &pendingChanges{}
		s.mu.Unlock()
		var err error
		snap, sees, err = s.snapshot(ctx)
		return err
	})
	if err == nil && s.afterSnap != nil {
		s.afterSnap()
	}
	if err == nil {
		err = s.load(ctx, snap, sees, seen)
	}
	if snap != nil {
		_ = snap.Rollback()
	}
	if err != nil {
		s.mu.Lock()
		s.pending = nil
		s.mu.Unlock()
	}
	if err == nil {
		err = s.loadAlarms(ctx)
	}
	if err != nil {
		return fmt.Errorf("fleet: unable to build the state: %w", err)
	}
	reads.Inc("build")
	buildSeconds.Set(time.Since(start).Seconds())
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	heapBytes.Store(max(after.HeapAlloc, before.HeapAlloc) - before.HeapAlloc)
	return nil
}

// snapshot begins the build's read transaction and takes its snapshot (its first read),
// and says which committed transactions it holds.
func (s *State) snapshot(ctx context.Context) (*store.Tx, func(xid uint64) bool, error) {
	tx, err := s.db.Snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	if s.db.Dialect != store.Postgres {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM telemetry_latest LIMIT 1) x").Scan(&n); err != nil {
			_ = tx.Rollback()
			return nil, nil, err
		}
		return tx, func(uint64) bool { return false }, nil
	}
	var text string
	if err := tx.QueryRow(ctx, "SELECT CAST(pg_current_snapshot() AS TEXT)").Scan(&text); err != nil {
		_ = tx.Rollback()
		return nil, nil, err
	}
	sn, err := telemetry.ParseSnapshot(text)
	if err != nil {
		_ = tx.Rollback()
		return nil, nil, err
	}
	return tx, sn.Sees, nil
}

// load reads the figures through snap, the membership, and puts them in place of the
// live state's with the changes kept meanwhile.
func (s *State) load(ctx context.Context, snap *store.Tx, sees func(uint64) bool, seen uint64) error {
	now := s.now()
	st, dev, err := loadFigures(ctx, s.db, snap, now)
	if err != nil {
		return err
	}
	mark, err := structureMark(ctx, s.db)
	if err != nil {
		return err
	}
	str, err := loadStructure(ctx, s.db)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setStructure(str)
	for _, f := range st {
		f.past = s.pastSeq.Add(1)
	}
	s.st, s.dev, s.loadedAt, s.built = st, dev, time.Now(), true
	s.readAt, s.mark = s.loadedAt, mark
	s.builtAt = s.loadedAt
	s.link()
	p := s.pending
	s.pending = nil
	for _, k := range p.list {
		if k.remote && k.c.Xid != 0 && sees(k.c.Xid) {
			continue // read with the rest
		}
		s.applyLocked(k.c)
	}
	if p.overflow {
		s.rebuild.Store(true) // too many to keep: read again
	}
	s.markLoaded(seen)
	return nil
}

// pendingChanges are the changes told while a build reads (Build), at most maxPending.
type pendingChanges struct {
	list     []pendingChange
	overflow bool
}

type pendingChange struct {
	c      telemetry.Change
	remote bool
}

// maxPending bounds the changes a build keeps: at 10,000 stations a build takes about
// 30 s of a core, in which some 2,000 changes arrive.
const maxPending = 200_000

func (p *pendingChanges) keep(c telemetry.Change, remote bool) {
	if len(p.list) >= maxPending {
		p.overflow, p.list = true, nil
	}
	if !p.overflow {
		p.list = append(p.list, pendingChange{c, remote})
	}
}
