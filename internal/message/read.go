package message

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Reading a user's messages: the list with its filter, and one message.

const recordColumns = `m.id, m.user_id, m.kind, m.type, m.title, m.sub_title, m.avatar, m.content, m.args, m.status,
	m.priority, m.process_status, m.timeout_status, COALESCE(m.alarm_id, 0), m.ref_id, m.created_at, m.updated_at`

func scanRecord(row interface{ Scan(...any) error }) (Record, error) {
	var r Record
	var args string
	var created, updated int64
	err := row.Scan(&r.ID, &r.UserID, &r.Kind, &r.Type, &r.Title.Key, &r.SubTitle.Key, &r.Avatar, &r.Content.Key, &args,
		&r.Status, &r.Priority, &r.ProcessStatus, &r.TimeoutStatus, &r.AlarmID, &r.RefID, &created, &updated)
	if err != nil {
		return r, err
	}
	var a storedArgs
	if err := json.Unmarshal([]byte(args), &a); err == nil {
		r.Title.Args, r.SubTitle.Args, r.Content.Args = a.Title, a.SubTitle, a.Content
		if a.At != 0 {
			r.EventAt = time.UnixMilli(a.At).UTC()
		}
		r.Zone = a.Zone
	}
	r.Created = time.UnixMilli(created).UTC()
	r.Updated = time.UnixMilli(updated).UTC()
	return r, nil
}

// Filter narrows a user's message list.
type Filter struct {
	UserID int64
	Since  time.Time
	Kind   string // "" for every kind
	Status int    // -1 for both, else Unread or Read
	Page   int
	Size   int
}

// List returns a user's messages since f.Since, newest first, and the total.
func (s *Store) List(ctx context.Context, f Filter) ([]Record, int64, error) {
	where := " FROM messages m WHERE m.user_id = ? AND m.created_at >= ?"
	args := []any{f.UserID, f.Since.UnixMilli()}
	if f.Kind != "" {
		where += " AND m.kind = ?"
		args = append(args, f.Kind)
	}
	if f.Status >= 0 {
		where += " AND m.status = ?"
		args = append(args, f.Status)
	}
	var total int64
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*)"+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("message: unable to count: %w", err)
	}
	q := "SELECT " + recordColumns + where + " ORDER BY m.created_at DESC, m.id DESC"
	if f.Size > 0 {
		q += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Size, (max(f.Page, 1)-1)*f.Size)
	}
	rows, err := s.DB.Query(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("message: unable to list: %w", err)
	}
	defer rows.Close()
	out := []Record{}
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// Get returns one message of a user.
func (s *Store) Get(ctx context.Context, userID, id int64) (Record, error) {
	r, err := scanRecord(s.DB.QueryRow(ctx, "SELECT "+recordColumns+" FROM messages m WHERE m.id = ? AND m.user_id = ?", id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, store.ErrNotFound
	}
	return r, err
}
