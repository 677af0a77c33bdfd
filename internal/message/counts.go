package message

import (
	"context"
	"fmt"
	"time"
)

// A user's counters (unread, unprocessed) and marking messages read.

// Counts are a user's message counters since the session began.
type Counts struct {
	Unread           int `json:"unread"`
	UnprocessedAlarm int `json:"unprocessedAlarm" doc:"unprocessed alarms of the stations the user may see, whenever they began"`
	// LastID is the newest message of the user when counted (live connections add the
	// messages after it as they arrive).
	LastID int64 `json:"-"`
	// LastAlarm is the newest alarm when counted, where UnprocessedAlarm counts alarms
	// (Store.Pending): a batch that opens a newer one adds it.
	LastAlarm int64 `json:"-"`
}

// Reader is one reader of counters: a user and the start of their session.
type Reader struct {
	UserID int64
	Since  time.Time
}

// Counts returns the counters of one reader.
func (s *Store) Counts(ctx context.Context, userID int64, since time.Time) (Counts, error) {
	m, err := s.CountsOf(ctx, []Reader{{userID, since}})
	return m[Reader{userID, since}], err
}

// CountsOf returns the counters of many readers with a query per few hundred users.
func (s *Store) CountsOf(ctx context.Context, readers []Reader) (map[Reader]Counts, error) {
	out := make(map[Reader]Counts, len(readers))
	byUser := map[int64][]Reader{}
	var users []int64
	minSince := map[int64]int64{}
	for _, r := range readers {
		if _, dup := out[r]; dup {
			continue
		}
		out[r] = Counts{}
		if _, ok := byUser[r.UserID]; !ok {
			users = append(users, r.UserID)
			minSince[r.UserID] = r.Since.UnixMilli()
		}
		byUser[r.UserID] = append(byUser[r.UserID], r)
		minSince[r.UserID] = min(minSince[r.UserID], r.Since.UnixMilli())
	}
	for start := 0; start < len(users); start += 400 {
		chunk := users[start:min(start+400, len(users))]
		since := minSince[chunk[0]]
		args := make([]any, 0, len(chunk)+1)
		for _, u := range chunk {
			since = min(since, minSince[u])
		}
		args = append(args, since)
		for _, u := range chunk {
			args = append(args, u)
		}
		// Only the rows that count: unread messages and messages of unprocessed alarms.
		rows, err := s.DB.Query(ctx, `SELECT m.user_id, m.created_at, m.status,
			CASE WHEN m.kind = 'alarm' AND a.deal_status = 0 THEN 1 ELSE 0 END
			FROM messages m LEFT JOIN alarms a ON a.id = m.alarm_id
			WHERE m.created_at >= ? AND m.user_id IN (`+placeholders(len(chunk))+`)
			AND (m.status = 0 OR (m.kind = 'alarm' AND a.deal_status = 0))`, args...)
		if err != nil {
			return nil, fmt.Errorf("message: unable to count: %w", err)
		}
		for rows.Next() {
			var user, created int64
			var status, unprocessed int
			if err := rows.Scan(&user, &created, &status, &unprocessed); err != nil {
				rows.Close()
				return nil, err
			}
			for _, r := range byUser[user] {
				if created < r.Since.UnixMilli() {
					continue
				}
				c := out[r]
				if status == Unread {
					c.Unread++
				}
				c.UnprocessedAlarm += unprocessed
				out[r] = c
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		rows, err = s.DB.Query(ctx, "SELECT user_id, MAX(id) FROM messages WHERE user_id IN ("+placeholders(len(chunk))+
			") GROUP BY user_id", args[1:]...)
		if err != nil {
			return nil, fmt.Errorf("message: unable to count: %w", err)
		}
		for rows.Next() {
			var user, last int64
			if err := rows.Scan(&user, &last); err != nil {
				rows.Close()
				return nil, err
			}
			for _, r := range byUser[user] {
				c := out[r]
				c.LastID = last
				out[r] = c
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	if s.Pending != nil {
		pending, err := s.Pending(ctx, users)
		if err != nil {
			return nil, err
		}
		var lastAlarm int64
		if err := s.DB.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM alarms").Scan(&lastAlarm); err != nil {
			return nil, fmt.Errorf("message: unable to count: %w", err)
		}
		for r, c := range out {
			c.UnprocessedAlarm, c.LastAlarm = pending[r.UserID], lastAlarm
			out[r] = c
		}
	}
	return out, nil
}

// MarkRead sets the given messages of a user to read. Ids that are not the user's are
// returned as unknown and nothing is changed.
func (s *Store) MarkRead(ctx context.Context, userID int64, ids []int64) (changed int64, unknown []int64, err error) {
	if len(ids) == 0 {
		return 0, nil, nil
	}
	args := []any{userID}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := s.DB.Query(ctx, "SELECT id FROM messages WHERE user_id = ? AND id IN ("+placeholders(len(ids))+")", args...)
	if err != nil {
		return 0, nil, fmt.Errorf("message: unable to read ids: %w", err)
	}
	own := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, nil, err
		}
		own[id] = true
	}
	rows.Close()
	for _, id := range ids {
		if !own[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return 0, unknown, nil
	}
	now := s.now().UnixMilli()
	res, err := s.DB.Exec(ctx, "UPDATE messages SET status = 1, updated_at = ? WHERE status = 0 AND user_id = ? AND id IN ("+
		placeholders(len(ids))+")", append([]any{now}, args...)...)
	if err != nil {
		return 0, nil, fmt.Errorf("message: unable to mark read: %w", err)
	}
	changed, _ = res.RowsAffected()
	if changed > 0 {
		s.CountsChanged(ctx, []int64{userID})
	}
	return changed, nil, nil
}

// MarkAllRead sets every unread message of a user since a session began to read.
func (s *Store) MarkAllRead(ctx context.Context, userID int64, since time.Time) (int64, error) {
	res, err := s.DB.Exec(ctx, "UPDATE messages SET status = 1, updated_at = ? WHERE status = 0 AND user_id = ? AND created_at >= ?",
		s.now().UnixMilli(), userID, since.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("message: unable to mark read: %w", err)
	}
	n, _ := res.RowsAffected()
	if n > 0 {
		s.CountsChanged(ctx, []int64{userID})
	}
	return n, nil
}

// AlarmProcessed marks the messages about an alarm as processed and tells their readers
// that the unprocessed-alarm counter changed.
func (s *Store) AlarmProcessed(ctx context.Context, alarmID int64) error {
	rows, err := s.DB.Query(ctx, "SELECT DISTINCT user_id FROM messages WHERE alarm_id = ?", alarmID)
	if err != nil {
		return fmt.Errorf("message: unable to find alarm readers: %w", err)
	}
	var users []int64
	for rows.Next() {
		var u int64
		if err := rows.Scan(&u); err != nil {
			rows.Close()
			return err
		}
		users = append(users, u)
	}
	rows.Close()
	if _, err := s.DB.Exec(ctx, "UPDATE messages SET process_status = 'processed', updated_at = ? WHERE alarm_id = ?",
		s.now().UnixMilli(), alarmID); err != nil {
		return fmt.Errorf("message: unable to update alarm messages: %w", err)
	}
	s.CountsChanged(ctx, users)
	return nil
}

// CountsAlarms reports whether the unprocessed-alarm counter counts alarms (Pending set)
// rather than alarm messages: then a new alarm message does not move it by itself.
func (s *Store) CountsAlarms() bool { return s.Pending != nil }
