package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/notify/pushtest"
	"github.com/helio-energy/helio/internal/store"
)

// browser subscribes a new browser of svc for the user.
func (r *rig) browser(t *testing.T, svc *pushtest.Service, uid int64) pushtest.Subscription {
	t.Helper()
	s := svc.Subscribe(t)
	if _, err := r.db.Exec(context.Background(), "INSERT INTO webpush_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, 0)",
		uid, s.Endpoint, s.P256dh, s.Auth); err != nil {
		t.Fatal(err)
	}
	return s
}

// pushes writes n alarm pushes to the user as the notification pass does (alarm ids from
// first on, the last one a fault, the others warnings) and returns the deliveries' ids.
func (r *rig) pushes(t *testing.T, uid int64, first int64, n int) []int64 {
	t.Helper()
	var ids []int64
	err := r.db.InTx(context.Background(), func(tx *store.Tx) error {
		for i := 0; i < n; i++ {
			a := trip
			a.ID, a.Level, a.StationName = first+int64(i), 1, fmt.Sprintf("Plant %d", first+int64(i))
			if i == n-1 {
				a.Level = 2
			}
			id, err := r.outbox.Direct(context.Background(), tx, r.org, ChannelPush, uid, AlarmRaised, a.ID, a)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func (r *rig) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := r.db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func decode(t *testing.T, m pushtest.Message) PushMessage {
	t.Helper()
	var p PushMessage
	if err := json.Unmarshal(m.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPushSummary: twelve alarms waiting for a user go as one push, "12 new alarms", with the
// newest alarm's title, opening the alarm list, urgent (one is a fault), under the oldest
// delivery's id and a Topic; every one of the twelve deliveries is settled sent, each with
// its attempt logged.
func TestPushSummary(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	svc := pushtest.Start(t)
	r.worker.Push = &PushKeys{DB: r.db}
	ann := r.user(t, "ann", "", false, "en-US", 0)
	r.browser(t, svc, ann)
	ids := r.pushes(t, ann, 100, 12)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 12 {
		t.Fatalf("pass: %d, %v", n, err)
	}
	got := svc.Messages()
	if len(got) != 1 || len(svc.Refused()) != 0 {
		t.Fatalf("pushes %d, refused %v", len(got), svc.Refused())
	}
	m := decode(t, got[0])
	if m.Title != "12 new alarms" || m.Count != 12 || m.URL != "/alarm" || m.Tag != summaryTag || m.Level != 2 || m.ID != DeliveryID(ids[0]) {
		t.Fatalf("summary %+v", m)
	}
	if !strings.Contains(m.Body, "Inverter fault at Plant 111") || got[0].Urgency != "high" || got[0].Topic != summaryTopic {
		t.Fatalf("summary %q, urgency %s, topic %q", m.Body, got[0].Urgency, got[0].Topic)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE channel = 'push' AND state = 'sent' AND attempts = 1"); n != 12 {
		t.Fatalf("%d of 12 deliveries sent", n)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_attempts WHERE status = 201 AND attempt = 1"); n != 12 {
		t.Fatalf("%d attempts logged, want 12", n)
	}
}

// TestPushGap: a user's first alarm is pushed at once, as itself (no Topic); what comes
// within the push gap waits, untouched, for the next round and goes as one summary; a
// summary that fails is tried again under the same id, with what came meanwhile, and
// nothing is lost.
func TestPushGap(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	svc := pushtest.Start(t)
	r.worker.Push = &PushKeys{DB: r.db}
	li := r.user(t, "li", "", false, "zh-CN", 0)
	phone := r.browser(t, svc, li)
	r.pushes(t, li, 1, 1)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("first pass: %d, %v", n, err)
	}
	if got := svc.Messages(); len(got) != 1 || decode(t, got[0]).Count != 0 || got[0].Topic != "" || decode(t, got[0]).URL != "/alarm?detail=1" {
		t.Fatalf("first push %+v", got)
	}
	waiting := r.pushes(t, li, 2, 3)
	r.clock.Add(10 * time.Second)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 0 || len(svc.Messages()) != 1 {
		t.Fatalf("within the gap: %d settled, %d pushes, %v", n, len(svc.Messages()), err)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'pending' AND attempts = 0 AND next_at = created_at"); n != 3 {
		t.Fatalf("%d deliveries waiting untouched, want 3", n)
	}
	// the gap ends; the push service is in trouble: the summary is tried again later
	r.clock.Add(PushGap - 10*time.Second)
	svc.Down(phone.Endpoint, 503)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 3 {
		t.Fatalf("at the gap's end: %d, %v", n, err)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'pending' AND attempts = 1"); n != 3 {
		t.Fatalf("%d deliveries waiting for a retry, want 3", n)
	}
	r.pushes(t, li, 5, 2)
	svc.Down(phone.Endpoint, 0)
	r.clock.Add(Backoff(1))
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 5 {
		t.Fatalf("retry: %d, %v", n, err)
	}
	got := svc.Messages()
	if len(got) != 2 {
		t.Fatalf("%d pushes, want 2", len(got))
	}
	m := decode(t, got[1])
	if m.Count != 5 || m.ID != DeliveryID(waiting[0]) || m.Title != "5 条新告警" || !strings.Contains(m.Body, "Plant 6") {
		t.Fatalf("summary after the retry %+v (want the id %s)", m, DeliveryID(waiting[0]))
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'sent'"); n != 6 {
		t.Fatalf("%d of 6 deliveries sent", n)
	}
	// the next alarm, within the gap of that summary, waits again
	r.pushes(t, li, 7, 1)
	r.clock.Add(PushGap - time.Second)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("within the next gap: %d, %v", n, err)
	}
	r.clock.Add(time.Second)
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 1 || len(svc.Messages()) != 3 {
		t.Fatalf("the next round: %d, %d pushes, %v", n, len(svc.Messages()), err)
	}
}

// TestPushPace: one pass pushes to at most pushUsers users; the round goes on in the next
// pass with the others, and what came during the round waits for the next.
func TestPushPace(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	svc := pushtest.Start(t)
	r.worker.Push = &PushKeys{DB: r.db}
	users := pushUsers + 5
	for i := 0; i < users; i++ {
		uid := r.user(t, fmt.Sprintf("u%d", i), "", false, "en-US", 0)
		r.browser(t, svc, uid)
		r.pushes(t, uid, int64(10*i+1), 2)
	}
	if n, err := r.worker.pushPass(ctx); err != nil || n != 2*pushUsers || len(svc.Messages()) != pushUsers {
		t.Fatalf("first pass: %d deliveries, %d pushes, %v", n, len(svc.Messages()), err)
	}
	first := r.user(t, "late", "", false, "en-US", 0)
	r.browser(t, svc, first)
	r.pushes(t, first, 1000, 1) // written during the round
	if n, err := r.worker.pushPass(ctx); err != nil || n != 10 || len(svc.Messages()) != users {
		t.Fatalf("second pass: %d deliveries, %d pushes, %v", n, len(svc.Messages()), err)
	}
	if n, err := r.worker.pushPass(ctx); err != nil || n != 0 {
		t.Fatalf("after the round: %d, %v", n, err)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'sent'"); n != 2*users {
		t.Fatalf("%d of %d deliveries sent", n, 2*users)
	}
	r.clock.Add(PushGap)
	if n, err := r.worker.pushPass(ctx); err != nil || n != 1 {
		t.Fatalf("the next round: %d, %v", n, err)
	}
}

// TestDigestBornWaiting: the e-mails a notification pass writes for a user with a digest
// are due when the period ends, so the sender neither reads nor writes them before; then
// one digest holds them all. A user without a digest has theirs due at once.
func TestDigestBornWaiting(t *testing.T) {
	r := newRig(t)
	mp := r.relay(t)
	ctx := context.Background()
	li := r.user(t, "li", "li@helio.example", true, "en-US", 15)
	ann := r.user(t, "ann", "ann@helio.example", true, "en-US", 0)
	write := func(first int64, n int) {
		err := r.db.InTx(ctx, func(tx *store.Tx) error {
			var rows []Row
			for i := 0; i < n; i++ {
				a := trip
				a.ID = first + int64(i)
				rows = append(rows, Row{OrgID: r.org, Channel: ChannelEmail, Target: li, Event: AlarmRaised, SubjectID: a.ID, Data: a})
			}
			rows = append(rows, Row{OrgID: r.org, Channel: ChannelEmail, Target: ann, Event: AlarmRaised, SubjectID: first, Data: trip})
			return r.outbox.DirectMany(ctx, tx, rows)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	write(1, 3)
	r.clock.Add(5 * time.Minute)
	write(10, 2)
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE target_id = ? AND next_at = created_at + ?", li, (15 * time.Minute).Milliseconds()); n != 5 {
		t.Fatalf("%d of 5 e-mails due at their period's end", n)
	}
	if n, err := r.worker.mailPass(ctx); err != nil || n != 1 {
		t.Fatalf("before the period ends: %d, %v; want ann's first e-mail only", n, err)
	}
	r.clock.Add(10 * time.Minute)
	for range 3 {
		if _, err := r.worker.mailPass(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var digest int
	for _, m := range mp.Messages(t) {
		if strings.Contains(m.Subject, "5 alarms") {
			digest++
		}
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'sent'"); n != 7 || digest != 1 {
		t.Fatalf("%d of 7 deliveries sent, %d digests of 5 (of %d e-mails)", n, digest, len(mp.Messages(t)))
	}
}

// TestSummaryLanguages: a summary speaks each console language, with its count and the
// newest alarm's title.
func TestSummaryLanguages(t *testing.T) {
	list := []pushItem{{Delivery: Delivery{ID: 9}}, {Delivery: Delivery{ID: 7}}, {Delivery: Delivery{ID: 8}}}
	seen := map[string]bool{}
	for _, lang := range []string{"en-US", "zh-CN", "zh-TW", "ja-JP", "ko-KR"} {
		m := summary(list, 2, "newest", lang)
		if !strings.Contains(m.Title, "3") || !strings.Contains(m.Body, "newest") || m.Level != 2 || m.ID != "hd_7" || m.Count != 3 || seen[m.Title] {
			t.Fatalf("%s: %+v", lang, m)
		}
		seen[m.Title] = true
	}
	if m := summary(list, 2, "newest", "xx"); m.Title != summary(list, 2, "newest", "zh-CN").Title {
		t.Fatalf("an unknown language: %q", m.Title)
	}
}

// TestPushFanOut: the pushes of an alarm to several users are one outbox row; each user
// gets their part in their summary under the row's delivery id; a user whose push service
// refuses gets rows of their own, tried again under the same id; a user with no browser gets
// failed rows saying why; the fan-out rows are settled once every user had their part.
func TestPushFanOut(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	svc := pushtest.Start(t)
	r.worker.Push = &PushKeys{DB: r.db}
	ann := r.user(t, "ann", "", false, "en-US", 0)
	li := r.user(t, "li", "", false, "ja-JP", 0)
	bo := r.user(t, "bo", "", false, "ko-KR", 0)
	r.browser(t, svc, ann)
	phone := r.browser(t, svc, li)
	svc.Down(phone.Endpoint, 503)
	err := r.db.InTx(ctx, func(tx *store.Tx) error {
		var rows []Row
		for i := int64(1); i <= 3; i++ {
			a := trip
			a.ID, a.StationName = i, fmt.Sprintf("Plant %d", i)
			for _, uid := range []int64{ann, li, bo} {
				rows = append(rows, Row{OrgID: r.org, Channel: ChannelPush, Target: uid, Event: AlarmRaised, SubjectID: a.ID, Data: a})
			}
		}
		return r.outbox.DirectMany(ctx, tx, rows)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE channel = 'push' AND target_id = 0"); n != 3 || r.count(t, "SELECT COUNT(*) FROM notify_outbox") != 3 {
		t.Fatalf("%d fan-out rows, want 3 and nothing else", n)
	}
	first := int64(r.count(t, "SELECT MIN(id) FROM notify_outbox"))
	if _, err := r.worker.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got := svc.Messages()
	if len(got) != 1 {
		t.Fatalf("%d pushes, want ann's", len(got))
	}
	if m := decode(t, got[0]); m.Count != 3 || m.ID != DeliveryID(first) || !strings.Contains(m.Body, "Plant 3") {
		t.Fatalf("ann's summary %+v", m)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE target_id = 0 AND state = 'sent'"); n != 3 {
		t.Fatalf("%d of 3 fan-out rows settled", n)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE target_id = ? AND state = 'failed' AND last_error LIKE '%no browser%'", bo); n != 3 {
		t.Fatalf("%d failed rows for bo, want 3", n)
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE target_id = ? AND state = 'pending' AND attempts = 1", li); n != 3 {
		t.Fatalf("%d rows for li to try again, want 3", n)
	}
	svc.Down(phone.Endpoint, 0)
	r.clock.Add(Backoff(1))
	if n, err := r.worker.RunOnce(ctx); err != nil || n != 3 {
		t.Fatalf("retry: %d, %v", n, err)
	}
	got = svc.Messages()
	if len(got) != 2 {
		t.Fatalf("%d pushes, want 2", len(got))
	}
	if m := decode(t, got[1]); m.Count != 3 || m.ID != DeliveryID(first) || m.Title != "新しいアラーム 3 件" {
		t.Fatalf("li's summary %+v, want the id %s", m, DeliveryID(first))
	}
	if n := r.count(t, "SELECT COUNT(*) FROM notify_outbox WHERE state = 'pending'"); n != 0 {
		t.Fatalf("%d deliveries still pending", n)
	}
}
