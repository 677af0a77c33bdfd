package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/store"
)

// Explain returns the plan of q, a line per step: SQLite's EXPLAIN QUERY PLAN, or
// PostgreSQL's EXPLAIN with sequential scans priced out (so that a small test table still
// shows whether an index can serve the query).
func Explain(t testing.TB, db *store.DB, q string, args []any) string {
	t.Helper()
	ctx := context.Background()
	var plan []string
	err := db.InTx(ctx, func(tx *store.Tx) error {
		prefix := "EXPLAIN QUERY PLAN "
		if db.Dialect == store.Postgres {
			prefix = "EXPLAIN "
			if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, prefix+q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			dest := make([]any, len(cols))
			for i := range dest {
				dest[i] = new(any)
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			var line string
			switch v := (*(dest[len(dest)-1].(*any))).(type) {
			case string:
				line = v
			case []byte:
				line = string(v)
			}
			plan = append(plan, strings.TrimSpace(line))
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("explain %s: %v", strings.Join(strings.Fields(q), " "), err)
	}
	return strings.Join(plan, "\n")
}
