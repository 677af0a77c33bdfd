package message_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// A batch takes its ids first, is announced with them, and its rows (more than one
// statement's worth) are written with those ids; messages written afterwards take later ids.
func TestBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2025, 5, 21, 8, 0, 0, 0, time.UTC)
		pub := &events{}
		s := &message.Store{DB: db, Now: func() time.Time { return now }, Pub: pub}
		first, err := s.Create(ctx, message.New{UserID: acc.AdminID, OrgID: acc.OrgID, Kind: message.KindSystem, Title: message.Plain("before")})
		if err != nil {
			t.Fatal(err)
		}
		users := make([]int64, 2301)
		for i := range users {
			users[i] = []int64{acc.AdminID, acc.OperatorID}[i%2]
		}
		var b *message.Batch
		err = db.InTx(ctx, func(tx *store.Tx) error {
			ids, err := s.ReserveIDs(ctx, tx, len(users))
			if err != nil {
				return err
			}
			b, err = message.NewBatch(message.New{OrgID: acc.OrgID, Kind: message.KindAlarm, Title: message.Text{Key: "alarm_rule_grid_fault"},
				SubTitle: message.Plain("Plant · Inverter 1"), Content: message.Text{Key: "alarm_desc_offline", Args: []any{15}},
				Priority: 3, ProcessStatus: "pending"}, users, ids, now)
			if err != nil {
				return err
			}
			s.AnnounceBatch(ctx, b)
			return s.InsertBatch(ctx, tx, acc.OrgID, b)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(pub.got) != 2 || pub.got[1].Batch != b {
			t.Fatalf("events %+v", pub.got)
		}
		seen := map[int64]bool{}
		for i, id := range b.IDs {
			if id <= first[0].ID || seen[id] || i > 0 && id <= b.IDs[i-1] {
				t.Fatalf("id %d (%d) after %d: not a fresh increasing id", i, id, first[0].ID)
			}
			seen[id] = true
		}
		recs := pub.got[1].Records()
		if len(recs) != len(users) {
			t.Fatalf("%d records", len(recs))
		}
		for _, i := range []int{0, 1, 1000, 2300} {
			got, err := s.Get(ctx, users[i], b.IDs[i])
			if err != nil {
				t.Fatalf("row %d: %v", i, err)
			}
			want := recs[i]
			if got.UserID != want.UserID || got.ID != want.ID || got.Title.Key != want.Title.Key || got.SubTitle.Key != want.SubTitle.Key ||
				got.Content.Key != want.Content.Key || len(got.Content.Args) != 1 || got.Priority != 3 || got.ProcessStatus != "pending" ||
				got.Type != message.TypeNotice || !got.Created.Equal(now) || got.Status != message.Unread {
				t.Fatalf("row %d: %+v, announced %+v", i, got, want)
			}
		}
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM messages WHERE kind = 'alarm'").Scan(&n); err != nil || n != len(users) {
			t.Fatalf("%d rows (%v)", n, err)
		}
		after, err := s.Create(ctx, message.New{UserID: acc.AdminID, OrgID: acc.OrgID, Kind: message.KindSystem, Title: message.Plain("after")})
		if err != nil {
			t.Fatal(err)
		}
		if after[0].ID <= b.IDs[len(b.IDs)-1] {
			t.Fatalf("a later message took id %d, the batch's last is %d", after[0].ID, b.IDs[len(b.IDs)-1])
		}
	})
}
