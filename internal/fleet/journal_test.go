package fleet

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Every station whose version moved, and every parent of a station whose alarms changed,
// is named by ChangedSince; the membership read again, or a reader too far behind, is
// told to compute everything again.
func TestChangedSinceNamesEveryChange(t *testing.T) {
	db := storetest.SQLite(t)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := newRig(t, db, start)
	ctx := context.Background()
	if err := r.s.Build(ctx); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	if _, ok, err := r.s.ChangedSince(ctx, Mark{}, func(int64) {}); err != nil || ok {
		t.Fatalf("the zero mark: ok %v, err %v; want every station", ok, err)
	}
	mark, _, _ := r.s.ChangedSince(ctx, Mark{}, func(int64) {})
	vers := make([]uint64, len(r.stations))
	if _, err := r.s.Versions(ctx, r.stations, vers); err != nil {
		t.Fatal(err)
	}
	parent := map[int64]int64{}
	rows, err := db.Query(ctx, "SELECT id, COALESCE(parent_id, 0) FROM stations")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, p int64
		if err := rows.Scan(&id, &p); err != nil {
			t.Fatal(err)
		}
		parent[id] = p
	}
	rows.Close()
	moved := 0
	for i := range 12 {
		r.step(t, rng)
		want := map[int64]bool{}
		if i%3 == 1 { // an alarm on a sub-station (or a station) names it and its parent
			st := r.stations[rng.IntN(len(r.stations))]
			r.s.ApplyAlarms([]AlarmChange{{Kind: AlarmOpened, ID: int64(1000 + i), Station: st, Start: r.now().UnixMilli(), Description: "x"}})
			want[st] = true
			if p := parent[st]; p != 0 {
				want[p] = true
			}
		}
		now := make([]uint64, len(r.stations))
		if _, err := r.s.Versions(ctx, r.stations, now); err != nil {
			t.Fatal(err)
		}
		for j, id := range r.stations {
			if now[j] != vers[j] {
				want[id] = true
				moved++
			}
		}
		vers = now
		named := map[int64]bool{}
		next, ok, err := r.s.ChangedSince(ctx, mark, func(id int64) { named[id] = true })
		if err != nil || !ok {
			t.Fatalf("round %d: ok %v, err %v", i, ok, err)
		}
		for id := range want {
			if !named[id] {
				t.Fatalf("round %d: station %d changed but was not named (named %v)", i, id, named)
			}
		}
		mark = next
		r.clock.Add(5 * time.Minute.Milliseconds())
	}
	if moved == 0 {
		t.Fatal("no version moved: the test compared nothing")
	}
	// nothing changed: nothing named
	if _, ok, _ := r.s.ChangedSince(ctx, mark, func(id int64) { t.Fatalf("station %d named with nothing changed", id) }); !ok {
		t.Fatal("nothing changed, yet told to compute everything")
	}
	// more changes than the journal holds
	r.s.mu.Lock()
	for i := range journalSize + 1 {
		r.s.j.add(int64(i))
	}
	r.s.mu.Unlock()
	if _, ok, _ := r.s.ChangedSince(ctx, mark, func(int64) {}); ok {
		t.Fatal("a reader further behind than the journal holds was not told to compute everything")
	}
	// the membership read again
	mark, _, _ = r.s.ChangedSince(ctx, Mark{}, func(int64) {})
	r.s.Changed()
	if _, ok, _ := r.s.ChangedSince(ctx, mark, func(int64) {}); ok {
		t.Fatal("the membership was read again, yet not told to compute everything")
	}
}

// The membership grown old is read again only when its fingerprint moved: unchanged, the
// state keeps its entries (and what readers keep from them); a station added, or a device
// moved, by SQL outside this process is read in on the next look; and a read is forced
// once structureReadEvery has passed whatever the fingerprint says.
func TestAgedMembershipReadOnlyWhenItMoved(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		r := newRig(t, db, start)
		ctx := context.Background()
		if err := r.s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		age := func(by time.Duration) {
			r.s.mu.Lock()
			r.s.loadedAt = r.s.loadedAt.Add(-by)
			r.s.readAt = r.s.readAt.Add(-by)
			r.s.mu.Unlock()
		}
		gen := func() uint64 {
			m, _, err := r.s.ChangedSince(ctx, Mark{}, func(int64) {})
			if err != nil {
				t.Fatal(err)
			}
			return m.gen
		}
		g0 := gen()
		age(StructureMaxAge + time.Second)
		if g := gen(); g != g0 {
			t.Fatal("an unchanged membership was read again")
		}
		// a device moved by hand: same counts, its station and update time changed
		dev := r.devices[0]
		if _, err := db.Exec(ctx, "UPDATE devices SET station_id = ?, updated_at = updated_at + 1 WHERE id = ?", r.stations[1], dev); err != nil {
			t.Fatal(err)
		}
		age(StructureMaxAge + time.Second)
		g1 := gen()
		if g1 == g0 {
			t.Fatal("a device moved by hand was not read in")
		}
		r.s.mu.RLock()
		moved := r.s.devices[dev].station
		r.s.mu.RUnlock()
		if moved != r.stations[1] {
			t.Fatalf("device %d under station %d, want %d", dev, moved, r.stations[1])
		}
		// a change the fingerprint cannot see is read in at the latest structureReadEvery on
		if _, err := db.Exec(ctx, "UPDATE stations SET name = 'Renamed' WHERE id = ?", r.stations[2]); err != nil {
			t.Fatal(err)
		}
		age(StructureMaxAge + time.Second)
		if gen() != g1 {
			t.Fatal("read again with nothing the fingerprint sees")
		}
		age(structureReadEvery)
		if gen() == g1 {
			t.Fatal("not read again after structureReadEvery")
		}
	})
}
