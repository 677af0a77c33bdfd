package scada

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store/storetest"
)

// On a replica that does not poll, the states read again every CommTTL keep their
// generation while they are the same (every figure kept on the generation would be
// computed again), and take a new one when a state changes.
func TestCommStatesGenerationFollowsChanges(t *testing.T) {
	db := storetest.SQLite(t)
	_, devs := fieldFleet(t, db)
	ctx := context.Background()
	s := quickService(db, &collector{})
	set := func(dev int64, state string) {
		t.Helper()
		if _, err := db.Exec(ctx, `INSERT INTO scada_status (device_id, state, body, updated_at) VALUES (?, ?, '{}', ?)
			ON CONFLICT (device_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`, dev, state, time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	after := func() (map[int64]string, uint64) {
		time.Sleep(s.CommTTL + 20*time.Millisecond)
		return s.CommStates()
	}
	m0, g0 := s.CommStates()
	if len(m0) != 0 || g0 == 0 {
		t.Fatalf("no statuses yet: %v, generation %d", m0, g0)
	}
	if _, g := after(); g != g0 {
		t.Fatalf("nothing stored changed, generation %d then %d", g0, g)
	}
	set(devs[0], StateOnline)
	m1, g1 := after()
	if m1[devs[0]] != StateOnline || g1 == g0 {
		t.Fatalf("a state stored: %v, generation %d then %d", m1, g0, g1)
	}
	set(devs[0], StateOnline) // written again, the same state
	if _, g := after(); g != g1 {
		t.Fatalf("the same state written again, generation %d then %d", g1, g)
	}
	set(devs[0], StateOffline)
	m2, g2 := after()
	if m2[devs[0]] != StateOffline || g2 == g1 {
		t.Fatalf("a state changed: %v, generation %d then %d", m2, g1, g2)
	}
	set(devs[1], StateOnline)
	if m3, g3 := after(); len(m3) != 2 || g3 == g2 {
		t.Fatalf("a device added: %v, generation %d then %d", m3, g2, g3)
	}
}
