package fleet

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Two replicas on one PostgreSQL database, each with its own writer and state, joined by
// NATS: samples written through either show in both, and both equal the brute force.
func TestReplicasConverge(t *testing.T) {
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB := storetest.PostgresSchema(t, schema)
	r := newRig(t, dbA, time.Now().UTC().Add(-6*time.Hour).Truncate(time.Minute))
	wB := telemetry.NewWriter(dbB, telemetry.Options{Now: r.now})
	sB := New(dbB, wB, r.now)
	ctx := context.Background()
	subject := "helio.test.fleet." + schema
	for _, x := range []struct {
		s *State
	}{{r.s}, {sB}} {
		bus, err := push.DialNATS("nats://127.0.0.1:4222", subject)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		stop, err := x.s.Replicate(bus, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		if err := x.s.Build(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 12 {
		w := r.w
		if i%2 == 1 {
			w = wB
		}
		r.stepThrough(t, rng, w)
		r.clock.Add((23 * time.Minute).Milliseconds())
	}
	// one sample through A, then B must show it
	last := r.devices[0]
	at := r.now().Add(-time.Second)
	c := r.counters[last]
	if _, err := r.w.Write(ctx, "test", []telemetry.Sample{{DeviceID: last, Time: at, PowerKW: 7.25, EnergyKWh: c[0] + 1, Energy2KWh: c[1], Status: 1}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := sB.Latest(ctx, []int64{last})
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := got[last]; ok && l.Time.Equal(at.Truncate(time.Millisecond)) && l.PowerKW == 7.25 &&
			snapshot(t, r.s, r.devices, r.stations) == snapshot(t, sB, r.devices, r.stations) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica B has not caught up with A:\nA %s\nB %s", snapshot(t, r.s, r.devices, r.stations), snapshot(t, sB, r.devices, r.stations))
		}
		time.Sleep(20 * time.Millisecond)
	}
	checkState(t, dbA, r.s, r.now(), "replica A")
	checkState(t, dbB, sB, r.now(), "replica B")
}

// snapshot renders a state's figures for comparison (to 1e-6).
func snapshot(t testing.TB, s *State, devices, stations []int64) string {
	ctx := context.Background()
	tot, err := s.Totals(ctx, stations)
	if err != nil {
		t.Fatal(err)
	}
	lat, err := s.Latest(ctx, devices)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for id, x := range tot {
		parts = append(parts, fmt.Sprintf("s%d %.6f %.6f %.6f %.6f", id, x.Today.PVKWh, x.Month.ImportKWh, x.Year.ChargeKWh, x.Total.PVKWh))
	}
	for id, l := range lat {
		parts = append(parts, fmt.Sprintf("d%d %d %.3f", id, l.Time.UnixMilli(), l.PowerKW))
	}
	sort.Strings(parts)
	return fmt.Sprint(parts)
}

// An alarm opened through one replica's state shows in the other's, through NATS; its
// recovery through the other replica clears it in the first.
func TestReplicasShareAlarms(t *testing.T) {
	schema := storetest.NewSchemaName()
	dbA := storetest.PostgresSchema(t, schema)
	dbB := storetest.PostgresSchema(t, schema)
	r := newAlarmRig(t, dbA)
	ctx := context.Background()
	subject := "helio.test.fleet." + schema
	var states []*State
	for _, db := range []*store.DB{dbA, dbB} {
		s := New(db, telemetry.NewWriter(db, telemetry.Options{Now: r.now}), r.now)
		bus, err := push.DialNATS("nats://127.0.0.1:4222", subject)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		stop, err := s.Replicate(bus, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		if err := s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		states = append(states, s)
	}
	a, b := states[0], states[1]
	sub := r.stations[len(r.stations)-1]
	top := r.parent[sub]
	start := r.clock.Load()
	id := insert(t, dbA, `INSERT INTO alarms (org_id, station_id, rule_key, alarm_type, level, status, description,
		start_at, occurred_at, last_alarm_at, updated_at) VALUES (?, ?, 'r', 1, 1, 1, 'through A', ?, 0, 0, 0)`, r.org, sub, start)
	a.ApplyAlarms([]AlarmChange{{Kind: AlarmOpened, ID: id, Station: sub, Start: start, Description: "through A"}})
	wait := func(s *State, want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got, err := s.Occurring(ctx, []int64{top, sub}, true)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the other replica shows %v, not %s", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait(b, fmt.Sprintf("map[%d:through A %d:through A]", top, sub))
	if _, err := dbB.Exec(ctx, "UPDATE alarms SET status = 2 WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	b.ApplyAlarms([]AlarmChange{{Kind: AlarmRecovered, ID: id, Station: sub, Start: start}})
	wait(a, "map[]")
	checkAlarms(t, r, a, "replica A")
	checkAlarms(t, r, b, "replica B")
}
