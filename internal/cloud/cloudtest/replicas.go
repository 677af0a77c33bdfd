package cloudtest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TwoReplicasOneSyncs runs two replicas' workers on one PostgreSQL schema, each under the
// cluster lock: the one holding it syncs, the other makes no round until the first stops,
// then takes over. newRig builds the connection on the first replica's database; readings
// counts a device's stored readings; complete checks, at the end, that everything the
// stand-in holds is in.
func TwoReplicasOneSyncs(t *testing.T, newRig func(db *store.DB) *Rig, readings func(deviceID int64) int64, complete func()) {
	schema := storetest.NewSchemaName()
	db1 := storetest.PostgresSchema(t, schema)
	db2 := storetest.PostgresSchema(t, schema)
	defer func(d time.Duration) { store.ExclusiveRetry = d }(store.ExclusiveRetry)
	store.ExclusiveRetry = 50 * time.Millisecond

	r := newRig(db1)
	r.Follow(r.Worker())
	var rounds [2]atomic.Int32
	replica := func(i int, db *store.DB) context.CancelFunc {
		w := r.WorkerOn(db)
		w.Poll = 20 * time.Millisecond
		v := r.Vendor
		v.New = func(credentials string, d cloud.Deps) cloud.Connector {
			rounds[i].Add(1)
			return r.Vendor.New(credentials, d)
		}
		w.Vendors = map[string]cloud.Vendor{v.Name: v}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); db.RunExclusive(ctx, "cloud-sync", w.Run) }()
		return func() { cancel(); <-done }
	}
	stop1 := replica(0, db1)
	time.Sleep(100 * time.Millisecond) // the first takes the lock
	stop2 := replica(1, db2)
	defer stop2()
	waitFor(t, func() bool { return r.Get().State == cloud.StateLive })
	// more rounds made due while both run
	for range 3 {
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		waitFor(t, func() bool { return r.Get().LastSync.Equal(r.Clk.Now()) })
	}
	if rounds[0].Load() == 0 || rounds[1].Load() != 0 {
		t.Fatalf("rounds: first replica %d, second %d", rounds[0].Load(), rounds[1].Load())
	}
	device := r.Devices()[0]
	n0 := readings(device)
	stop1() // the first replica stops: the second takes over
	r.Clk.Set(r.Clk.Now().Add(time.Hour))
	waitFor(t, func() bool { return r.Get().LastSync.Equal(r.Clk.Now()) })
	if rounds[1].Load() == 0 {
		t.Fatal("the second replica did not take over")
	}
	if n := readings(device); n <= n0 {
		t.Fatalf("%d readings after the takeover, %d before", n, n0)
	}
	complete()
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
