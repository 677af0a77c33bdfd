package alarm

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/store"
)

// A user's daily limit that is reached says so: the first alarm held back in a user's
// local day sends them one notice in the message centre (limitNotice), and their
// notification settings answer how many were sent and held back today (Today).

// NotifyToday is a user's alarm notifications of their local day.
type NotifyToday struct {
	Date     string `json:"date" doc:"the local day counted, yyyy-MM-dd in the settings' timezone"`
	Sent     int    `json:"sent" doc:"alarms notified today"`
	Held     int    `json:"held" doc:"alarms not notified today because the daily limit was reached"`
	Limit    int    `json:"limit"`
	Reached  bool   `json:"reached" doc:"the daily limit is reached: further alarms today are not notified"`
	Timezone string `json:"timezone"`
}

// Today counts a user's alarm notifications of their local day (their settings' zone).
func Today(ctx context.Context, db *store.DB, userID int64, now time.Time) (NotifyToday, error) {
	st, err := LoadSettings(ctx, db, userID)
	if err != nil {
		return NotifyToday{}, err
	}
	return notifyToday(ctx, db, userID, st, now)
}

// notifyToday counts a user's notifications of their local day.
func notifyToday(ctx context.Context, db *store.DB, userID int64, st Settings, now time.Time) (NotifyToday, error) {
	loc := loadLocation(st.Timezone)
	from := dayStart(now, loc)
	local := now.In(loc)
	to := time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, loc).UnixMilli()
	out := NotifyToday{Date: local.Format("2006-01-02"), Limit: st.DailyLimit, Timezone: loc.String()}
	for _, c := range []struct {
		outcome string
		n       *int
	}{{"sent", &out.Sent}, {"limited", &out.Held}} {
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM alarm_notifications WHERE user_id = ? AND outcome = ?
			AND created_at >= ? AND created_at < ?`, userID, c.outcome, from, to).Scan(c.n); err != nil {
			return out, fmt.Errorf("alarm: unable to count notifications: %w", err)
		}
	}
	out.Reached = out.Sent >= st.DailyLimit
	return out, nil
}

// heldToday tells whether an alarm was already held back from the user in their local
// day (so the limit's notice has been sent).
func heldToday(ctx context.Context, tx *store.Tx, userID int64, loc *time.Location, now time.Time) (bool, error) {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM alarm_notifications WHERE user_id = ? AND outcome = 'limited' AND created_at >= ? LIMIT 1`,
		userID, dayStart(now, loc)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// limitNotice is the message centre's notice that the user's daily limit is reached.
func limitNotice(orgID, userID int64, st Settings, loc *time.Location) message.New {
	return message.New{UserID: userID, OrgID: orgID, Kind: message.KindSystem, Type: message.TypeNotice,
		Title:   message.Text{Key: "notify_limit_title", Args: []any{st.DailyLimit}},
		Content: message.Text{Key: "notify_limit_content", Args: []any{st.DailyLimit, loc.String()}}, Priority: 2}
}
