package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestRunExclusiveOnOneReplicaAtATime(t *testing.T) {
	store.ExclusiveRetry = 50 * time.Millisecond
	schema := storetest.NewSchemaName()
	a := storetest.PostgresSchema(t, schema)
	b, err := store.Open(context.Background(), "", storetest.SchemaURL(schema)) // a second replica
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var running, maxRunning, runs atomic.Int32
	job := func(replica string, ran *atomic.Int32) func(ctx context.Context) {
		return func(ctx context.Context) {
			n := running.Add(1)
			for {
				m := maxRunning.Load()
				if n <= m || maxRunning.CompareAndSwap(m, n) {
					break
				}
			}
			runs.Add(1)
			ran.Add(1)
			<-ctx.Done()
			running.Add(-1)
		}
	}
	var ranA, ranB atomic.Int32
	ctxA, stopA := context.WithCancel(context.Background())
	ctxB, stopB := context.WithCancel(context.Background())
	defer stopB()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.RunExclusive(ctxA, "simulator", job("a", &ranA)) }()
	time.Sleep(200 * time.Millisecond)
	go func() { defer wg.Done(); b.RunExclusive(ctxB, "simulator", job("b", &ranB)) }()
	time.Sleep(300 * time.Millisecond)
	if ranA.Load() != 1 || ranB.Load() != 0 {
		t.Fatalf("while a holds the lock: a ran %d, b ran %d", ranA.Load(), ranB.Load())
	}
	// a stops: b takes over
	stopA()
	deadline := time.Now().Add(5 * time.Second)
	for ranB.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if ranB.Load() != 1 {
		t.Fatal("the second replica did not take over the job")
	}
	if maxRunning.Load() != 1 {
		t.Fatalf("%d replicas ran the job at once", maxRunning.Load())
	}
	// another job name is not blocked by this one
	other := make(chan struct{})
	ctxC, stopC := context.WithCancel(context.Background())
	go a.RunExclusive(ctxC, "alarm-sweeper", func(ctx context.Context) { close(other); <-ctx.Done() })
	select {
	case <-other:
	case <-time.After(3 * time.Second):
		t.Fatal("a job under another name waited for this one's lock")
	}
	stopC()
	stopB()
	wg.Wait()
}

func TestRunExclusiveOnSQLiteJustRuns(t *testing.T) {
	db := storetest.SQLite(t)
	ran := false
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db.RunExclusive(ctx, "simulator", func(context.Context) { ran = true })
	if !ran {
		t.Fatal("on SQLite the job runs at once")
	}
}
