package message

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Batch is one message sent to many users with the same text (an alarm told to everyone
// who is to hear of it): live connections render it once per locale. Message holds the
// shared fields (its ID and UserID are zero); IDs[i] is the id of Users[i]'s copy.
type Batch struct {
	Message Record  `json:"message"`
	Users   []int64 `json:"users"`
	IDs     []int64 `json:"ids"`
	// Opened says the batch is the first word of a new unprocessed alarm (Message.AlarmID):
	// when the unprocessed-alarm counter counts alarms (Store.Pending), the receivers'
	// counters count it from now on.
	Opened bool `json:"opened,omitempty"`
	// Delivery, when set, follows the batch's frames on this replica (in process only).
	Delivery *Delivery `json:"-"`
}

// Records expands the event's messages and batches into one record per user.
func (ev *Event) Records() []Record {
	out := append([]Record(nil), ev.Messages...)
	if b := ev.Batch; b != nil {
		for i, u := range b.Users {
			r := b.Message
			r.UserID, r.ID = u, b.IDs[i]
			out = append(out, r)
		}
	}
	return out
}

// ReserveIDs takes n message ids inside a transaction, for InsertBatch: they are known
// before the rows are written, so that a batch can be announced first.
func (s *Store) ReserveIDs(ctx context.Context, tx *store.Tx, n int) ([]int64, error) {
	out := make([]int64, 0, n)
	if n == 0 {
		return out, nil
	}
	if tx.Dialect == store.Postgres {
		rows, err := tx.Query(ctx, "SELECT nextval(pg_get_serial_sequence('messages', 'id')) FROM generate_series(1, ?)", n)
		if err != nil {
			return nil, fmt.Errorf("message: unable to reserve ids: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			out = append(out, id)
		}
		return out, rows.Err()
	}
	// SQLite (AUTOINCREMENT): move the table's sequence past the block; new rows written
	// without an id take the ids after it.
	if _, err := tx.Exec(ctx, `INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', COALESCE((SELECT MAX(id) FROM messages), 0)
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages')`); err != nil {
		return nil, fmt.Errorf("message: unable to reserve ids: %w", err)
	}
	var last int64
	if err := tx.QueryRow(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(id) FROM messages), 0)) + ?
		WHERE name = 'messages' RETURNING seq`, n).Scan(&last); err != nil {
		return nil, fmt.Errorf("message: unable to reserve ids: %w", err)
	}
	for id := last - int64(n) + 1; id <= last; id++ {
		out = append(out, id)
	}
	return out, nil
}

// NewBatch checks a message to many users and returns the batch to announce, with
// created as its time; ids come from ReserveIDs. Write it with InsertBatch.
func NewBatch(n New, users, ids []int64, created time.Time) (*Batch, error) {
	if n.Type == "" {
		n.Type = defaultType(n.Kind)
	}
	if n.Priority == 0 {
		n.Priority = 2
	}
	probe := n
	probe.UserID = 1
	if !probe.valid() || len(users) != len(ids) {
		return nil, ErrInvalid
	}
	created = created.UTC().Truncate(time.Millisecond)
	return &Batch{Message: Record{Kind: n.Kind, Type: n.Type, Title: n.Title, SubTitle: n.SubTitle, Content: n.Content,
		Avatar: n.Avatar, Priority: n.Priority, ProcessStatus: n.ProcessStatus, TimeoutStatus: n.TimeoutStatus,
		AlarmID: n.AlarmID, RefID: n.RefID, Created: created, Updated: created, EventAt: eventAt(n.EventAt), Zone: n.Zone}, Users: users, IDs: ids}, nil
}

// batchRows bounds the rows of one INSERT.
const batchRows = 1000

// InsertBatch writes a batch's rows (one per user, with their reserved ids) inside a
// transaction of the given organisation: a statement per thousand rows, each naming only
// the rows' ids and users beside the shared fields.
func (s *Store) InsertBatch(ctx context.Context, tx *store.Tx, orgID int64, b *Batch) error {
	m := &b.Message
	a, err := json.Marshal(stored(m.Title.Args, m.SubTitle.Args, m.Content.Args, m.EventAt, m.Zone))
	if err != nil {
		return fmt.Errorf("message: unable to encode arguments: %w", err)
	}
	var alarm any
	if m.AlarmID != 0 {
		alarm = m.AlarmID
	}
	at := m.Created.UnixMilli()
	shared := []any{orgID, m.Kind, m.Type, m.Title.Key, m.SubTitle.Key, m.Avatar, m.Content.Key, string(a), m.Priority,
		m.ProcessStatus, m.TimeoutStatus, alarm, m.RefID, at, at}
	for start := 0; start < len(b.Users); start += batchRows {
		end := min(start+batchRows, len(b.Users))
		var q strings.Builder
		q.WriteString("INSERT INTO messages (id, " + insertColumns + `) SELECT v.column1, v.column2, CAST(? AS BIGINT),
			CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 0,
			CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),
			CAST(? AS BIGINT) FROM (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))`)
		args := append(make([]any, 0, len(shared)+2*(end-start)), shared...)
		for i := start; i < end; i++ {
			if i > start {
				q.WriteString(", (?, ?)")
			}
			args = append(args, b.IDs[i], b.Users[i])
		}
		q.WriteString(") AS v")
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("message: unable to insert: %w", err)
		}
	}
	return nil
}

// A Follower is a Publisher that can follow a batch's frames on this replica.
type Follower interface {
	// FollowsDelivery reports whether a Batch.Delivery set before Publish will be told
	// of the batch's frames.
	FollowsDelivery() bool
}

// AnnounceBatch publishes a batch to the live connections. When the publisher follows
// the frames it returns the batch's Delivery, which says when this replica has written
// them; otherwise nil.
func (s *Store) AnnounceBatch(ctx context.Context, b *Batch) *Delivery {
	if s.Pub == nil || b == nil || len(b.Users) == 0 {
		return nil
	}
	if f, ok := s.Pub.(Follower); ok && f.FollowsDelivery() {
		b.Delivery = NewDelivery()
	}
	_ = s.Pub.Publish(ctx, Event{Batch: b})
	return b.Delivery
}

// eventAt is an event's instant as stored (to the millisecond, UTC; zero stays zero).
func eventAt(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Millisecond)
}
