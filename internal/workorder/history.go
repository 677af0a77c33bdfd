package workorder

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Event is one recorded transition or assignment.
type Event struct {
	ID         int64     `json:"id"`
	Action     string    `json:"action" doc:"create, accept, reject, start, finish, close or assign"`
	FromStatus int       `json:"fromStatus"`
	ToStatus   int       `json:"toStatus"`
	UserID     int64     `json:"userId"`
	UserName   string    `json:"userName"`
	Comment    string    `json:"comment"`
	Time       time.Time `json:"time"`
}

// Comment is a remark on an order.
type Comment struct {
	ID       int64     `json:"id"`
	UserID   int64     `json:"userId"`
	UserName string    `json:"userName"`
	Body     string    `json:"body"`
	Time     time.Time `json:"time"`
}

// Attachment is a file kept with an order (its bytes are in the blob store).
type Attachment struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	ContentType string    `json:"contentType"`
	Size        int64     `json:"size"`
	UserName    string    `json:"userName"`
	Time        time.Time `json:"time"`
}

const userName = "COALESCE(NULLIF(u.name, ''), u.username, '')"

func events(ctx context.Context, db *store.DB, orderID int64) ([]Event, error) {
	rows, err := db.Query(ctx, `SELECT e.id, e.action, e.from_status, e.to_status, COALESCE(e.user_id, 0), `+userName+`,
		e.comment, e.created_at FROM work_order_events e LEFT JOIN users u ON u.id = e.user_id
		WHERE e.order_id = ? ORDER BY e.created_at, e.id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read events: %w", err)
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		var e Event
		var at int64
		if err := rows.Scan(&e.ID, &e.Action, &e.FromStatus, &e.ToStatus, &e.UserID, &e.UserName, &e.Comment, &at); err != nil {
			return nil, err
		}
		e.Time = ms(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

func comments(ctx context.Context, db *store.DB, orderID int64) ([]Comment, error) {
	rows, err := db.Query(ctx, `SELECT c.id, COALESCE(c.user_id, 0), `+userName+`, c.body, c.created_at
		FROM work_order_comments c LEFT JOIN users u ON u.id = c.user_id WHERE c.order_id = ? ORDER BY c.created_at, c.id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read comments: %w", err)
	}
	defer rows.Close()
	out := []Comment{}
	for rows.Next() {
		var c Comment
		var at int64
		if err := rows.Scan(&c.ID, &c.UserID, &c.UserName, &c.Body, &at); err != nil {
			return nil, err
		}
		c.Time = ms(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

func attachments(ctx context.Context, db *store.DB, orderID int64) ([]Attachment, error) {
	rows, err := db.Query(ctx, `SELECT f.id, f.name, f.content_type, f.size, `+userName+`, f.created_at
		FROM work_order_attachments f LEFT JOIN users u ON u.id = f.user_id WHERE f.order_id = ? ORDER BY f.id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read attachments: %w", err)
	}
	defer rows.Close()
	out := []Attachment{}
	for rows.Next() {
		var a Attachment
		var at int64
		if err := rows.Scan(&a.ID, &a.Name, &a.ContentType, &a.Size, &a.UserName, &at); err != nil {
			return nil, err
		}
		a.Time = ms(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

func ccUsers(ctx context.Context, db *store.DB, orderID int64) ([]int64, error) {
	rows, err := db.Query(ctx, "SELECT user_id FROM work_order_cc WHERE order_id = ? ORDER BY user_id", orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read copies: %w", err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
