package alarm

import (
	"context"
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
	Sent     int    `json:"sent" doc:"alarms notified today by at least one method"`
	Held     int    `json:"held" doc:"alarms not notified today by any method: every chosen method's daily limit was reached"`
	Limit    int    `json:"limit" doc:"the in-site daily limit"`
	Reached  bool   `json:"reached" doc:"the in-site daily limit is reached"`
	Timezone string `json:"timezone"`
	// Methods counts each chosen method's day against its own limit.
	Methods []MethodToday `json:"methods"`
}

// MethodToday is one method's notifications of the user's local day.
type MethodToday struct {
	Method  int  `json:"method" doc:"1 in-site, 2 app push, 3 e-mail"`
	Sent    int  `json:"sent" doc:"alarms notified by this method today"`
	Held    int  `json:"held" doc:"alarms this method's daily limit held back today"`
	Limit   int  `json:"limit"`
	Reached bool `json:"reached" doc:"further alarms today are not notified by this method"`
}

// Today counts a user's alarm notifications of their local day (their settings' zone).
func Today(ctx context.Context, db *store.DB, userID int64, now time.Time) (NotifyToday, error) {
	st, err := LoadSettings(ctx, db, userID)
	if err != nil {
		return NotifyToday{}, err
	}
	return notifyToday(ctx, db, userID, st, now)
}

// notifyToday counts a user's notifications of their local day, in all and per method.
func notifyToday(ctx context.Context, db *store.DB, userID int64, st Settings, now time.Time) (NotifyToday, error) {
	loc := loadLocation(st.Timezone)
	from := dayStart(now, loc)
	local := now.In(loc)
	to := time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, loc).UnixMilli()
	out := NotifyToday{Date: local.Format("2006-01-02"), Limit: st.DailyLimit, Timezone: loc.String(), Methods: []MethodToday{}}
	var sent, held [4]int
	if err := db.QueryRow(ctx, `SELECT
		COALESCE(SUM(CASE WHEN outcome = 'sent' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN outcome = 'limited' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN methods & 2 <> 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN held & 2 <> 0 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN methods & 4 <> 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN held & 4 <> 0 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN methods & 8 <> 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN held & 8 <> 0 THEN 1 ELSE 0 END), 0)
		FROM alarm_notifications WHERE user_id = ? AND outcome IN ('sent', 'limited') AND created_at >= ? AND created_at < ?`,
		userID, from, to).Scan(&out.Sent, &out.Held, &sent[1], &held[1], &sent[2], &held[2], &sent[3], &held[3]); err != nil {
		return out, fmt.Errorf("alarm: unable to count notifications: %w", err)
	}
	for _, m := range []int{MethodInSite, MethodAppPush, MethodEmail} {
		if !st.has(st.Methods, m) {
			continue
		}
		lim := st.Limit(m)
		out.Methods = append(out.Methods, MethodToday{Method: m, Sent: sent[m], Held: held[m], Limit: lim, Reached: sent[m] >= lim})
	}
	out.Reached = sent[MethodInSite] >= st.DailyLimit
	return out, nil
}

// heldToday returns the methods (bits) that already held an alarm back from the user in
// their local day (so the limit's notice of each has been sent).
func heldToday(ctx context.Context, tx *store.Tx, userID int64, loc *time.Location, now time.Time) (int, error) {
	rows, err := tx.Query(ctx, `SELECT DISTINCT held FROM alarm_notifications WHERE user_id = ? AND outcome IN ('sent', 'limited')
		AND created_at >= ? AND held <> 0`, userID, dayStart(now, loc))
	if err != nil {
		return 0, fmt.Errorf("alarm: unable to read held notifications: %w", err)
	}
	defer rows.Close()
	bits := 0
	for rows.Next() {
		var b int
		if err := rows.Scan(&b); err != nil {
			return 0, err
		}
		bits |= b
	}
	return bits, rows.Err()
}

// limitKeys are the texts of each method's notice that its daily limit is reached.
var limitKeys = map[int][2]string{
	MethodInSite:  {"notify_limit_title", "notify_limit_content"},
	MethodAppPush: {"notify_limit_push_title", "notify_limit_push_content"},
	MethodEmail:   {"notify_limit_email_title", "notify_limit_email_content"},
}

// limitNotice is the message centre's notice that the user's daily limit of a method is
// reached.
func limitNotice(orgID, userID int64, st Settings, loc *time.Location, method int) message.New {
	k := limitKeys[method]
	n := st.Limit(method)
	return message.New{UserID: userID, OrgID: orgID, Kind: message.KindSystem, Type: message.TypeNotice,
		Title:   message.Text{Key: k[0], Args: []any{n}},
		Content: message.Text{Key: k[1], Args: []any{n, loc.String()}}, Priority: 2}
}
