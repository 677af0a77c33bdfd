package workorder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Order is a work order as the console shows it (SPEC.md section 3).
type Order struct {
	ID               int64      `json:"id"`
	Number           string     `json:"number" doc:"WO-yyyyMMdd-id"`
	Title            string     `json:"title"`
	Description      string     `json:"description"`
	StationID        int64      `json:"stationId"`
	StationName      string     `json:"stationName"`
	Timezone         string     `json:"timezone" doc:"the station's IANA zone"`
	Status           int        `json:"status" doc:"1 pending accept, 2 pending process, 3 executing, 4 finished, 5 rejected"`
	ProcessStatus    string     `json:"processStatus" doc:"the message-centre status: pending_accept, pending, processing, finished, rejected"`
	Priority         int        `json:"priority" doc:"1 low, 2 normal, 3 urgent, 4 very urgent"`
	AlarmID          int64      `json:"alarmId" doc:"the alarm it was opened from (0 when by hand)"`
	AlarmStatus      int        `json:"alarmStatus" doc:"that alarm's status: 1 occurring, 2 recovered (0 without an alarm)"`
	AlarmOccurred    *time.Time `json:"alarmOccurredAt" doc:"when that alarm was raised (its occurrence time, as the alarm list shows it)"`
	AlarmRecovered   *time.Time `json:"alarmRecoveredAt"`
	DeviceID         int64      `json:"deviceId" doc:"the device of the alarm it was opened from (0 when by hand, or the device was deleted)"`
	DeviceName       string     `json:"deviceName" doc:"that device's name when the order was opened"`
	DeviceSN         string     `json:"deviceSn" doc:"that device's serial number when the order was opened"`
	SubmitterID      int64      `json:"submitterId"`
	Submitter        string     `json:"submitter"`
	AssigneeUserID   int64      `json:"assigneeUserId" doc:"the processor (0 while only a department is assigned)"`
	Processor        string     `json:"processor"`
	AssigneeDeptID   int64      `json:"assigneeDeptId"`
	AssigneeDept     string     `json:"assigneeDept"`
	SubmitTime       time.Time  `json:"submitTime"`
	UpdateTime       time.Time  `json:"updateTime"`
	PlannedStart     time.Time  `json:"plannedStart"`
	PlannedEnd       time.Time  `json:"plannedEnd" doc:"the timeout is measured from it"`
	PlannedHours     float64    `json:"plannedHours"`
	ActualStart      *time.Time `json:"actualStart"`
	ActualEnd        *time.Time `json:"actualEnd"`
	ActualHours      float64    `json:"actualHours"`
	DeviationPercent float64    `json:"deviationPercent" doc:"(actual − planned hours) ÷ planned × 100"`
	Timeout          int        `json:"timeoutStatus" doc:"0 not timed out, 1 timed out"`
	OvertimeHours    float64    `json:"overtimeHours"`

	// titleKey and titleArgs render the title in the reader's language (Localise) when it
	// was made from an alarm's description.
	titleKey, titleArgs string
}

const orderColumns = `o.id, o.number, o.title, o.description, o.station_id, s.name, s.timezone, o.status, o.priority,
	COALESCE(o.alarm_id, 0), COALESCE(a.status, 0), a.occurred_at, a.recovered_at, COALESCE(o.submitter_id, 0),
	COALESCE(NULLIF(su.name, ''), su.username, ''), COALESCE(o.assignee_user_id, 0), COALESCE(NULLIF(au.name, ''), au.username, ''),
	COALESCE(o.assignee_dept_id, 0), COALESCE(d.name, ''), o.created_at, o.updated_at, o.planned_start, o.planned_end,
	o.actual_start, o.actual_end, COALESCE(o.device_id, 0), o.device_name, o.device_sn, o.title_key, o.title_args`

const orderFrom = ` FROM work_orders o JOIN stations s ON s.id = o.station_id LEFT JOIN alarms a ON a.id = o.alarm_id
	LEFT JOIN users su ON su.id = o.submitter_id LEFT JOIN users au ON au.id = o.assignee_user_id
	LEFT JOIN departments d ON d.id = o.assignee_dept_id `

const countFrom = ` FROM work_orders o `

func ms(v int64) time.Time { return time.UnixMilli(v).UTC() }

func msPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := ms(v.Int64)
	return &t
}

func scanOrder(row interface{ Scan(...any) error }, now time.Time) (Order, error) {
	var o Order
	var occurred, recovered, aStart, aEnd sql.NullInt64
	var created, updated, pStart, pEnd int64
	err := row.Scan(&o.ID, &o.Number, &o.Title, &o.Description, &o.StationID, &o.StationName, &o.Timezone, &o.Status,
		&o.Priority, &o.AlarmID, &o.AlarmStatus, &occurred, &recovered, &o.SubmitterID, &o.Submitter, &o.AssigneeUserID, &o.Processor,
		&o.AssigneeDeptID, &o.AssigneeDept, &created, &updated, &pStart, &pEnd, &aStart, &aEnd,
		&o.DeviceID, &o.DeviceName, &o.DeviceSN, &o.titleKey, &o.titleArgs)
	if errors.Is(err, sql.ErrNoRows) {
		return o, store.ErrNotFound
	}
	if err != nil {
		return o, fmt.Errorf("workorder: unable to read: %w", err)
	}
	o.AlarmOccurred, o.AlarmRecovered = msPtr(occurred), msPtr(recovered)
	o.SubmitTime, o.UpdateTime, o.PlannedStart, o.PlannedEnd = ms(created), ms(updated), ms(pStart), ms(pEnd)
	o.ActualStart, o.ActualEnd = msPtr(aStart), msPtr(aEnd)
	o.ProcessStatus = ProcessStatus(o.Status)
	tm := Time(o.Status, o.PlannedStart, o.PlannedEnd, o.ActualStart, o.ActualEnd, now)
	o.PlannedHours, o.ActualHours, o.DeviationPercent = tm.PlannedHours, tm.ActualHours, tm.DeviationPercent
	o.Timeout, o.OvertimeHours = tm.Timeout, tm.OvertimeHours
	return o, nil
}

// Who an order list is narrowed to, for the caller.
const (
	MineStarted  = "started"  // orders the caller opened
	MineCopied   = "copied"   // orders copied to the caller
	MineAssigned = "assigned" // orders the caller (or their department) processes
)

// Filter narrows an order list; zero values mean "any".
type Filter struct {
	StationIDs []int64 // nil: every visible station
	Status     int
	Priority   int
	Timeout    int // -1 any, 0 on time, 1 timed out
	Mine       string
	Query      string    // part of the title or number
	From, To   time.Time // submit time in [From, To)
	AlarmID    int64
	// Sort is the list's order (Sorts); the usual one is newest submitted first.
	Sort       listing.Sort
	Page, Size int
}

// Sorts are the columns the order list ranks by, each walked in an index of migration 0206
// (ties by id, in the same direction). Priority and status rank by their codes, which are
// their order: priority by urgency (1 low, 2 normal, 3 urgent, 4 very urgent), status by the
// workflow (1 pending accept, 2 pending process, 3 executing, 4 finished, then 5 rejected,
// the other way out); due is the planned end, which every order has (it is required).
var Sorts = httpapi.Enum(ListQuery{}, "sort")

// sortColumns are the columns of Sorts.
var sortColumns = map[string]string{"priority": "o.priority", "due": "o.planned_end", "status": "o.status"}

// timedOut is the SQL condition of timeout status 1 at now (milliseconds in the argument).
const timedOut = `((o.status IN (1, 2, 3) AND o.planned_end < ?) OR (o.status = 4 AND o.actual_end > o.planned_end))`

// where names the orders table (o) only, so that the page's ids come from an index alone.
func (f *Filter) where(p *httpapi.Principal, now time.Time, withStatus bool) *listing.Where {
	var w listing.Where
	// the order's own organisation first: it lets the (org_id, created_at, …) index serve the
	// newest-first order without sorting every match
	w.Add("o.org_id = ?", p.OrgID)
	inScope(&w, "o.station_id", p)
	w.In("o.station_id", f.StationIDs)
	w.If(withStatus && f.Status > 0, "o.status = ?", f.Status)
	w.If(f.Priority > 0, "o.priority = ?", f.Priority)
	w.If(f.Timeout == 1, timedOut, now.UnixMilli())
	w.If(f.Timeout == 0, "NOT "+timedOut+" AND o.status <> 5", now.UnixMilli())
	switch f.Mine {
	case MineStarted:
		w.Add("o.submitter_id = ?", p.UserID)
	case MineCopied:
		w.Add("o.id IN (SELECT order_id FROM work_order_cc WHERE user_id = ?)", p.UserID)
	case MineAssigned:
		w.Add("(o.assignee_user_id = ? OR (o.assignee_user_id IS NULL AND o.assignee_dept_id = ?))", p.UserID, p.DeptID)
	}
	if f.Query != "" {
		// case-insensitive on both databases (SQLite's LIKE is for ASCII, PostgreSQL's is not)
		like := "%" + escapeLike(strings.ToLower(f.Query)) + "%"
		w.Add(`(LOWER(o.title) LIKE ? ESCAPE '\' OR LOWER(o.number) LIKE ? ESCAPE '\')`, like, like)
	}
	w.If(!f.From.IsZero(), "o.created_at >= ?", f.From.UnixMilli())
	w.If(!f.To.IsZero(), "o.created_at < ?", f.To.UnixMilli())
	w.If(f.AlarmID > 0, "o.alarm_id = ?", f.AlarmID)
	return &w
}

func escapeLike(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '%' || r == '_' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
}

// CountCap is where a list that must count its matches (a title search, "mine", a period)
// stops counting; its answer then says "more than CountCap".
const CountCap = 1_000

// List returns the visible orders matching f in f.Sort's order (newest first by default),
// and the total (CountCap+1 when counting stopped: listing.Capped).
func List(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter, now time.Time) ([]Order, int64, error) {
	q := listing.Query{Columns: orderColumns, From: orderFrom, CountFrom: countFrom, Order: "o.created_at DESC, o.id DESC",
		Key: "o.id", KeyFrom: " FROM work_orders o "}
	if col, ok := sortColumns[f.Sort.Key]; ok {
		q.Order = f.Sort.SQL(col, "o.id")
	}
	if f.countable() {
		q.Count = func(ctx context.Context) (int64, error) {
			t, err := f.tally(ctx, db, p, now)
			return t.count(f.Status, f.Timeout), err
		}
	} else {
		// a search or "mine" reads the orders themselves: counting stops at CountCap
		q.CountCap = CountCap
	}
	return listing.Run(ctx, db, q, f.where(p, now, true), f.Page, f.Size, func(rows *sql.Rows) (Order, error) {
		return scanOrder(rows, now)
	})
}

// Get returns one order the caller may see (store.ErrNotFound otherwise).
func Get(ctx context.Context, db interface {
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
}, p *httpapi.Principal, id int64, now time.Time) (Order, error) {
	scope, args := station.Scope(p)
	return scanOrder(db.QueryRow(ctx, "SELECT "+orderColumns+orderFrom+" WHERE o.id = ? AND "+scope,
		append([]any{id}, args...)...), now)
}

// Summary are the totals of a filtered list, whatever its status filter.
type Summary struct {
	Total        int         `json:"total"`
	ByStatus     map[int]int `json:"byStatus" doc:"keys 1-5"`
	TimedOut     int         `json:"timedOut"`
	Open         int         `json:"open" doc:"statuses 1-3"`
	ProcessRatio float64     `json:"processRatio" doc:"finished ÷ total, % (0 without orders)"`
}

// Summarise counts the visible orders matching f (its status aside).
func Summarise(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter, now time.Time) (Summary, error) {
	if f.countable() {
		t, err := f.tally(ctx, db, p, now)
		if err != nil {
			return Summary{}, err
		}
		return t.summary(f.Timeout), nil
	}
	return summariseRows(ctx, db, p, f, now)
}

// summariseRows counts the matching orders themselves (filters the kept counts cannot answer).
func summariseRows(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter, now time.Time) (Summary, error) {
	sum := Summary{ByStatus: map[int]int{1: 0, 2: 0, 3: 0, 4: 0, 5: 0}}
	where, args := f.where(p, now, false).SQL()
	// grouped over a derived table: PostgreSQL would not match a parameterised CASE in
	// GROUP BY with the same CASE in the select list
	rows, err := db.Query(ctx, `SELECT status, late, COUNT(*) FROM (SELECT o.status AS status, CASE WHEN `+timedOut+
		` THEN 1 ELSE 0 END AS late`+countFrom+` WHERE `+where+`) t GROUP BY status, late`,
		append([]any{now.UnixMilli()}, args...)...)
	if err != nil {
		return sum, fmt.Errorf("workorder: unable to count: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var status, late, n int
		if err := rows.Scan(&status, &late, &n); err != nil {
			return sum, err
		}
		sum.Total += n
		sum.ByStatus[status] += n
		if late == 1 {
			sum.TimedOut += n
		}
		if Open(status) {
			sum.Open += n
		}
	}
	sum.ratio()
	return sum, rows.Err()
}
