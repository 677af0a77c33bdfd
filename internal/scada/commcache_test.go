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
	m, gen := s.CommStates()
	if len(m) != 0 || gen == 0 {
		t.Fatalf("no statuses yet: %v, generation %d", m, gen)
	}
	for _, step := range []struct {
		what   string
		dev    int64 // 0: nothing written
		state  string
		newGen bool
		n      int // states read
	}{
		{"nothing stored changed", 0, "", false, 0},
		{"a state stored", devs[0], StateOnline, true, 1},
		{"the same state written again", devs[0], StateOnline, false, 1},
		{"a state changed", devs[0], StateOffline, true, 1},
		{"a device added", devs[1], StateOnline, true, 2},
	} {
		if step.dev != 0 {
			set(step.dev, step.state)
		}
		got, g := after()
		if (g != gen) != step.newGen || len(got) != step.n || (step.dev != 0 && got[step.dev] != step.state) {
			t.Fatalf("%s: %v, generation %d then %d (a new one: want %v)", step.what, got, gen, g, step.newGen)
		}
		gen = g
	}
}
