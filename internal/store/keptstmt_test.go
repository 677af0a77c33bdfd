package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Reads on SQLite keep their prepared statements, answer as unprepared ones, leave
// queries with long IN lists unkept, and keep no more than maxKeptStmts.
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
	if got := db.keptCount.Load(); got != 2 {
		t.Fatalf("%d statements kept, want 2 (not the IN list of 9)", got)
	}
	for i := range maxKeptStmts + 10 { // distinct texts: the bound holds, every read answers
		var one int
		if err := db.QueryRow(ctx, fmt.Sprintf("SELECT 1 + 0 * %d", i)).Scan(&one); err != nil || one != 1 {
			t.Fatalf("read %d: %d %v", i, one, err)
		}
	}
	if got := db.keptCount.Load(); got != maxKeptStmts {
		t.Fatalf("%d statements kept, want the bound %d", got, maxKeptStmts)
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

// A transaction's statements are kept like reads, answer as unprepared ones, and a
// schema change or a script of several statements is never kept.
func TestTransactionStatementsKept(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for round := range 3 {
		err := db.InTx(ctx, func(tx *Tx) error {
			if round == 0 {
				if _, err := tx.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)"); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, "INSERT INTO t (id, v) VALUES (?, ?)", round+1, 10*(round+1)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE t SET v = v + 1 WHERE id = ?", round+1); err != nil {
				return err
			}
			var sum int
			if err := tx.QueryRow(ctx, "SELECT SUM(v) FROM t WHERE id <= ?", round+1).Scan(&sum); err != nil {
				return err
			}
			if want := []int{11, 32, 63}[round]; sum != want {
				t.Fatalf("round %d: sum %d, want %d", round, sum, want)
			}
			rows, err := tx.Query(ctx, "SELECT id FROM t ORDER BY id")
			if err != nil {
				return err
			}
			n := 0
			for rows.Next() {
				n++
			}
			rows.Close()
			if n != round+1 {
				t.Fatalf("round %d: %d rows", round, n)
			}
			_, err = tx.Exec(ctx, "UPDATE t SET v = v WHERE id = 0; UPDATE t SET v = v WHERE id = -1")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := db.keptTxCount.Load(); got != 4 {
		t.Fatalf("%d statements kept, want 4 (not the CREATE TABLE, nor the script of two)", got)
	}
	if got := db.keptCount.Load(); got != 0 {
		t.Fatalf("transactions took %d of the reads' statements", got)
	}
	for _, q := range []string{"CREATE TABLE x (a)", "  create index i on t (v)", "PRAGMA user_version", "BEGIN", "SELECT 1; SELECT 2"} {
		if keepable(q) {
			t.Fatalf("%q keepable", q)
		}
	}
	for _, q := range []string{"SELECT 1", " insert into t VALUES (1)", "WITH a AS (SELECT 1) SELECT * FROM a", "DELETE FROM t WHERE id = ?;"} {
		if !keepable(q) {
			t.Fatalf("%q not keepable", q)
		}
	}
}
