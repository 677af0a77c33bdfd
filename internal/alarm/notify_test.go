package alarm_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fault opens an inverter fault on a device at an instant (Observe only: the rule needs
// no stored history).
func (r *rig) fault(t testing.TB, key string, at time.Time) {
	t.Helper()
	r.observe(t, telemetry.Sample{DeviceID: r.ids[key], Time: at, Status: telemetry.StatusFault, ACVoltageV: 230, FrequencyHz: 50, TempC: 30})
}

// overTemp opens an over-temperature alarm (level 1) on a device.
func (r *rig) overTemp(t testing.TB, key string, at time.Time) {
	t.Helper()
	r.observe(t, telemetry.Sample{DeviceID: r.ids[key], Time: at, Status: telemetry.StatusOverTemp, ACVoltageV: 230, FrequencyHz: 50, TempC: 86})
}

// recover sends a healthy night sample.
func (r *rig) recover(t testing.TB, key string, at time.Time) {
	t.Helper()
	r.observe(t, telemetry.Sample{DeviceID: r.ids[key], Time: at, Status: telemetry.StatusStandby, ACVoltageV: 230, FrequencyHz: 50, TempC: 20})
}

func (r *rig) observe(t testing.TB, s telemetry.Sample) {
	t.Helper()
	if s.DeviceID == 0 {
		t.Fatal("unknown device")
	}
	r.clock.Set(s.Time)
	if err := r.eng.Observe(context.Background(), []telemetry.Sample{s}); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) sweep(t testing.TB, at time.Time) {
	t.Helper()
	r.clock.Set(at)
	if err := r.eng.Sweep(context.Background(), at); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) settings(t testing.TB, userID int64, s alarm.Settings) {
	t.Helper()
	if err := alarm.SaveSettings(context.Background(), r.db, userID, s, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
}

// messages counts a user's alarm messages.
func (r *rig) messages(t testing.TB, userID int64) int {
	t.Helper()
	return r.count(t, "SELECT COUNT(*) FROM messages WHERE user_id = ? AND kind = 'alarm'", userID)
}

func high(levels ...int) alarm.Settings {
	if len(levels) == 0 {
		levels = []int{0, 1, 2}
	}
	return alarm.Settings{Levels: levels, Frequency: alarm.FrequencyHigh, DailyLimit: 50, Methods: []int{1}, Allowed: 1, Timezone: "UTC"}
}

func with(s alarm.Settings, f func(*alarm.Settings)) alarm.Settings { f(&s); return s }

// Golmud's inverters are in the first station (granted to the operator's department),
// Stellenbosch's in the fifth (not granted); the last station is the other
// organisation's copy of the ninth.
const (
	grantedInv    = "cn-golmud-1-inv01"
	grantedInv2   = "cn-golmud-1-inv02"
	grantedInv3   = "cn-golmud-2-inv01"
	grantedInv4   = "cn-golmud-3-inv01"
	notGrantedInv = "za-stellenbosch-1-inv01"
	otherOrgInv   = "other-tw-tainan-1-inv01"
)

var t0 = time.Date(2025, 5, 21, 2, 0, 0, 0, time.UTC)

func TestNotificationFrequency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		admin, op := r.acc.AdminID, r.acc.OperatorID
		r.settings(t, op, with(high(), func(s *alarm.Settings) { s.Allowed = 0 }))

		// high: at once.
		r.settings(t, admin, high())
		r.fault(t, grantedInv, t0)
		if n := r.messages(t, admin); n != 1 {
			t.Fatalf("high: %d messages right after the alarm, want 1", n)
		}

		// medium: only once the alarm has been occurring for 15 minutes.
		r.settings(t, admin, with(high(), func(s *alarm.Settings) { s.Frequency = alarm.FrequencyMedium }))
		t1 := t0.Add(time.Hour)
		r.fault(t, grantedInv2, t1)
		r.sweep(t, t1.Add(15*time.Minute-time.Second))
		if n := r.messages(t, admin); n != 1 {
			t.Fatalf("medium: notified after 14:59 (%d messages)", n)
		}
		r.sweep(t, t1.Add(15*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("medium: %d messages at 15:00, want 2", n)
		}
		r.sweep(t, t1.Add(20*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("medium: notified twice (%d)", n)
		}

		// low: after 60 minutes.
		r.settings(t, admin, with(high(), func(s *alarm.Settings) { s.Frequency = alarm.FrequencyLow }))
		t2 := t1.Add(2 * time.Hour)
		r.fault(t, grantedInv3, t2)
		r.sweep(t, t2.Add(59*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("low: notified after 59 minutes (%d)", n)
		}
		r.sweep(t, t2.Add(60*time.Minute))
		if n := r.messages(t, admin); n != 3 {
			t.Fatalf("low: %d messages after 60 minutes, want 3", n)
		}

		// An alarm that recovers before the delay is never notified.
		t3 := t2.Add(3 * time.Hour)
		r.fault(t, grantedInv4, t3)
		r.recover(t, grantedInv4, t3.Add(30*time.Minute))
		r.sweep(t, t3.Add(61*time.Minute))
		r.sweep(t, t3.Add(2*time.Hour))
		if n := r.messages(t, admin); n != 3 {
			t.Fatalf("low: a recovered alarm was notified (%d)", n)
		}

		// The operator, not allowed, got nothing throughout.
		if n := r.messages(t, op); n != 0 {
			t.Fatalf("not allowed: the operator got %d messages", n)
		}
		// Every message links to its alarm and was announced to the live connections.
		if n := r.count(t, "SELECT COUNT(*) FROM messages m JOIN alarms a ON a.id = m.alarm_id WHERE m.user_id = ?", admin); n != 3 {
			t.Fatalf("%d messages link to their alarm", n)
		}
		announced := 0
		for _, ev := range r.pub.events {
			announced += len(ev.Records())
		}
		if announced != 3 {
			t.Fatalf("%d messages announced, want 3", announced)
		}
	})
}

func TestNotificationLevelsAndDailyLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		admin, op := r.acc.AdminID, r.acc.OperatorID

		// Levels not chosen: the operator wants faults only (level 2).
		r.settings(t, op, high(alarm.LevelFault))
		r.settings(t, admin, with(high(), func(s *alarm.Settings) {
			s.DailyLimit, s.Timezone = 2, "Asia/Shanghai"
		}))
		r.overTemp(t, grantedInv, t0) // level 1
		if n := r.messages(t, op); n != 0 {
			t.Fatalf("levels: the operator got a level-1 alarm (%d)", n)
		}
		if n := r.messages(t, admin); n != 1 {
			t.Fatalf("admin got %d messages, want 1", n)
		}
		r.fault(t, grantedInv2, t0.Add(time.Minute)) // level 2
		if n := r.messages(t, op); n != 1 {
			t.Fatalf("levels: the operator got %d messages for a fault, want 1", n)
		}

		// Daily limit 2 per Shanghai day: the third alarm of the day is limited, for good.
		r.fault(t, grantedInv3, t0.Add(2*time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("limit: %d messages, want 2", n)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = 'limited'", admin); n != 1 {
			t.Fatalf("limit: %d limited notifications, want 1", n)
		}
		// the limit says so: one notice in the message centre, and the day's count
		notices := func() int {
			return r.count(t, "SELECT COUNT(*) FROM messages WHERE user_id = ? AND kind = 'system' AND title LIKE '%notify_limit_title%'", admin)
		}
		today := func(want alarm.NotifyToday) {
			t.Helper()
			got, err := alarm.Today(context.Background(), db, admin, r.clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if got.Sent != want.Sent || got.Held != want.Held || got.Reached != want.Reached || got.Limit != 2 {
				t.Fatalf("today %+v, want sent %d held %d reached %v", got, want.Sent, want.Held, want.Reached)
			}
		}
		if n := notices(); n != 1 {
			t.Fatalf("limit reached: %d notices, want 1", n)
		}
		today(alarm.NotifyToday{Sent: 2, Held: 1, Reached: true})
		// 15:30 UTC is 23:30 in Shanghai: still the same day.
		late := time.Date(2025, 5, 21, 15, 30, 0, 0, time.UTC)
		r.fault(t, grantedInv4, late)
		r.sweep(t, late.Add(time.Minute))
		if n := r.messages(t, admin); n != 2 {
			t.Fatalf("limit: %d messages late on the same local day, want 2", n)
		}
		if n := notices(); n != 1 {
			t.Fatalf("a second alarm held back the same day: %d notices, want still 1", n)
		}
		today(alarm.NotifyToday{Sent: 2, Held: 2, Reached: true})
		// 16:30 UTC is 00:30 the next day in Shanghai (still 21 May in UTC): the limit
		// starts again, and the alarms limited yesterday stay unsent.
		next := time.Date(2025, 5, 21, 16, 30, 0, 0, time.UTC)
		r.fault(t, notGrantedInv, next)
		r.sweep(t, next.Add(time.Minute))
		if n := r.messages(t, admin); n != 3 {
			t.Fatalf("limit: %d messages on the next local day, want 3", n)
		}
		today(alarm.NotifyToday{Sent: 1, Held: 0, Reached: false})
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = 'limited'", admin); n != 2 {
			t.Fatalf("limit: %d limited notifications, want 2 (the third and the late one)", n)
		}
	})
}

// appPush records what the engine hands to an app push gateway.
type appPush struct {
	mu    sync.Mutex
	users []int64
}

func (a *appPush) Push(_ context.Context, userID int64, _ message.Record) error {
	a.mu.Lock()
	a.users = append(a.users, userID)
	a.mu.Unlock()
	return nil
}

func TestNotificationAuthorityAndMethods(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, t0)
		app := &appPush{}
		r.eng = alarm.NewEngine(db, alarm.Options{Now: r.clock.Now, Messages: r.msgs, AppPush: app})
		admin, op, other := r.acc.AdminID, r.acc.OperatorID, r.acc.OtherID
		for _, u := range []int64{admin, op, other} {
			r.settings(t, u, high())
		}

		// A station the operator's department was not granted: admin only.
		r.fault(t, notGrantedInv, t0)
		if a, o, x := r.messages(t, admin), r.messages(t, op), r.messages(t, other); a != 1 || o != 0 || x != 0 {
			t.Fatalf("not granted: admin %d, operator %d, other %d; want 1 0 0", a, o, x)
		}
		// A granted station's sub-station: admin and operator, never the other
		// organisation.
		r.fault(t, grantedInv, t0.Add(time.Minute))
		if a, o, x := r.messages(t, admin), r.messages(t, op), r.messages(t, other); a != 2 || o != 1 || x != 0 {
			t.Fatalf("granted: admin %d, operator %d, other %d; want 2 1 0", a, o, x)
		}
		// The other organisation's station: its own user only.
		r.fault(t, otherOrgInv, t0.Add(2*time.Minute))
		if a, o, x := r.messages(t, admin), r.messages(t, op), r.messages(t, other); a != 2 || o != 1 || x != 1 {
			t.Fatalf("other organisation: admin %d, operator %d, other %d; want 2 1 1", a, o, x)
		}
		for _, ev := range r.pub.events {
			for _, m := range ev.Records() {
				var st int64
				if err := db.QueryRow(context.Background(), "SELECT station_id FROM alarms WHERE id = ?", m.AlarmID).Scan(&st); err != nil {
					t.Fatal(err)
				}
				if m.UserID == other && st != r.stationID(t, "other-tw-tainan-1") {
					t.Fatal("the other organisation's user was told about a demo alarm")
				}
			}
		}

		// Methods: app push only stores no message but hands the alarm to the gateway
		// (and counts towards the limit); in-site and app push do both.
		r.settings(t, admin, with(high(), func(s *alarm.Settings) { s.Methods = []int{alarm.MethodAppPush} }))
		r.settings(t, op, with(high(), func(s *alarm.Settings) { s.Methods = []int{alarm.MethodInSite, alarm.MethodAppPush} }))
		r.fault(t, grantedInv2, t0.Add(3*time.Minute))
		if a, o := r.messages(t, admin), r.messages(t, op); a != 2 || o != 2 {
			t.Fatalf("methods: admin %d (want 2: no new in-site message), operator %d (want 2)", a, o)
		}
		if len(app.users) != 2 || app.users[0] != admin || app.users[1] != op {
			t.Fatalf("app push went to %v", app.users)
		}
		if n := r.count(t, "SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = 'sent'", admin); n != 3 {
			t.Fatalf("admin has %d sent notifications, want 3", n)
		}
	})
}
