package alarm

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Alarm is an alarm as the console shows it (SPEC.md section 3).
type Alarm struct {
	ID             int64      `json:"id"`
	StationID      int64      `json:"stationId"`
	StationName    string     `json:"stationName"`
	ParentID       int64      `json:"parentStationId" doc:"the top-level station of a sub-station's alarm (0 otherwise)"`
	Timezone       string     `json:"timezone" doc:"the station's IANA zone"`
	DeviceID       int64      `json:"deviceId" doc:"0 when the device was deleted"`
	DeviceName     string     `json:"deviceName"`
	DeviceSN       string     `json:"deviceSn" doc:"serial number (the collector's for a collector alarm)"`
	DeviceType     string     `json:"deviceType" doc:"inverter, battery, storage, meter or collector"`
	Rule           string     `json:"rule" doc:"the rule that raised it (see /v2/warn/rules)"`
	RuleName       string     `json:"ruleName"`
	Type           int        `json:"type" doc:"1 device alarm, 2 data alarm"`
	Level          int        `json:"level" doc:"0 signal change, 1 alarm, 2 fault"`
	AlarmStatus    int        `json:"alarmStatus" doc:"1 occurring, 2 recovered"`
	DealStatus     int        `json:"dealStatus" doc:"0 unprocessed, 1 processed"`
	Description    string     `json:"description" doc:"in the caller's language"`
	OccurTime      time.Time  `json:"occurTime" doc:"when the alarm was raised"`
	StartTime      time.Time  `json:"startTime" doc:"when the condition began"`
	LastAlarmTime  time.Time  `json:"lastAlarmTime" doc:"the last time the condition was seen"`
	RecoveryTime   *time.Time `json:"recoveryTime" doc:"when it cleared (null while occurring)"`
	DurationMin    float64    `json:"durationMin" doc:"start to recovery (or to now while occurring), minutes"`
	Reason         string     `json:"reason" doc:"of the latest deal"`
	DealMethod     int        `json:"dealMethod" doc:"of the latest deal: 1 remote reset, 2 on-site repair, 3 part replaced, 4 false alarm, 5 other; 0 before any"`
	DealMethodName string     `json:"dealMethodName"`
	DealBy         string     `json:"dealBy" doc:"name of the user of the latest deal"`
	DealTime       *time.Time `json:"dealTime"`
}

const alarmColumns = `a.id, a.station_id, s.name, COALESCE(s.parent_id, 0), s.timezone, COALESCE(a.device_id, 0),
	a.device_name, a.device_sn, a.device_type, a.rule_key, a.alarm_type, a.level, a.status, a.deal_status, a.msg_key,
	a.msg_args, a.description, a.occurred_at, a.start_at, a.last_alarm_at, a.recovered_at, a.deal_reason, a.deal_method,
	COALESCE(NULLIF(u.name, ''), u.username, ''), a.dealt_at`

const alarmFrom = ` FROM alarms a JOIN stations s ON s.id = a.station_id LEFT JOIN users u ON u.id = a.dealt_by `

func scanAlarm(row interface{ Scan(...any) error }, locale string, now time.Time) (*Alarm, error) {
	var a Alarm
	var msgKey, args, desc string
	var occurred, start, last int64
	var recovered, dealt sql.NullInt64
	err := row.Scan(&a.ID, &a.StationID, &a.StationName, &a.ParentID, &a.Timezone, &a.DeviceID, &a.DeviceName, &a.DeviceSN,
		&a.DeviceType, &a.Rule, &a.Type, &a.Level, &a.AlarmStatus, &a.DealStatus, &msgKey, &args, &desc, &occurred, &start,
		&last, &recovered, &a.Reason, &a.DealMethod, &a.DealBy, &dealt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read: %w", err)
	}
	a.OccurTime = time.UnixMilli(occurred).UTC()
	a.StartTime = time.UnixMilli(start).UTC()
	a.LastAlarmTime = time.UnixMilli(last).UTC()
	end := now
	if recovered.Valid {
		t := time.UnixMilli(recovered.Int64).UTC()
		a.RecoveryTime = &t
		end = t
	}
	if dealt.Valid {
		t := time.UnixMilli(dealt.Int64).UTC()
		a.DealTime = &t
	}
	a.DurationMin = float64(max(end.Sub(a.StartTime), 0).Round(time.Second)) / float64(time.Minute)
	a.DurationMin = float64(int64(a.DurationMin*10+0.5)) / 10
	a.Description = desc
	if msgKey != "" && httpapi.HasMessage(msgKey) {
		var list []any
		_ = json.Unmarshal([]byte(args), &list)
		a.Description = httpapi.T(locale, msgKey, list...)
	}
	a.RuleName = httpapi.T(locale, "alarm_rule_"+a.Rule)
	if a.DealMethod > 0 {
		a.DealMethodName = httpapi.T(locale, dealMethodKey(a.DealMethod))
	}
	return &a, nil
}

// Deal methods.
var DealMethods = []int{1, 2, 3, 4, 5}

func dealMethodKey(m int) string {
	switch m {
	case 1:
		return "alarm_deal_remote_reset"
	case 2:
		return "alarm_deal_onsite_repair"
	case 3:
		return "alarm_deal_replaced"
	case 4:
		return "alarm_deal_false_alarm"
	}
	return "alarm_deal_other"
}

// Filter narrows an alarm list. Zero values mean "any" except where noted.
type Filter struct {
	StationIDs  []int64 // nil: every visible station
	DeviceID    int64
	DealStatus  int // -1 any
	AlarmStatus int // 0 any
	Level       int // -1 any
	Type        int // 0 any
	DeviceType  string
	Rule        string
	From, To    time.Time // start time in [From, To); zero: open
	// LocalDate keeps alarms that started on this station-local date (yyyy-MM-dd).
	LocalDate string
	// Sort is the list's order (Sorts); the usual one is by start time, newest first.
	Sort       listing.Sort
	Page, Size int
}

// Sorts are the columns the alarm list ranks by, each walked in an index of migration 0206
// (ties by id, in the same direction):
//   - time: when the alarm occurred (occurTime, the list's first column);
//   - level: 0 signal change, 1 alarm, 2 fault;
//   - duration: how long the alarm lasted, its recovery time less its start time, and for
//     an occurring alarm now less its start time (the figure durationMin shows in minutes,
//     rounded); an alarm occurring for as long as a recovered one lasted ranks by id.
var Sorts = httpapi.Enum(Filters{}, "sort")

// where builds the filter's SQL condition for the caller.
func (f *Filter) where(ctx context.Context, db *store.DB, p *httpapi.Principal) (*listing.Where, error) {
	var w listing.Where
	scope, args := station.Scope(p)
	// the alarm's own organisation first: the list then walks alarms_org_time newest first
	w.Add("a.org_id = ?", p.OrgID)
	w.Add(scope, args...)
	w.In("a.station_id", f.StationIDs)
	w.If(f.DeviceID != 0, "a.device_id = ?", f.DeviceID)
	w.If(f.DealStatus >= 0, "a.deal_status = ?", f.DealStatus)
	w.If(f.AlarmStatus > 0, "a.status = ?", f.AlarmStatus)
	w.If(f.Level >= 0, "a.level = ?", f.Level)
	w.If(f.Type > 0, "a.alarm_type = ?", f.Type)
	w.If(f.DeviceType != "", "a.device_type = ?", f.DeviceType)
	w.If(f.Rule != "", "a.rule_key = ?", f.Rule)
	w.If(!f.From.IsZero(), "a.start_at >= ?", f.From.UnixMilli())
	w.If(!f.To.IsZero(), "a.start_at < ?", f.To.UnixMilli())
	if f.LocalDate != "" {
		cond, dargs, err := localDateCond(ctx, db, p, f.LocalDate)
		if err != nil {
			return nil, err
		}
		w.Add(cond, dargs...)
	}
	return &w, nil
}

// localDateCond keeps alarms that started on a station-local date: one time range per
// time zone among the caller's stations.
func localDateCond(ctx context.Context, db *store.DB, p *httpapi.Principal, date string) (string, []any, error) {
	day, err := time.Parse("2006-01-02", date)
	if err != nil {
		return "", nil, err
	}
	zones, err := visibleZones(ctx, db, p)
	if err != nil {
		return "", nil, err
	}
	if len(zones) == 0 {
		return "1 = 0", nil, nil
	}
	var parts []string
	var args []any
	for _, z := range zones {
		loc := loadLocation(z)
		from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
		parts = append(parts, "(s.timezone = ? AND a.start_at >= ? AND a.start_at < ?)")
		args = append(args, z, from.UnixMilli(), from.AddDate(0, 0, 1).UnixMilli())
	}
	return "(" + strings.Join(parts, " OR ") + ")", args, nil
}

func visibleZones(ctx context.Context, db *store.DB, p *httpapi.Principal) ([]string, error) {
	scope, args := station.Scope(p)
	rows, err := db.Query(ctx, "SELECT DISTINCT s.timezone FROM stations s WHERE "+scope+" ORDER BY s.timezone", args...)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to list time zones: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var z string
		if err := rows.Scan(&z); err != nil {
			return nil, err
		}
		out = append(out, z)
	}
	return out, rows.Err()
}

var zoneCache sync.Map

// loadLocation loads an IANA zone once; an unknown zone is UTC.
func loadLocation(name string) *time.Location {
	if l, ok := zoneCache.Load(name); ok {
		return l.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" {
		loc = time.UTC
	}
	zoneCache.Store(name, loc)
	return loc
}

// List returns the visible alarms matching f in f.Sort's order (newest start first by
// default), and the total; now is the end of the occurring alarms' duration.
func List(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter, locale string, now time.Time) ([]Alarm, int64, error) {
	w, err := f.where(ctx, db, p)
	if err != nil {
		return nil, 0, err
	}
	q := listing.Query{Columns: alarmColumns, From: alarmFrom, CountFrom: alarmCountFrom, Order: "a.start_at DESC, a.id DESC"}
	switch f.Sort.Key {
	case "time":
		q.Order = f.Sort.SQL("a.occurred_at", "a.id")
	case "level":
		q.Order = f.Sort.SQL("a.level", "a.id")
	case "duration":
		q.PageSQL = func(where string, args []any, page, size int) (string, []any) {
			return durationPage(where, args, f.Sort, now.UnixMilli(), page, size)
		}
	}
	return listing.Run(ctx, db, q, w, f.Page, f.Size, func(rows *sql.Rows) (Alarm, error) {
		a, err := scanAlarm(rows, locale, now)
		if err != nil {
			return Alarm{}, err
		}
		return *a, nil
	})
}

const alarmCountFrom = " FROM alarms a JOIN stations s ON s.id = a.station_id "

// durationPage reads a page of the list ranked by duration. A recovered alarm's duration
// is fixed and indexed (alarms_org_recovered_duration); an occurring alarm's grows with
// the clock, but the occurring alarms rank among themselves by start time alone
// (alarms_org_occurring_start: the oldest start lasts longest). Each walk is read up to
// the page's end, and the heads are merged, ranked at now and cut.
func durationPage(where string, args []any, s listing.Sort, now int64, page, size int) (string, []any) {
	dir, startDir := " DESC", " ASC"
	if !s.Desc {
		dir, startDir = " ASC", " DESC"
	}
	head, paging := "", ""
	if size > 0 {
		head = fmt.Sprintf(" LIMIT %d", page*size)
		paging = fmt.Sprintf(" LIMIT %d OFFSET %d", size, (page-1)*size)
	}
	recovered := "SELECT a.id" + alarmCountFrom + "WHERE " + where + " AND a.recovered_at IS NOT NULL" +
		" ORDER BY (a.recovered_at - a.start_at)" + dir + ", a.id" + dir + head
	occurring := "SELECT a.id" + alarmCountFrom + "WHERE " + where + " AND a.recovered_at IS NULL" +
		" ORDER BY a.start_at" + startDir + ", a.id" + dir + head
	stmt := "SELECT " + alarmColumns + alarmFrom + "WHERE a.id IN (SELECT id FROM (" + recovered + ") r UNION ALL SELECT id FROM (" +
		occurring + ") o) ORDER BY COALESCE(a.recovered_at, ?) - a.start_at" + dir + ", a.id" + dir + paging
	return stmt, append(append(slices.Clip(args), args...), now)
}

// Get returns one alarm the caller may see (store.ErrNotFound otherwise).
func Get(ctx context.Context, db *store.DB, p *httpapi.Principal, id int64, locale string, now time.Time) (*Alarm, error) {
	scope, args := station.Scope(p)
	return scanAlarm(db.QueryRow(ctx, "SELECT "+alarmColumns+alarmFrom+" WHERE a.id = ? AND "+scope,
		append([]any{id}, args...)...), locale, now)
}

// Deal is one entry of an alarm's deal history.
type Deal struct {
	ID         int64     `json:"id"`
	Reason     string    `json:"reason"`
	DealMethod int       `json:"dealMethod"`
	MethodName string    `json:"dealMethodName"`
	UserID     int64     `json:"userId"`
	UserName   string    `json:"userName"`
	Time       time.Time `json:"time"`
}

func deals(ctx context.Context, db *store.DB, alarmID int64, locale string) ([]Deal, error) {
	rows, err := db.Query(ctx, `SELECT d.id, d.reason, d.method, COALESCE(d.user_id, 0), COALESCE(NULLIF(u.name, ''), u.username, ''),
		d.created_at FROM alarm_deals d LEFT JOIN users u ON u.id = d.user_id WHERE d.alarm_id = ? ORDER BY d.created_at, d.id`, alarmID)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read deals: %w", err)
	}
	defer rows.Close()
	out := []Deal{}
	for rows.Next() {
		var d Deal
		var at int64
		if err := rows.Scan(&d.ID, &d.Reason, &d.DealMethod, &d.UserID, &d.UserName, &at); err != nil {
			return nil, err
		}
		d.Time = time.UnixMilli(at).UTC()
		d.MethodName = httpapi.T(locale, dealMethodKey(d.DealMethod))
		out = append(out, d)
	}
	return out, rows.Err()
}

// countRow is what the figures need of one alarm.
type countRow struct {
	start      int64
	tz         string
	typ        int
	deal       int
	status     int
	level      int
	deviceType string
}

// countRows reads the visible alarms that started in [from, to) (optionally on some
// stations) for the figures.
func countRows(ctx context.Context, db *store.DB, p *httpapi.Principal, stationIDs []int64, from, to time.Time) ([]countRow, error) {
	f := Filter{StationIDs: stationIDs, DealStatus: -1, Level: -1, From: from, To: to}
	w, err := f.where(ctx, db, p)
	if err != nil {
		return nil, err
	}
	where, args := w.SQL()
	rows, err := db.Query(ctx, `SELECT a.start_at, s.timezone, a.alarm_type, a.deal_status, a.status, a.level, a.device_type
		FROM alarms a JOIN stations s ON s.id = a.station_id WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to count: %w", err)
	}
	defer rows.Close()
	var out []countRow
	for rows.Next() {
		var c countRow
		if err := rows.Scan(&c.start, &c.tz, &c.typ, &c.deal, &c.status, &c.level, &c.deviceType); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
