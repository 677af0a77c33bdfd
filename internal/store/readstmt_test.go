package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Reads on SQLite keep their prepared statements, answer as unprepared ones, leave
// queries with long IN lists unkept, and keep no more than maxReadStmts.
func TestReadStatementsKept(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if _, err := db.Exec(ctx, "INSERT INTO t (id, v) VALUES (?, ?)", i, fmt.Sprint("v", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 3; i++ { // the same text, again and again: one statement
		var v string
		if err := db.QueryRow(ctx, "SELECT v FROM t WHERE id = ?", i).Scan(&v); err != nil || v != fmt.Sprint("v", i) {
			t.Fatalf("row %d: %q %v", i, v, err)
		}
	}
	for _, list := range [][]any{{1, 3}, {1, 2, 3, 1, 2, 3, 1, 2, 3}} {
		q := "SELECT v FROM t WHERE id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(list)), ",") + ")"
		rows, err := db.Query(ctx, q, list...)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if want := min(len(list), 3); n != want {
			t.Fatalf("IN list of %d read %d rows, want %d", len(list), n, want)
		}
	}
	if got := db.readCount.Load(); got != 2 {
		t.Fatalf("%d statements kept, want 2 (not the IN list of 9)", got)
	}
	for i := range maxReadStmts + 10 { // distinct texts: the bound holds, every read answers
		var one int
		if err := db.QueryRow(ctx, fmt.Sprintf("SELECT 1 + 0 * %d", i)).Scan(&one); err != nil || one != 1 {
			t.Fatalf("read %d: %d %v", i, one, err)
		}
	}
	if got := db.readCount.Load(); got != maxReadStmts {
		t.Fatalf("%d statements kept, want the bound %d", got, maxReadStmts)
	}
	// a statement kept before a schema change still reads the table as it is now
	if _, err := db.Exec(ctx, "ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'"); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := db.QueryRow(ctx, "SELECT v FROM t WHERE id = ?", 2).Scan(&v); err != nil || v != "v2" {
		t.Fatalf("after ALTER: %q %v", v, err)
	}
}
