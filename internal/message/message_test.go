package message_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

type events struct{ got []message.Event }

func (e *events) Publish(_ context.Context, ev message.Event) error {
	e.got = append(e.got, ev)
	return nil
}

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2025, 5, 21, 8, 0, 0, 0, time.UTC)
		pub := &events{}
		s := &message.Store{DB: db, Now: func() time.Time { return now }, Pub: pub}
		a, o := acc.AdminID, acc.OperatorID

		// Invalid messages are refused whole.
		if _, err := s.Create(ctx, message.New{UserID: a, OrgID: acc.OrgID, Kind: "gossip", Title: message.Plain("x")}); !errors.Is(err, message.ErrInvalid) {
			t.Fatalf("unknown kind: %v", err)
		}
		if _, err := s.Create(ctx, message.New{UserID: a, OrgID: acc.OrgID, Kind: message.KindSystem, Title: message.Plain("ok")},
			message.New{UserID: a, OrgID: acc.OrgID, Kind: message.KindSystem}); !errors.Is(err, message.ErrInvalid) {
			t.Fatalf("no title: %v", err)
		}
		if n := count(t, db); n != 0 {
			t.Fatalf("a refused batch stored %d messages", n)
		}

		// A batch with repeated rows (same user, kind and title) keeps every row, in order.
		early := now.Add(-2 * time.Hour)
		s.Now = func() time.Time { return early }
		if _, err := s.Create(ctx, message.New{UserID: a, OrgID: acc.OrgID, Kind: message.KindSystem, Title: message.Plain("Before sign-in")}); err != nil {
			t.Fatal(err)
		}
		s.Now = func() time.Time { return now }
		var batch []message.New
		for i := 0; i < 450; i++ {
			u := a
			if i%3 == 0 {
				u = o
			}
			batch = append(batch, message.New{UserID: u, OrgID: acc.OrgID, Kind: message.KindSystem, Title: message.Plain("Maintenance tonight"),
				Content: message.Text{Key: "too_long", Args: []any{i}}})
		}
		recs, err := s.Create(ctx, batch...)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range recs {
			if r.ID == 0 || r.UserID != batch[i].UserID || r.Content.Args[0] != i || r.Type != message.TypeMessage || r.Priority != 2 {
				t.Fatalf("record %d: %+v", i, r)
			}
		}
		if len(pub.got) != 2 || len(pub.got[1].Messages) != 450 {
			t.Fatalf("announced %d events", len(pub.got))
		}

		since := now.Add(-time.Hour)
		list, total, err := s.List(ctx, message.Filter{UserID: a, Since: since, Status: -1, Page: 2, Size: 100})
		if err != nil || total != 300 || len(list) != 100 {
			t.Fatalf("list: %d of %d (%v)", len(list), total, err)
		}
		if got := list[0].Render("ja-JP").Content; !strings.HasSuffix(got, " 文字以内で入力してください") || list[0].Render("en-US").Title != "Maintenance tonight" {
			t.Fatalf("rendered %q", got)
		}
		c, err := s.Counts(ctx, a, since)
		if err != nil || c.Unread != 300 || c.UnprocessedAlarm != 0 || c.LastID != recs[len(recs)-1].ID {
			t.Fatalf("counts %+v (%v)", c, err)
		}
		if c, _ := s.Counts(ctx, a, early.Add(-time.Minute)); c.Unread != 301 {
			t.Fatalf("counts since before the early message: %+v", c)
		}

		// Reading: only one's own; an unknown id refuses the whole call.
		var opMsg int64
		for _, r := range recs {
			if r.UserID == o {
				opMsg = r.ID
				break
			}
		}
		changed, unknown, err := s.MarkRead(ctx, a, []int64{list[0].ID, opMsg})
		if err != nil || changed != 0 || len(unknown) != 1 || unknown[0] != opMsg {
			t.Fatalf("mark read with another's id: %d %v %v", changed, unknown, err)
		}
		if changed, _, err := s.MarkRead(ctx, a, []int64{list[0].ID, list[1].ID}); err != nil || changed != 2 {
			t.Fatalf("mark read: %d %v", changed, err)
		}
		if last := pub.got[len(pub.got)-1]; len(last.CountsOf) != 1 || last.CountsOf[0] != a {
			t.Fatalf("read did not announce counters: %+v", last)
		}
		if n, err := s.MarkAllRead(ctx, a, since); err != nil || n != 298 {
			t.Fatalf("mark all read: %d %v", n, err)
		}
		if c, _ := s.Counts(ctx, a, since); c.Unread != 0 {
			t.Fatalf("after read all: %+v", c)
		}
		if c, _ := s.Counts(ctx, o, since); c.Unread != 150 {
			t.Fatalf("the operator's counters changed: %+v", c)
		}
	})
}

func count(t *testing.T, db *store.DB) int {
	var n int
	if err := db.QueryRow(context.Background(), "SELECT COUNT(*) FROM messages").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
