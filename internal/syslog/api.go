package syslog

import (
	"database/sql"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
)

// Entry is one system-log entry as the list shows it.
type Entry struct {
	ID       int64     `json:"id"`
	Time     time.Time `json:"time"`
	UserID   int64     `json:"userId"`
	Username string    `json:"username"`
	Action   string    `json:"action" doc:"what was done, e.g. user.edit or site.tag.add"`
	Object   string    `json:"object" doc:"what it was aimed at"`
	Detail   string    `json:"detail"`
	Method   string    `json:"method"`
	Route    string    `json:"route" doc:"the call's pattern"`
	Status   int       `json:"status" doc:"the HTTP status it was answered with"`
	Address  string    `json:"address" doc:"the client's address"`
	Before   string    `json:"before" doc:"JSON of the object before an edit, or empty"`
	After    string    `json:"after" doc:"JSON of the object after an edit (or the request, secrets masked), or empty"`
}

// Query filters the list: user, object and action are parts of the text; from and to are
// RFC 3339 instants or yyyy-MM-dd days.
type Query struct {
	User     string `query:"user"`
	Object   string `query:"object"`
	Action   string `query:"action"`
	From     string `query:"from"`
	To       string `query:"to"`
	Failed   string `query:"failed" doc:"1: only refused or failed calls"`
	Page     int    `query:"page"`
	PageSize int    `query:"pageSize"`
	Format   string `query:"format" doc:"export only: csv or xlsx"`
}

// Routes registers the system-log calls (administrators of the organisation only).
func (l *Log) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/syslog/list", Tag: "syslog", Summary: "The organisation's system log: every write, newest first",
		Access: httpapi.Admin, Query: Query{}, Resp: httpapi.Page[Entry]{}, Handle: l.list})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/syslog/export", Tag: "syslog", Summary: "The filtered system log as CSV or XLSX",
		Access: httpapi.Admin, Query: Query{}, RawTypes: httpapi.ExportTypes, Raw: l.export})
}

// filters reads the caller's filters into the list's condition: the caller's organisation
// first, then the text filters (parts of the user name, object and action), the time range
// and "failed only".
func filters(r *http.Request) (*listing.Params, *listing.Where, error) {
	p := listing.Read(r)
	w := &listing.Where{}
	w.Add("org_id = ?", httpapi.Caller(r).OrgID)
	like := func(field, col string) {
		if s := p.Text(field, 100); s != "" {
			w.Add("LOWER("+col+`) LIKE ? ESCAPE '\'`, "%"+strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(s))+"%")
		}
	}
	like("user", "username")
	like("object", "target")
	like("action", "action")
	from, to := p.Range("from", "to", 3660)
	w.If(!from.IsZero(), "created_at >= ?", from.UnixMilli())
	w.If(!to.IsZero(), "created_at < ?", to.UnixMilli())
	w.If(p.OneOf("failed", 0, 0, 1) == 1, "status >= 400")
	return p, w, p.Err()
}

var logQuery = listing.Query{
	Columns: `id, created_at, COALESCE(user_id, 0), username, action, target, detail, method, route, status,
		client_addr, before_json, after_json`,
	From:  " FROM audit_log",
	Order: "created_at DESC, id DESC",
}

func scanEntry(rows *sql.Rows) (Entry, error) {
	var e Entry
	var at int64
	err := rows.Scan(&e.ID, &at, &e.UserID, &e.Username, &e.Action, &e.Object, &e.Detail, &e.Method, &e.Route,
		&e.Status, &e.Address, &e.Before, &e.After)
	e.Time = time.UnixMilli(at).UTC()
	return e, err
}

func (l *Log) list(r *http.Request) (any, error) {
	p, w, err := filters(r)
	if err != nil {
		return nil, err
	}
	list, total, err := listing.Run(r.Context(), l.DB, logQuery, w, p.Page, p.Size, scanEntry)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Entry]{List: list, Total: total, Page: p.Page, PageSize: p.Size}, nil
}

var exportColumns = []export.Column[Entry]{
	{Key: "col.time", Cell: func(e *Entry, _ string) any { return e.Time.Format("2006-01-02 15:04:05") }},
	{Key: "col.user", Cell: func(e *Entry, _ string) any { return e.Username }},
	{Key: "col.action", Cell: func(e *Entry, _ string) any { return e.Action }},
	{Key: "col.object", Cell: func(e *Entry, _ string) any { return e.Object }},
	{Key: "col.detail", Cell: func(e *Entry, _ string) any { return e.Detail }},
	{Key: "col.route", Cell: func(e *Entry, _ string) any { return e.Route }},
	{Key: "col.status", Cell: func(e *Entry, _ string) any { return e.Status }},
	{Key: "col.address", Cell: func(e *Entry, _ string) any { return e.Address }},
	{Key: "col.before", Cell: func(e *Entry, _ string) any { return e.Before }},
	{Key: "col.after", Cell: func(e *Entry, _ string) any { return e.After }},
}

func (l *Log) export(w http.ResponseWriter, r *http.Request) {
	format, err := export.Format(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	_, where, err := filters(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	list, _, err := listing.Run(r.Context(), l.DB, logQuery, where, 1, export.MaxRows, scanEntry)
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	export.Table(w, r, format, "system-log", exportColumns, list)
}
