package telemetry

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestBatcherHalves holds the writer on a first batch while more submissions queue: with
// Halves it then writes the older half of them and the rest after, without it all of
// them at once; every submission is committed either way.
func TestBatcherHalves(t *testing.T) {
	for _, halves := range []bool{false, true} {
		db := storetest.SQLite(t)
		ctx := context.Background()
		f := newFixture(t, db)
		w := NewWriter(db, Options{})
		var mu sync.Mutex
		var sizes []int // samples per committed write
		w.OnChange(func(c Change) {
			mu.Lock()
			sizes = append(sizes, len(c.Latest))
			mu.Unlock()
		})
		// hold SQLite's write lock: the writer's first batch waits for it
		release, held, lockDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			lockDone <- db.InTx(ctx, func(tx *store.Tx) error {
				if _, err := tx.Exec(ctx, "UPDATE devices SET name = name WHERE id = ?", f.inv1); err != nil {
					return err
				}
				close(held)
				<-release
				return nil
			})
		}()
		<-held
		b := w.NewBatcher("test", BatchOptions{Halves: halves})
		var wg sync.WaitGroup
		now := time.Now().Truncate(time.Second)
		devs := []int64{f.inv1, f.inv2, f.meter, f.pack, f.inv1}
		for i, id := range devs {
			wg.Add(1)
			b.Add([]Sample{{DeviceID: id, Time: now.Add(time.Duration(i-10) * time.Second), EnergyKWh: float64(i)}}, func(r Result, err error) {
				defer wg.Done()
				if err != nil || r.Accepted != 1 {
					t.Errorf("%+v, %v", r, err)
				}
			})
			if i == 0 {
				time.Sleep(50 * time.Millisecond) // the first batch goes to the writer alone
			}
		}
		time.Sleep(100 * time.Millisecond) // the other four wait
		close(release)
		if err := <-lockDone; err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		b.Close()
		mu.Lock()
		got := append([]int(nil), sizes...)
		mu.Unlock()
		// devices per write: the first alone, then the four waiting together, or halved at
		// every take (two, then one of the two left, then the last)
		want := []int{1, 4}
		if halves {
			want = []int{1, 2, 1, 1}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("halves %v: latest rows per write %v, want %v", halves, got, want)
		}
	}
}
