package alarm_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// clock is a controllable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *clock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// recorder is a message.Publisher that keeps the events.
type recorder struct {
	mu     sync.Mutex
	events []message.Event
}

func (r *recorder) Publish(_ context.Context, ev message.Event) error {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	return nil
}

// rig is a database with the demo accounts and fleet, a write path and an engine on one
// controllable clock.
type rig struct {
	db     *store.DB
	acc    *demo.Accounts
	fleet  sim.Fleet
	ids    map[string]int64
	clock  *clock
	msgs   *message.Store
	pub    *recorder
	eng    *alarm.Engine
	writer *telemetry.Writer
}

func quiet(t testing.TB) {
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
}

func newRig(t testing.TB, db *store.DB, start time.Time) *rig {
	t.Helper()
	quiet(t)
	ctx := context.Background()
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	fleet := demo.Fleet()
	if err := demo.SeedFleet(ctx, db, acc, fleet); err != nil {
		t.Fatal(err)
	}
	ids, err := demo.DeviceIDs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: start}
	pub := &recorder{}
	msgs := &message.Store{DB: db, Now: c.Now, Pub: pub}
	return &rig{db: db, acc: acc, fleet: fleet, ids: ids, clock: c, msgs: msgs, pub: pub,
		eng:    alarm.NewEngine(db, alarm.Options{Now: c.Now, Messages: msgs}),
		writer: telemetry.NewWriter(db, telemetry.Options{Now: c.Now})}
}

// stationID is the database id of a station by simulator key.
func (r *rig) stationID(t testing.TB, key string) int64 {
	t.Helper()
	var id int64
	if err := r.db.QueryRow(context.Background(), "SELECT id FROM stations WHERE sim_key = ?", key).Scan(&id); err != nil {
		t.Fatalf("station %s: %v", key, err)
	}
	return id
}

// write stores samples through the write path and observes the accepted ones, as the
// live path does.
func (r *rig) write(t testing.TB, samples []telemetry.Sample) {
	t.Helper()
	ctx := context.Background()
	res, err := r.writer.Write(ctx, "test", samples)
	if err != nil {
		t.Fatal(err)
	}
	var ok []telemetry.Sample
	for i, o := range res.Outcomes {
		if o == telemetry.Accepted {
			ok = append(ok, samples[i])
		} else if o == telemetry.Rejected {
			t.Fatalf("sample %d rejected: %s", i, res.Reasons[i])
		}
	}
	if err := r.eng.Observe(ctx, ok); err != nil {
		t.Fatal(err)
	}
}

// row is an alarm as stored.
type row struct {
	ID, StationID, DeviceID int64
	Rule, DeviceSN, DevType string
	Type, Level, Status     int
	Start, Last             time.Time
	Recovered               *time.Time
	Desc                    string
}

func (r *rig) alarms(t testing.TB) []row {
	t.Helper()
	rows, err := r.db.Query(context.Background(), `SELECT id, station_id, COALESCE(device_id, 0), rule_key, device_sn,
		device_type, alarm_type, level, status, start_at, last_alarm_at, recovered_at, description FROM alarms ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []row
	for rows.Next() {
		var a row
		var start, last int64
		var rec *int64
		if err := rows.Scan(&a.ID, &a.StationID, &a.DeviceID, &a.Rule, &a.DeviceSN, &a.DevType, &a.Type, &a.Level,
			&a.Status, &start, &last, &rec, &a.Desc); err != nil {
			t.Fatal(err)
		}
		a.Start, a.Last = time.UnixMilli(start).UTC(), time.UnixMilli(last).UTC()
		if rec != nil {
			x := time.UnixMilli(*rec).UTC()
			a.Recovered = &x
		}
		out = append(out, a)
	}
	return out
}

func (r *rig) count(t testing.TB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := r.db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
