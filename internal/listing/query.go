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
}

// Run counts the matches and reads page (from 1) of size rows; size 0 reads every match
// (callers bound it). scan reads one row.
func Run[T any](ctx context.Context, db *store.DB, q Query, w *Where, page, size int, scan func(*sql.Rows) (T, error)) ([]T, int64, error) {
	where, args := w.SQL()
	from := q.CountFrom
	if from == "" {
		from = q.From
	}
	var total int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*)"+from+" WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("listing: unable to count: %w", err)
	}
	out := []T{}
	if total == 0 {
		return out, 0, nil
	}
	stmt := "SELECT " + q.Columns + q.From + " WHERE " + where
	if q.Order != "" {
		stmt += " ORDER BY " + q.Order
	}
	if size > 0 {
		stmt += fmt.Sprintf(" LIMIT %d OFFSET %d", size, (max(page, 1)-1)*size)
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

// Slice pages a list already judged in memory; size 0 keeps every item.
func Slice[T any](items []T, page, size int) []T {
	if size <= 0 {
		return items
	}
	from := min((max(page, 1)-1)*size, len(items))
	return items[from:min(from+size, len(items))]
}
