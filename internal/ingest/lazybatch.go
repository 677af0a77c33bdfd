package ingest

import (
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// lazyBatcher is a request door's batcher (JSON over HTTP, line protocol): made on first
// use, so a service that never takes a request starts no goroutine, and closed at
// shutdown after the HTTP server has stopped, writing what is pending.
type lazyBatcher struct {
	once  sync.Once
	batch *telemetry.Batcher
}

func (l *lazyBatcher) get(w *telemetry.Writer, door string) *telemetry.Batcher {
	l.once.Do(func() { l.batch = w.NewBatcher(door, telemetry.BatchOptions{Linger: time.Millisecond}) })
	return l.batch
}

func (l *lazyBatcher) close() {
	l.once.Do(func() {})
	if l.batch != nil {
		l.batch.Close()
	}
}
