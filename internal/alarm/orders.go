package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Order is a work order opened from an alarm, as the alarm's detail lists it.
type Order struct {
	ID         int64     `json:"id"`
	Number     string    `json:"number" doc:"WO-yyyyMMdd-id"`
	Title      string    `json:"title" doc:"in the caller's language when it was made from the alarm's description"`
	Status     int       `json:"status" doc:"now: 1 pending accept, 2 pending process, 3 executing, 4 finished, 5 rejected"`
	Open       bool      `json:"open" doc:"statuses 1-3: the alarm may not get another order meanwhile"`
	SubmitTime time.Time `json:"submitTime"`
	UpdateTime time.Time `json:"updateTime" doc:"the last move (finished or rejected at, once done)"`
}

// maxOrders bounds the orders an alarm's detail lists (newest first).
const maxOrders = 20

// ordersOf lists the work orders opened from an alarm, newest first, with their status now.
// The alarm is visible to the caller, and so are its station's orders.
func ordersOf(ctx context.Context, db *store.DB, alarmID int64, locale string) ([]Order, error) {
	rows, err := db.Query(ctx, `SELECT id, number, title, title_key, title_args, status, created_at, updated_at FROM work_orders
		WHERE alarm_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, alarmID, maxOrders)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read its work orders: %w", err)
	}
	defer rows.Close()
	out := []Order{}
	for rows.Next() {
		var o Order
		var key, args string
		var created, updated int64
		if err := rows.Scan(&o.ID, &o.Number, &o.Title, &key, &args, &o.Status, &created, &updated); err != nil {
			return nil, err
		}
		if key != "" && httpapi.HasMessage(key) {
			var list []any
			_ = json.Unmarshal([]byte(args), &list)
			o.Title = httpapi.T(locale, key, list...)
		}
		o.Open = o.Status >= 1 && o.Status <= 3
		o.SubmitTime, o.UpdateTime = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
		out = append(out, o)
	}
	return out, rows.Err()
}
