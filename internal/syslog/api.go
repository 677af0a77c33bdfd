package syslog

import (
	"database/sql"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
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
// RFC 3339 instants.
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
		Access: httpapi.Admin, Query: Query{}, RawType: "text/csv", Raw: l.export})
}

// condition builds the WHERE clause of the caller's filters.
func condition(r *http.Request) (string, []any, error) {
	q := r.URL.Query()
	where := []string{"org_id = ?"}
	args := []any{httpapi.Caller(r).OrgID}
	var v httpapi.Validator
	like := func(field, col string) {
		s := strings.TrimSpace(q.Get(field))
		v.MaxLen(field, s, 100)
		if s == "" {
			return
		}
		where = append(where, "LOWER("+col+`) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(s))+"%")
	}
	like("user", "username")
	like("object", "target")
	like("action", "action")
	var from, to time.Time
	for _, f := range []struct {
		name string
		dst  *time.Time
		op   string
	}{{"from", &from, ">="}, {"to", &to, "<="}} {
		s := q.Get(f.name)
		if s == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			v.Add(f.name, "invalid_format")
			continue
		}
		*f.dst = t
		where = append(where, "created_at "+f.op+" ?")
		args = append(args, t.UnixMilli())
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		v.Add("from", "time_range")
	}
	switch q.Get("failed") {
	case "", "0":
	case "1":
		where = append(where, "status >= 400")
	default:
		v.Add("failed", "one_of", "0, 1")
	}
	return " WHERE " + strings.Join(where, " AND "), args, v.Err()
}

func (l *Log) query(r *http.Request, cond string, args []any, limit, offset int) ([]Entry, error) {
	rows, err := l.DB.Query(r.Context(), `SELECT id, created_at, COALESCE(user_id, 0), username, action, target, detail,
		method, route, status, client_addr, before_json, after_json FROM audit_log`+cond+
		" ORDER BY created_at DESC, id DESC LIMIT "+strconv.Itoa(limit)+" OFFSET "+strconv.Itoa(offset), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		var at int64
		var uid sql.NullInt64
		if err := rows.Scan(&e.ID, &at, &uid, &e.Username, &e.Action, &e.Object, &e.Detail, &e.Method, &e.Route,
			&e.Status, &e.Address, &e.Before, &e.After); err != nil {
			return nil, err
		}
		e.UserID = uid.Int64
		e.Time = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

func (l *Log) list(r *http.Request) (any, error) {
	page, size, err := httpapi.PageParams(r)
	if err != nil {
		return nil, err
	}
	cond, args, err := condition(r)
	if err != nil {
		return nil, err
	}
	var total int64
	if err := l.DB.QueryRow(r.Context(), "SELECT COUNT(*) FROM audit_log"+cond, args...).Scan(&total); err != nil {
		return nil, httpapi.Internal(err)
	}
	list, err := l.query(r, cond, args, size, (page-1)*size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Entry]{List: list, Total: total, Page: page, PageSize: size}, nil
}

func (l *Log) export(w http.ResponseWriter, r *http.Request) {
	format, err := export.Format(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	cond, args, err := condition(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	list, err := l.query(r, cond, args, export.MaxRows, 0)
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	loc := httpapi.Locale(r)
	t := func(k string) string { return httpapi.T(loc, k) }
	headers := []string{t("col.time"), t("col.user"), t("col.action"), t("col.object"), t("col.detail"), t("col.route"),
		t("col.status"), t("col.address"), t("col.before"), t("col.after")}
	rows := make([][]any, 0, len(list))
	for _, e := range list {
		rows = append(rows, []any{e.Time.Format("2006-01-02 15:04:05"), e.Username, e.Action, e.Object, e.Detail, e.Route,
			e.Status, e.Address, e.Before, e.After})
	}
	export.Write(w, r, format, "system-log", headers, rows)
}
