// Package store opens the database (embedded SQLite by default, PostgreSQL when a
// postgres:// URL is given), applies migrations and smooths over the two dialects.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // pure-Go SQLite driver "sqlite"
)

// Dialect names the SQL flavour behind a DB.
type Dialect int

const (
	SQLite Dialect = iota
	Postgres
)

func (d Dialect) String() string {
	if d == Postgres {
		return "postgres"
	}
	return "sqlite"
}

// DB is a database handle that knows its dialect. Queries are written once with `?`
// placeholders; the methods below rewrite them for PostgreSQL.
type DB struct {
	SQL     *sql.DB
	Dialect Dialect
	// Path is the SQLite file (empty for PostgreSQL).
	Path string
	// stmts are the statements Tx.Stmt prepared, by their text: prepared once for the
	// database, then once per connection that runs them.
	stmts sync.Map
	// Trace, when set (tests), is told every query run through DB.Query and DB.QueryRow.
	Trace func(q string, args []any)
	// kept are the statements prepared on SQLite for DB.Query, DB.QueryRow and a
	// transaction's Exec, Query and QueryRow (keptStmt), by their text; how many were
	// kept for reads and for transactions, each within its own bound, so that one-off
	// transactions (seeding a fleet) cannot take the reads' share.
	kept                   sync.Map
	keptCount, keptTxCount atomic.Int64
}

// maxKeptStmts bounds the statements keptStmt keeps prepared for reads, and again for
// transactions, and maxListStmt the placeholders of a kept statement with an IN list.
const (
	maxKeptStmts = 256
	maxListStmt  = 8
)

// keptStmt returns the kept prepared statement of a statement written with `?`
// placeholders, or nil to run it unprepared. On SQLite, parsing and planning a statement
// costs more than many of the statements themselves (a tenth of the write path's
// instructions, where a batch runs a dozen small ones); PostgreSQL's driver keeps its own
// statement cache. A statement with an `IN (…)` list is kept only for short lists (its
// text varies with the list's length), a script of several statements or a schema change
// never, and at most maxKeptStmts are.
func (db *DB) keptStmt(ctx context.Context, q string, count *atomic.Int64) *sql.Stmt {
	if db.Dialect != SQLite {
		return nil
	}
	if v, ok := db.kept.Load(q); ok {
		return v.(*sql.Stmt)
	}
	if !keepable(q) || count.Load() >= maxKeptStmts {
		return nil
	}
	st, err := db.SQL.PrepareContext(ctx, q)
	if err != nil {
		return nil // run unprepared: the statement reports its own error
	}
	if v, loaded := db.kept.LoadOrStore(q, st); loaded {
		st.Close()
		return v.(*sql.Stmt)
	}
	count.Add(1)
	return st
}

// keepable reports whether a statement's text may be kept prepared: a single SELECT,
// INSERT, UPDATE, DELETE or WITH statement whose IN lists, if any, are short.
func keepable(q string) bool {
	if strings.Contains(q, "IN (") && strings.Count(q, "?") > maxListStmt {
		return false
	}
	if i := strings.IndexByte(q, ';'); i >= 0 && strings.TrimSpace(q[i+1:]) != "" {
		return false
	}
	head := strings.TrimSpace(q)
	if len(head) > 6 {
		head = head[:6]
	}
	switch strings.ToUpper(head) {
	case "SELECT", "INSERT", "UPDATE", "DELETE":
		return true
	}
	return strings.HasPrefix(strings.ToUpper(head), "WITH")
}

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("store: not found")

// Open connects to url, or to the SQLite file helio.db in dataDir when url is empty.
func Open(ctx context.Context, dataDir, url string) (*DB, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return openPostgres(ctx, url)
	}
	if url != "" && !strings.HasPrefix(url, "sqlite://") {
		return nil, fmt.Errorf("store: unsupported database URL %q (want postgres://… or sqlite://PATH)", url)
	}
	path := strings.TrimPrefix(url, "sqlite://")
	if path == "" {
		if err := os.MkdirAll(dataDir, 0o750); err != nil {
			return nil, fmt.Errorf("store: unable to create data directory: %w", err)
		}
		path = filepath.Join(dataDir, "helio.db")
	}
	return openSQLite(ctx, path)
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	// Settings applied on every connection: wait for the writer instead of failing,
	// write-ahead log, foreign keys, fsync at checkpoints only (safe with WAL), and
	// BEGIN IMMEDIATE so two writers never deadlock upgrading a read lock.
	dsn := "file:" + path + "?_pragma=busy_timeout(15000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=temp_store(MEMORY)" +
		"&_pragma=cache_size(-65536)&_pragma=mmap_size(1073741824)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: unable to open %s: %w", path, err)
	}
	return &DB{SQL: db, Dialect: SQLite, Path: path}, nil
}

func openPostgres(ctx context.Context, url string) (*DB, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open PostgreSQL: %w", err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: unable to reach PostgreSQL: %w", err)
	}
	return &DB{SQL: db, Dialect: Postgres}, nil
}

// Close closes the pool.
func (db *DB) Close() error { return db.SQL.Close() }

// Rebind rewrites `?` placeholders as `$1, $2, …` for PostgreSQL. Question marks inside
// single-quoted literals are left alone.
func (db *DB) Rebind(q string) string { return rebind(db.Dialect, q) }

func rebind(d Dialect, q string) string {
	if d != Postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n, inQuote := 0, false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			inQuote = !inQuote
			b.WriteByte(c)
		case c == '?' && !inQuote:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Exec runs a statement written with `?` placeholders.
func (db *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return db.SQL.ExecContext(ctx, db.Rebind(q), args...)
}

// Query runs a query written with `?` placeholders.
func (db *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if db.Trace != nil {
		db.Trace(q, args)
	}
	if st := db.keptStmt(ctx, q, &db.keptCount); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.SQL.QueryContext(ctx, db.Rebind(q), args...)
}

// QueryRow runs a single-row query written with `?` placeholders.
func (db *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if db.Trace != nil {
		db.Trace(q, args)
	}
	if st := db.keptStmt(ctx, q, &db.keptCount); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.SQL.QueryRowContext(ctx, db.Rebind(q), args...)
}

// Insert runs an INSERT and returns the new row's id (the table's `id` column).
func (db *DB) Insert(ctx context.Context, q string, args ...any) (int64, error) {
	return insert(ctx, db.Dialect, db.SQL, q, args...)
}

type queryer interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func insert(ctx context.Context, d Dialect, x queryer, q string, args ...any) (int64, error) {
	var id int64
	err := x.QueryRowContext(ctx, rebind(d, q)+" RETURNING id", args...).Scan(&id)
	return id, err
}

// Tx is a transaction that rewrites placeholders like DB does.
type Tx struct {
	SQL     *sql.Tx
	Dialect Dialect
	db      *DB
}

// Stmt returns the transaction's use of a statement written with `?` placeholders that is
// prepared once and kept for the life of the database: for the write path's statements,
// run with the same text in transaction after transaction. The transaction closes it.
func (tx *Tx) Stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if tx.db == nil {
		return tx.Prepare(ctx, q)
	}
	v, ok := tx.db.stmts.Load(q)
	if !ok {
		st, err := tx.db.SQL.PrepareContext(ctx, rebind(tx.Dialect, q))
		if err != nil {
			return nil, err
		}
		var loaded bool
		if v, loaded = tx.db.stmts.LoadOrStore(q, st); loaded {
			st.Close()
		}
	}
	return tx.SQL.StmtContext(ctx, v.(*sql.Stmt)), nil
}

func (tx *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := tx.kept(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.SQL.ExecContext(ctx, rebind(tx.Dialect, q), args...)
}

func (tx *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := tx.kept(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.SQL.QueryContext(ctx, rebind(tx.Dialect, q), args...)
}

func (tx *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := tx.kept(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return tx.SQL.QueryRowContext(ctx, rebind(tx.Dialect, q), args...)
}

// kept is the transaction's use of the database's kept statement for q (keptStmt), or nil
// to run q unprepared; the transaction closes it.
func (tx *Tx) kept(ctx context.Context, q string) *sql.Stmt {
	if tx.db == nil {
		return nil
	}
	if st := tx.db.keptStmt(ctx, q, &tx.db.keptTxCount); st != nil {
		return tx.SQL.StmtContext(ctx, st)
	}
	return nil
}

// Insert runs an INSERT inside the transaction and returns the new row's id.
func (tx *Tx) Insert(ctx context.Context, q string, args ...any) (int64, error) {
	return insert(ctx, tx.Dialect, tx.SQL, q, args...)
}

// Prepare prepares a statement written with `?` placeholders.
func (tx *Tx) Prepare(ctx context.Context, q string) (*sql.Stmt, error) {
	return tx.SQL.PrepareContext(ctx, rebind(tx.Dialect, q))
}

// InTx runs fn in a transaction, committing if it returns nil and rolling back otherwise.
func (db *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: unable to begin transaction: %w", err)
	}
	tx := &Tx{SQL: sqlTx, Dialect: db.Dialect, db: db}
	if err := fn(tx); err != nil {
		_ = sqlTx.Rollback()
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("store: unable to commit: %w", err)
	}
	return nil
}

// Snapshot begins a read-only transaction whose reads all see the database as it was at
// its first statement, while writers go on: REPEATABLE READ on PostgreSQL, a deferred read
// transaction in SQLite's write-ahead log (not BEGIN IMMEDIATE, so it takes no write lock).
// The caller rolls it back.
func (db *DB) Snapshot(ctx context.Context) (*Tx, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.Dialect == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	sqlTx, err := db.SQL.BeginTx(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("store: unable to begin a read transaction: %w", err)
	}
	return &Tx{SQL: sqlTx, Dialect: db.Dialect, db: db}, nil
}

// Rollback ends the transaction, keeping nothing.
func (tx *Tx) Rollback() error { return tx.SQL.Rollback() }

// IsUniqueViolation reports whether err is a unique-constraint failure in either dialect.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505")
}

// Querier runs queries: a DB, or a Tx.
type Querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// IDs runs a query whose one column is an id and returns the ids in the query's order.
func IDs(ctx context.Context, db Querier, q string, args ...any) ([]int64, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
