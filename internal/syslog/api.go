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
	User   string `query:"user" maxLen:"100"`
	Object string `query:"object" maxLen:"100"`
	Action string `query:"action" maxLen:"100"`
	From   string `query:"from" doc:"from this instant (RFC 3339, or yyyy-MM-dd for that UTC day)"`
	To     string `query:"to" doc:"before this instant (RFC 3339, or yyyy-MM-dd: up to the end of that UTC day); at most 3660 days after from"`
	Failed int    `query:"failed" enum:"0,1" doc:"1: only refused or failed calls"`
	httpapi.Paging
	Format   string `query:"format" enum:"csv,xlsx" default:"csv" doc:"export only: csv or xlsx"`
	from, to time.Time
}

// Check reads the time range.
func (q *Query) Check(v *httpapi.Validator) {
	q.from, q.to = listing.Span(v, "from", q.From, "to", q.To, 3660)
}

// Routes registers the system-log calls (administrators of the organisation only).
func (l *Log) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/syslog/list", Tag: "syslog", Summary: "The organisation's system log: every write, newest first",
		Access: httpapi.Admin, Query: Query{}, Resp: httpapi.Page[Entry]{}, Handle: l.list})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/syslog/export", Tag: "syslog", Summary: "The filtered system log as CSV or XLSX",
		Access: httpapi.Admin, Query: Query{}, RawTypes: httpapi.ExportTypes, Raw: l.export})
}

// filters puts the caller's filters into the list's condition: the caller's organisation
// first, then the text filters (parts of the user name, object and action), the time range
// and "failed only".
func filters(r *http.Request, q Query) *listing.Where {
	w := &listing.Where{}
	w.Add("org_id = ?", httpapi.Caller(r).OrgID)
	like := func(s, col string) {
		if s != "" {
			w.Add("LOWER("+col+`) LIKE ? ESCAPE '\'`, "%"+strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(s))+"%")
		}
	}
	like(q.User, "username")
	like(q.Object, "target")
	like(q.Action, "action")
	w.If(!q.from.IsZero(), "created_at >= ?", q.from.UnixMilli())
	w.If(!q.to.IsZero(), "created_at < ?", q.to.UnixMilli())
	w.If(q.Failed == 1, "status >= 400")
	return w
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
	q := httpapi.Query[Query](r)
	list, total, err := listing.Run(r.Context(), l.DB, logQuery, filters(r, q), q.Page, q.PageSize, scanEntry)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Entry]{List: list, Total: total, Page: q.Page, PageSize: q.PageSize}, nil
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
	q := httpapi.Query[Query](r)
	list, _, err := listing.Run(r.Context(), l.DB, logQuery, filters(r, q), 1, export.MaxRows, scanEntry)
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	export.Table(w, r, q.Format, "system-log", exportColumns, list)
}
