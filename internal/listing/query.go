package listing

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/helio-energy/helio/internal/store"
)

// Where gathers the AND-ed conditions of a list query and their arguments.
type Where struct {
	conds []string
	args  []any
}

// Add adds a condition with its arguments.
func (w *Where) Add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

// If adds the condition when ok.
func (w *Where) If(ok bool, cond string, args ...any) {
	if ok {
		w.Add(cond, args...)
	}
}

// In keeps rows whose column is one of ids; a non-nil empty ids keeps nothing, nil adds
// nothing.
func (w *Where) In(column string, ids []int64) {
	if ids == nil {
		return
	}
	if len(ids) == 0 {
		w.Add("1 = 0")
		return
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	w.Add(column+" IN ("+Placeholders(len(ids))+")", args...)
}

// SQL is the condition ("1 = 1" without any) and its arguments.
func (w *Where) SQL() (string, []any) {
	if len(w.conds) == 0 {
		return "1 = 1", nil
	}
	return strings.Join(w.conds, " AND "), w.args
}

// Placeholders is "?, ?, …" for n arguments.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// Query is one paged list: `SELECT <Columns> <From> WHERE <where> ORDER BY <Order>`,
// counted with `SELECT COUNT(*) <CountFrom or From> WHERE <where>`.
type Query struct {
	Columns   string
	From      string // " FROM … JOIN …"
	CountFrom string // a lighter FROM for the count (the joins the condition needs); From when empty
	Order     string
	// Key and KeyFrom page by a deferred join: the page's keys are read first from KeyFrom
	// alone (an index, where one covers the conditions and the order), and only those rows
	// are joined; a deep page then skips index entries, not joined rows. The conditions must
	// name KeyFrom's tables only.
	Key, KeyFrom string
	// Count, when set, gives the total instead of counting the matches (a kept count).
	Count func(context.Context) (int64, error)
	// CountCap, when set, stops counting after CountCap matches: the total is then
	// CountCap+1, which Capped turns into "more than CountCap".
	CountCap int64
	// PageSQL, when set, builds the statement reading the page and its arguments from the
	// condition and its arguments (a page merged from the heads of several index walks);
	// Order, Key and KeyFrom are then unused.
	PageSQL func(where string, args []any, page, size int) (string, []any)
}

// Capped is the total to show and whether there are more matches than it (a total that
// counting stopped at, CountCap+1).
func Capped(total, countCap int64) (int64, bool) {
	if countCap > 0 && total > countCap {
		return countCap, true
	}
	return total, false
}

// Run counts the matches and reads page (from 1) of size rows; size 0 reads every match
// (callers bound it). scan reads one row.
func Run[T any](ctx context.Context, db *store.DB, q Query, w *Where, page, size int, scan func(*sql.Rows) (T, error)) ([]T, int64, error) {
	where, args := w.SQL()
	total, err := q.total(ctx, db, where, args)
	if err != nil {
		return nil, 0, err
	}
	out := []T{}
	if total == 0 {
		return out, 0, nil
	}
	var stmt string
	if q.PageSQL != nil {
		stmt, args = q.PageSQL(where, args, max(page, 1), size)
	} else {
		stmt = q.page(where, page, size)
	}
	rows, err := db.Query(ctx, stmt, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("listing: unable to list: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, total, rows.Err()
}

func (q *Query) total(ctx context.Context, db *store.DB, where string, args []any) (int64, error) {
	if q.Count != nil {
		return q.Count(ctx)
	}
	from := q.CountFrom
	if from == "" {
		from = q.From
	}
	stmt := "SELECT COUNT(*)" + from + " WHERE " + where
	if q.CountCap > 0 {
		stmt = fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 AS one%s WHERE %s LIMIT %d) t", from, where, q.CountCap+1)
	}
	var total int64
	if err := db.QueryRow(ctx, stmt, args...).Scan(&total); err != nil {
		return 0, fmt.Errorf("listing: unable to count: %w", err)
	}
	return total, nil
}

// page is the statement reading page (from 1) of size rows; size 0 reads every match.
func (q *Query) page(where string, page, size int) string {
	order := ""
	if q.Order != "" {
		order = " ORDER BY " + q.Order
	}
	limit := ""
	if size > 0 {
		limit = fmt.Sprintf(" LIMIT %d OFFSET %d", size, (max(page, 1)-1)*size)
	}
	if q.Key != "" && size > 0 {
		return "SELECT " + q.Columns + q.From + " WHERE " + q.Key + " IN (SELECT " + q.Key + q.KeyFrom + " WHERE " + where +
			order + limit + ")" + order
	}
	return "SELECT " + q.Columns + q.From + " WHERE " + where + order + limit
}

// Slice pages a list already judged in memory; size 0 keeps every item.
func Slice[T any](items []T, page, size int) []T {
	if size <= 0 {
		return items
	}
	from := min((max(page, 1)-1)*size, len(items))
	return items[from:min(from+size, len(items))]
}
