package solaredge_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Two replicas on one PostgreSQL database: the one holding the lock syncs, the other
// waits, and takes over when the first stops.
func TestTwoReplicasOneSyncs(t *testing.T) {
	schema := storetest.NewSchemaName()
	db1 := storetest.PostgresSchema(t, schema)
	db2 := storetest.PostgresSchema(t, schema)
	defer func(d time.Duration) { store.ExclusiveRetry = d }(store.ExclusiveRetry)
	store.ExclusiveRetry = 50 * time.Millisecond

	r := newRig(t, db1, 3, 300)
	r.Follow(r.Worker())
	var rounds [2]atomic.Int32
	replica := func(i int, db *store.DB) (*cloud.Worker, context.CancelFunc) {
		w := r.WorkerOn(db)
		w.Poll = 20 * time.Millisecond
		w.Vendors = map[string]cloud.Vendor{"solaredge": {Name: "solaredge", DefaultBudget: 300,
			New: func(key string, d cloud.Deps) cloud.Connector {
				rounds[i].Add(1)
				return solaredge.New(key, d.BaseURL, d.HTTP, d.Count)
			}}}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); db.RunExclusive(ctx, "cloud-sync", w.Run) }()
		return w, func() { cancel(); <-done }
	}
	_, stop1 := replica(0, db1)
	time.Sleep(100 * time.Millisecond) // the first takes the lock
	_, stop2 := replica(1, db2)
	defer stop2()
	waitFor(t, func() bool { return r.Get().State == cloud.StateLive })
	// more rounds made due while both run
	for i := 0; i < 3; i++ {
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		waitFor(t, func() bool { return r.Get().LastSync.Equal(r.Clk.Now()) })
	}
	if rounds[0].Load() == 0 || rounds[1].Load() != 0 {
		t.Fatalf("rounds: first replica %d, second %d", rounds[0].Load(), rounds[1].Load())
	}
	want := r.want()
	stop1() // the first replica stops: the second takes over
	r.Clk.Set(r.Clk.Now().Add(time.Hour))
	waitFor(t, func() bool { return r.Get().LastSync.Equal(r.Clk.Now()) })
	if rounds[1].Load() == 0 {
		t.Fatal("the second replica did not take over")
	}
	if n, _ := r.stored(r.Devices()[0]); n != r.want() || n <= want {
		t.Fatalf("%d readings, want %d", n, r.want())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("timed out")
}
