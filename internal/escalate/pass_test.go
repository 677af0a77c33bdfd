package escalate_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/escalate"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

type rig struct {
	db    *store.DB
	acc   *demo.Accounts
	ids   map[string]int64
	clock *clock
	eng   *alarm.Engine
	esc   *escalate.Escalator
	rules *escalate.Store
}

// Monday 30 Nov 2026, 10:00 in Shanghai (the organisation's zone).
var t0 = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

func newRig(t *testing.T, db *store.DB) *rig {
	t.Helper()
	ctx := context.Background()
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		t.Fatal(err)
	}
	ids, err := demo.DeviceIDs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "UPDATE organizations SET timezone = 'Asia/Shanghai' WHERE id = ?", acc.OrgID); err != nil {
		t.Fatal(err)
	}
	c := &clock{t: t0.Add(-time.Hour)}
	msgs := &message.Store{DB: db, Now: c.Now}
	outbox := &notify.Outbox{Now: c.Now}
	return &rig{db: db, acc: acc, ids: ids, clock: c,
		eng:   alarm.NewEngine(db, alarm.Options{Now: c.Now, Messages: msgs}),
		esc:   &escalate.Escalator{DB: db, Messages: msgs, Outbox: outbox, Now: c.Now},
		rules: &escalate.Store{DB: db, Now: c.Now}}
}

func (r *rig) sample(t *testing.T, key string, at time.Time, status int) {
	t.Helper()
	r.clock.Set(at)
	s := telemetry.Sample{DeviceID: r.ids[key], Time: at, Status: status, ACVoltageV: 230, FrequencyHz: 50, TempC: 30}
	if err := r.eng.Observe(context.Background(), []telemetry.Sample{s}); err != nil {
		t.Fatal(err)
	}
}

// pass runs the escalator at an instant and checks how many steps it took.
func (r *rig) pass(t *testing.T, at time.Time, want int) {
	t.Helper()
	r.clock.Set(at)
	n, err := r.esc.Pass(context.Background(), at)
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("pass at +%v: %d steps taken, want %d", at.Sub(t0), n, want)
	}
}

func (r *rig) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := r.db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// escalations counts a user's escalation messages.
func (r *rig) escalations(t *testing.T, user int64) int {
	t.Helper()
	return r.count(t, "SELECT COUNT(*) FROM messages WHERE user_id = ? AND title = 'escalation_title'", user)
}

func (r *rig) alarmOf(t *testing.T, key string) int64 {
	t.Helper()
	var id int64
	if err := r.db.QueryRow(context.Background(), "SELECT id FROM alarms WHERE device_id = ? ORDER BY id DESC LIMIT 1", r.ids[key]).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A fault nobody deals with goes to the operator on call after 5 minutes, to the head-office
// department after 15 and to the administrator after 30, each step once; the alarm dealt
// with stops; a recovered one stops when the rule says so; a step reaches only people who
// may see the station; a step due before the rule existed is not taken. Simulated clock.
func TestEscalationSteps(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db)
		ctx := context.Background()
		admin, op := r.acc.AdminID, r.acc.OperatorID
		// the administrator takes e-mail too; a webhook hears alarm.escalated
		if err := alarm.SaveSettings(ctx, db, admin, alarm.Settings{Levels: []int{2}, Frequency: alarm.FrequencyHigh, DailyLimit: 50,
			Methods: []int{1, 3}, Allowed: 0, Timezone: "UTC"}, r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
			VALUES (?, 'on-call service', 'http://127.0.0.1:9/', 'helio', ',alarm.escalated,', 'en-US', 's', 1, 0, 0)`, r.acc.OrgID); err != nil {
			t.Fatal(err)
		}
		// the operator is on call Monday 08:00-18:00 Shanghai
		if err := r.rules.SetRota(ctx, r.acc.OrgID, []escalate.OnCallSlot{{Weekday: 1, Start: "08:00", End: "18:00", UserID: op}}); err != nil {
			t.Fatal(err)
		}
		rule, err := r.rules.Create(ctx, r.acc.OrgID, escalate.EscalationRuleInput{Name: "Faults", Levels: []int{2}, StopOnRecovery: true, Enabled: true,
			Steps: []escalate.EscalationStep{
				{AfterMinutes: 5, Target: escalate.TargetOnCall},
				{AfterMinutes: 15, Target: escalate.TargetDepartment, TargetID: r.acc.HQDeptID},
				{AfterMinutes: 30, Target: escalate.TargetUser, TargetID: admin},
			}})
		if err != nil {
			t.Fatal(err)
		}
		if rule.Steps[2].TargetName == "" {
			t.Fatalf("the rule's steps are not named: %+v", rule.Steps)
		}
		// a fault the operator may see (Golmud), one they may not (Stellenbosch), and one
		// that recovers
		r.sample(t, "cn-golmud-1-inv01", t0, telemetry.StatusFault)
		r.sample(t, "za-stellenbosch-1-inv01", t0, telemetry.StatusFault)
		r.sample(t, "cn-golmud-2-inv01", t0, telemetry.StatusFault)
		golmud, stellen, recovering := r.alarmOf(t, "cn-golmud-1-inv01"), r.alarmOf(t, "za-stellenbosch-1-inv01"), r.alarmOf(t, "cn-golmud-2-inv01")

		r.pass(t, t0.Add(4*time.Minute+59*time.Second), 0)
		r.pass(t, t0.Add(5*time.Minute), 3) // step 1 of the three alarms
		if n := r.escalations(t, op); n != 2 {
			t.Fatalf("step 1: the operator on call got %d escalations, want 2 (Golmud's two, not Stellenbosch's)", n)
		}
		if n := r.escalations(t, admin); n != 0 {
			t.Fatalf("step 1: the administrator got %d escalations, want 0", n)
		}
		r.pass(t, t0.Add(6*time.Minute), 0) // once

		// Golmud's is dealt with; the other one recovers
		if _, err := db.Exec(ctx, "UPDATE alarms SET deal_status = 1 WHERE id = ?", golmud); err != nil {
			t.Fatal(err)
		}
		r.sample(t, "cn-golmud-2-inv01", t0.Add(10*time.Minute), telemetry.StatusStandby)
		r.pass(t, t0.Add(15*time.Minute), 1) // step 2 of Stellenbosch's only
		if n := r.escalations(t, admin); n != 1 {
			t.Fatalf("step 2: the head office got %d escalations, want 1", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE channel = 'email' AND target_id = ? AND event = 'alarm.escalated'", admin); n != 1 {
			t.Fatalf("step 2: %d escalation e-mails to the administrator, want 1", n)
		}
		r.pass(t, t0.Add(30*time.Minute), 1)
		if n := r.escalations(t, admin); n != 2 {
			t.Fatalf("step 3: the administrator got %d escalations, want 2", n)
		}
		r.pass(t, t0.Add(2*time.Hour), 0) // no step left

		log, err := r.rules.Log(ctx, r.acc.OrgID, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != 5 {
			t.Fatalf("log: %d steps, want 5: %+v", len(log), log)
		}
		for _, l := range log {
			if l.AlarmID == stellen && l.Step == 1 && len(l.Users) != 0 {
				t.Fatalf("Stellenbosch's step 1 reached %+v: the operator may not see the station", l.Users)
			}
			if l.AlarmID == recovering && l.Step > 1 {
				t.Fatalf("the recovered alarm escalated to step %d", l.Step)
			}
		}
		// the webhook heard every step, with the step and who was told
		if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE channel = 'webhook' AND event = 'alarm.escalated'"); n != 5 {
			t.Fatalf("%d alarm.escalated webhook deliveries, want 5", n)
		}
		var payload string
		if err := db.QueryRow(ctx, `SELECT payload FROM notify_outbox WHERE channel = 'webhook' AND subject_id = ? ORDER BY id DESC LIMIT 1`,
			stellen).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		var ev notify.Alarm
		if err := json.Unmarshal([]byte(payload), &ev); err != nil || ev.Escalation == nil || ev.Escalation.Step != 3 ||
			ev.Escalation.Rule != "Faults" || len(ev.Escalation.Notified) != 1 {
			t.Fatalf("the last webhook event: %s", payload)
		}

		// A rule made now does not take steps that fell due before it existed.
		if _, err := r.rules.Create(ctx, r.acc.OrgID, escalate.EscalationRuleInput{Name: "Late", Levels: []int{2}, Enabled: true,
			Steps: []escalate.EscalationStep{{AfterMinutes: 5, Target: escalate.TargetUser, TargetID: admin}, {AfterMinutes: 180, Target: escalate.TargetUser, TargetID: admin}}}); err != nil {
			t.Fatal(err)
		}
		r.pass(t, t0.Add(2*time.Hour+time.Minute), 0)
		r.pass(t, t0.Add(3*time.Hour), 2) // its second step, for the two alarms nobody dealt with
	})
}
