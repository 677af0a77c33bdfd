package workorder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Limits of what a client may send.
const (
	MaxTitleLen       = 100
	MaxDescriptionLen = 2000
	MaxCommentLen     = 1000
	MaxCC             = 20
	MaxPlanDays       = 366
)

// Input opens a work order.
type Input struct {
	Title          string  `json:"title" validate:"required" doc:"at most 100 characters; from an alarm, its description when empty"`
	Description    string  `json:"description" doc:"at most 2000 characters"`
	StationID      int64   `json:"stationId" doc:"a visible station (required unless alarmId is given)"`
	AlarmID        int64   `json:"alarmId" doc:"open the order from this alarm (one open order per alarm)"`
	Priority       int     `json:"priority" validate:"required" doc:"1 low, 2 normal, 3 urgent, 4 very urgent"`
	AssigneeUserID int64   `json:"assigneeUserId" doc:"the processor, a user of the organisation who sees the station"`
	AssigneeDeptID int64   `json:"assigneeDeptId" doc:"or a department whose member accepts it"`
	CCUserIDs      []int64 `json:"ccUserIds" doc:"users it is copied to (at most 20)"`
	PlannedStart   string  `json:"plannedStart" validate:"required" doc:"RFC 3339"`
	PlannedEnd     string  `json:"plannedEnd" validate:"required" doc:"RFC 3339, after plannedStart, within 366 days; the timeout runs from it"`
	start, end     time.Time
}

func instant(v *httpapi.Validator, field, s string) time.Time {
	if strings.TrimSpace(s) == "" {
		v.Add(field, "required")
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		v.Add(field, "invalid_format")
	}
	return t
}

func cleanText(v *httpapi.Validator, field, s string, max int, required bool) string {
	s = strings.TrimSpace(s)
	if required && !v.Required(field, s) {
		return s
	}
	v.MaxLen(field, s, max)
	if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
		v.Add(field, "invalid_format")
	}
	return s
}

// Validate checks the fields a client sent (the ids are checked against the database
// by Create).
func (in *Input) Validate(fromAlarm bool) error {
	var v httpapi.Validator
	in.Title = cleanText(&v, "title", in.Title, MaxTitleLen, !fromAlarm)
	if strings.ContainsAny(in.Title, "<>") {
		// titles travel into exports and messages as plain text
		v.Add("title", "wo_title_chars")
	}
	in.Description = cleanText(&v, "description", in.Description, MaxDescriptionLen, false)
	if in.StationID < 0 {
		v.Add("stationId", "invalid_format")
	} else if in.StationID == 0 && !fromAlarm {
		v.Add("stationId", "required")
	}
	if in.AlarmID < 0 {
		v.Add("alarmId", "invalid_format")
	}
	if in.Priority < 1 || in.Priority > 4 {
		v.Add("priority", "one_of", "1, 2, 3, 4")
	}
	if in.AssigneeUserID < 0 {
		v.Add("assigneeUserId", "invalid_format")
	}
	if in.AssigneeDeptID < 0 {
		v.Add("assigneeDeptId", "invalid_format")
	}
	if in.AssigneeUserID > 0 && in.AssigneeDeptID > 0 {
		v.Add("assigneeDeptId", "wo_user_or_dept")
	}
	if len(in.CCUserIDs) > MaxCC {
		v.Add("ccUserIds", "too_many", MaxCC)
	}
	for _, id := range in.CCUserIDs {
		if id <= 0 {
			v.Add("ccUserIds", "invalid_format")
			break
		}
	}
	in.start = instant(&v, "plannedStart", in.PlannedStart)
	in.end = instant(&v, "plannedEnd", in.PlannedEnd)
	switch {
	case in.start.IsZero() || in.end.IsZero():
	case !in.end.After(in.start):
		v.Add("plannedEnd", "range_reversed")
	case in.end.Sub(in.start) > MaxPlanDays*24*time.Hour:
		v.Add("plannedEnd", "range_too_long_days", MaxPlanDays)
	}
	return v.Err()
}

// principalOf is what a user may see, to check that an assignee sees the station.
func principalOf(u *org.User) *httpapi.Principal {
	return &httpapi.Principal{UserID: u.ID, OrgID: u.OrgID, DeptID: u.DeptID, Role: u.Role, StationAuthority: u.StationAuthority}
}

// checkAssignee checks a processor: an active user of the organisation who sees the
// station, or a department of the organisation.
func checkAssignee(ctx context.Context, db *store.DB, p *httpapi.Principal, stationID, userID, deptID int64) error {
	if userID > 0 {
		u, err := org.UserByID(ctx, db, userID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (u.OrgID != p.OrgID || u.Status != 1)) {
			return httpapi.InvalidField("assigneeUserId", "unknown_ids", userID)
		}
		if err != nil {
			return httpapi.Internal(err)
		}
		if _, err := station.Get(ctx, db, principalOf(u), stationID); errors.Is(err, store.ErrNotFound) {
			return httpapi.InvalidField("assigneeUserId", "wo_assignee_no_station")
		} else if err != nil {
			return httpapi.Internal(err)
		}
	}
	if deptID > 0 {
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM departments WHERE id = ? AND org_id = ?", deptID, p.OrgID).Scan(&n); err != nil {
			return httpapi.Internal(err)
		}
		if n == 0 {
			return httpapi.InvalidField("assigneeDeptId", "unknown_ids", deptID)
		}
	}
	return nil
}

func checkCC(ctx context.Context, db *store.DB, p *httpapi.Principal, ids []int64) ([]int64, error) {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		var n int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM users WHERE id = ? AND org_id = ?", id, p.OrgID).Scan(&n); err != nil {
			return nil, httpapi.Internal(err)
		}
		if n == 0 {
			return nil, httpapi.InvalidField("ccUserIds", "unknown_ids", id)
		}
		out = append(out, id)
	}
	return out, nil
}

// fromAlarm is what an order opened from an alarm takes from it.
type fromAlarm struct {
	stationID, deviceID        int64
	desc, deviceName, deviceSN string
	msgKey, msgArgs            string
}

// alarmOf reads a visible alarm.
func alarmOf(ctx context.Context, db *store.DB, p *httpapi.Principal, id int64) (fromAlarm, error) {
	var a fromAlarm
	scope, args := station.Scope(p)
	err := db.QueryRow(ctx, `SELECT a.station_id, COALESCE(a.device_id, 0), a.description, a.device_name, a.device_sn, a.msg_key,
		a.msg_args FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.id = ? AND `+scope,
		append([]any{id}, args...)...).Scan(&a.stationID, &a.deviceID, &a.desc, &a.deviceName, &a.deviceSN, &a.msgKey, &a.msgArgs)
	return a, err
}

// OpenOrderOf names the open order of an alarm ("" when it has none).
func OpenOrderOf(ctx context.Context, db *store.DB, alarmID int64) (int64, string, error) {
	var id int64
	var number string
	err := db.QueryRow(ctx, "SELECT id, number FROM work_orders WHERE open_alarm_id = ?", alarmID).Scan(&id, &number)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return id, number, err
}

// Create opens an order and records its first event; it returns the new id.
func Create(ctx context.Context, db *store.DB, ob *notify.Outbox, p *httpapi.Principal, in Input, now time.Time) (int64, error) {
	if err := in.Validate(in.AlarmID > 0); err != nil {
		return 0, err
	}
	var src fromAlarm
	titleKey, titleArgs := "", "[]"
	if in.AlarmID > 0 {
		var err error
		src, err = alarmOf(ctx, db, p, in.AlarmID)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, httpapi.NotFound()
		}
		if err != nil {
			return 0, httpapi.Internal(err)
		}
		if in.StationID != 0 && in.StationID != src.stationID {
			return 0, httpapi.InvalidField("stationId", "wo_alarm_station")
		}
		in.StationID = src.stationID
		if in.Title == "" {
			// the alarm's description, kept as its message key to be shown in the reader's language
			in.Title = truncate(strings.NewReplacer("<", "", ">", "").Replace(src.desc), MaxTitleLen)
			if src.msgKey != "" && httpapi.HasMessage(src.msgKey) {
				titleKey, titleArgs = src.msgKey, src.msgArgs
			}
		}
		if _, open, err := OpenOrderOf(ctx, db, in.AlarmID); err != nil {
			return 0, httpapi.Internal(err)
		} else if open != "" {
			return 0, httpapi.Conflict("wo_alarm_has_order", open)
		}
	} else if _, err := station.Get(ctx, db, p, in.StationID); errors.Is(err, store.ErrNotFound) {
		return 0, httpapi.NotFound()
	} else if err != nil {
		return 0, httpapi.Internal(err)
	}
	if err := checkAssignee(ctx, db, p, in.StationID, in.AssigneeUserID, in.AssigneeDeptID); err != nil {
		return 0, err
	}
	cc, err := checkCC(ctx, db, p, in.CCUserIDs)
	if err != nil {
		return 0, err
	}
	var id int64
	at := now.UnixMilli()
	err = db.InTx(ctx, func(tx *store.Tx) error {
		var e error
		id, e = tx.Insert(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, description, status, priority,
			alarm_id, open_alarm_id, submitter_id, assignee_user_id, assignee_dept_id, planned_start, planned_end, created_at, updated_at,
			device_id, device_name, device_sn, title_key, title_args)
			VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.OrgID, in.StationID, "pending-"+blob.NewID(), in.Title, in.Description, in.Priority, nullID(in.AlarmID), nullID(in.AlarmID),
			p.UserID, nullID(in.AssigneeUserID), nullID(in.AssigneeDeptID), in.start.UnixMilli(), in.end.UnixMilli(), at, at,
			nullID(src.deviceID), src.deviceName, src.deviceSN, titleKey, titleArgs)
		if e != nil {
			return e
		}
		number := fmt.Sprintf("WO-%s-%06d", now.UTC().Format("20060102"), id)
		if _, e = tx.Exec(ctx, "UPDATE work_orders SET number = ? WHERE id = ?", number, id); e != nil {
			return e
		}
		for _, u := range cc {
			if _, e = tx.Exec(ctx, "INSERT INTO work_order_cc (order_id, user_id) VALUES (?, ?)", id, u); e != nil {
				return e
			}
		}
		if _, e = tx.Exec(ctx, `INSERT INTO work_order_events (order_id, action, from_status, to_status, user_id, comment, created_at)
			VALUES (?, 'create', 0, 1, ?, '', ?)`, id, p.UserID, at); e != nil {
			return e
		}
		if e = idempotent.Applied(ctx, tx, id); e != nil {
			return e
		}
		return orderEvent(ctx, tx, ob, p, id, notify.WorkOrderCreated, "create", at)
	})
	if err == nil {
		ob.Wrote()
	}
	if store.IsUniqueViolation(err) {
		return 0, httpapi.Conflict("wo_alarm_has_order", "")
	}
	if err != nil {
		return 0, httpapi.Internal(err)
	}
	return id, nil
}

func truncate(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func nullID(id int64) any {
	if id <= 0 {
		return nil
	}
	return id
}

// RolesOf says how the caller stands to an order.
func RolesOf(p *httpapi.Principal, o *Order) int {
	roles := 0
	if p.IsAdmin() {
		roles |= ByAdmin
	}
	if o.SubmitterID == p.UserID {
		roles |= BySubmitter
	}
	if o.AssigneeUserID == p.UserID || (o.AssigneeUserID == 0 && o.AssigneeDeptID != 0 && o.AssigneeDeptID == p.DeptID) {
		roles |= ByProcessor
	}
	return roles
}

// ActorOf is Check's view of the caller and the order.
func ActorOf(p *httpapi.Principal, o *Order) Actor {
	return Actor{Roles: RolesOf(p, o), AlarmRecovered: o.AlarmID != 0 && o.AlarmStatus == 2}
}

// Move makes a transition on a visible order; the status must still be the one read, so
// two people acting at once cannot both succeed.
func Move(ctx context.Context, db *store.DB, ob *notify.Outbox, p *httpapi.Principal, o *Order, action, comment string, now time.Time) (Transition, error) {
	comment = strings.TrimSpace(comment)
	var v httpapi.Validator
	cleanText(&v, "comment", comment, MaxCommentLen, false)
	if err := v.Err(); err != nil {
		return Transition{}, err
	}
	t, why := Check(action, o.Status, ActorOf(p, o), comment)
	switch why {
	case "":
	case ErrUnknownAction:
		return t, httpapi.InvalidField("action", "one_of", strings.Join(Actions, ", "))
	case ErrNeedsComment:
		return t, httpapi.InvalidField("comment", ErrNeedsComment)
	case ErrNotYours:
		return t, &httpapi.Error{Status: 403, Code: 403, Key: ErrNotYours}
	default:
		return t, httpapi.Conflict(why)
	}
	at := now.UnixMilli()
	err := db.InTx(ctx, func(tx *store.Tx) error {
		set := "status = ?, updated_at = ?"
		args := []any{t.To, at}
		if action == ActAccept && o.AssigneeUserID == 0 {
			set += ", assignee_user_id = ?"
			args = append(args, p.UserID)
		}
		if t.To == Executing {
			set += ", actual_start = ?"
			args = append(args, at)
		}
		if t.To == Finished {
			set += ", actual_end = ?, actual_start = COALESCE(actual_start, ?)"
			args = append(args, at, at)
		}
		if !Open(t.To) {
			set += ", open_alarm_id = NULL"
		}
		if action == ActFinish {
			// the checklist's required items are done first
			missing, err := checklistMissing(ctx, tx, o.ID)
			if err != nil {
				return err
			}
			if missing > 0 {
				return fmt.Errorf("%w: %d", errChecklist, missing)
			}
		}
		res, err := tx.Exec(ctx, "UPDATE work_orders SET "+set+" WHERE id = ? AND status = ?", append(args, o.ID, o.Status)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errMoved
		}
		if _, err = tx.Exec(ctx, `INSERT INTO work_order_events (order_id, action, from_status, to_status, user_id, comment, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, action, o.Status, t.To, p.UserID, comment, at); err != nil {
			return err
		}
		if err = idempotent.Applied(ctx, tx, o.ID); err != nil {
			return err
		}
		return orderEvent(ctx, tx, ob, p, o.ID, notify.WorkOrderTransitioned, action, at)
	})
	if err == nil {
		ob.Wrote()
	}
	if errors.Is(err, errMoved) {
		return t, httpapi.Conflict(ErrNotFrom)
	}
	if errors.Is(err, errChecklist) {
		return t, httpapi.Conflict("wo_checklist_incomplete")
	}
	if err != nil {
		return t, httpapi.Internal(err)
	}
	return t, nil
}

var errMoved = errors.New("workorder: status changed meanwhile")

// orderEvent writes a work-order event for the organisation's webhooks in tx (nothing when
// none wants it).
func orderEvent(ctx context.Context, tx *store.Tx, ob *notify.Outbox, p *httpapi.Principal, id int64, event, action string, at int64) error {
	return ob.Enqueue(ctx, tx, p.OrgID, event, id, func() (any, error) {
		w := notify.WorkOrder{Action: action, At: at}
		err := tx.QueryRow(ctx, `SELECT o.id, o.number, o.title, o.status, o.station_id, s.name, s.timezone,
			COALESCE((SELECT CASE WHEN u.name <> '' THEN u.name ELSE u.username END FROM users u WHERE u.id = ?), '')
			FROM work_orders o JOIN stations s ON s.id = o.station_id WHERE o.id = ?`, p.UserID, id).Scan(
			&w.ID, &w.Number, &w.Title, &w.Status, &w.StationID, &w.StationName, &w.TimeZone, &w.By)
		return w, err
	})
}
