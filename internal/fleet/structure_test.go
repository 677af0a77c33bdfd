package fleet

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// A call made after a change has been reported sees it, even while other readers are
// re-reading the membership: a reader that finds a re-read under way which began before
// the change waits for one that began after it (an operator granted a department a
// station, and its new user's first figures showed none).
func TestAReportedChangeIsSeenWhileOthersReload(t *testing.T) {
	db := storetest.SQLite(t)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := newRig(t, db, start)
	ctx := context.Background()
	if err := r.s.Build(ctx); err != nil {
		t.Fatal(err)
	}
	dept := insert(t, db, "INSERT INTO departments (org_id, name, created_at) VALUES (?, ?, ?)", r.org, "Crew", start.UnixMilli())
	admin := &httpapi.Principal{OrgID: r.org, Role: "admin", StationAuthority: "all"}
	crew := &httpapi.Principal{OrgID: r.org, DeptID: dept, Role: "operator", StationAuthority: "authorized"}

	// other callers keep reading, and so keep starting re-reads of the membership
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := r.s.Visible(ctx, admin); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()

	sees := func(id int64) bool {
		list, err := r.s.Visible(ctx, crew)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range list {
			if st.ID == id {
				return true
			}
		}
		return false
	}
	stale := 0
	for i := range 300 {
		id := r.stations[i%len(r.stations)]
		if _, err := db.Exec(ctx, "INSERT INTO station_grants (station_id, dept_id) VALUES (?, ?)", id, dept); err != nil {
			t.Fatal(err)
		}
		r.s.Changed()
		if !sees(id) {
			stale++
		}
		if _, err := db.Exec(ctx, "DELETE FROM station_grants WHERE station_id = ? AND dept_id = ?", id, dept); err != nil {
			t.Fatal(err)
		}
		r.s.Changed()
		if sees(id) {
			stale++
		}
	}
	if stale > 0 {
		t.Fatalf("%d of 600 calls made after a reported change did not see it", stale)
	}
}
