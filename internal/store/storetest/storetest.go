// Package storetest gives tests a fresh, migrated database: SQLite in a temporary
// directory, or a private schema in the local PostgreSQL test database.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"testing"

	"github.com/helio-energy/helio/internal/store"
)

// PostgresURL is the PostgreSQL server the tests use (HELIO_TEST_PG overrides it).
func PostgresURL() string {
	if u := os.Getenv("HELIO_TEST_PG"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// SQLite returns a fresh migrated SQLite database, closed when the test ends.
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// Postgres returns a fresh migrated database in its own schema of the PostgreSQL test
// database; the schema is dropped when the test ends.
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	return PostgresSchema(t, NewSchemaName())
}

// NewSchemaName returns a random schema name for a test.
func NewSchemaName() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "t_" + hex.EncodeToString(b)
}

// PostgresSchema opens (and migrates) the named schema; it is dropped at test end.
func PostgresSchema(t testing.TB, schema string) *store.DB {
	t.Helper()
	ctx := context.Background()
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
		t.Fatalf("PostgreSQL at %s: %v", PostgresURL(), err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", PostgresURL())
		if err == nil {
			_, _ = a.ExecContext(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			a.Close()
		}
	})
	db, err := store.Open(ctx, "", SchemaURL(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}

// SchemaURL is the connection URL that puts a session in the given schema.
func SchemaURL(schema string) string {
	return PostgresURL() + "&search_path=" + schema
}

// Each runs fn once on SQLite and once on PostgreSQL, as subtests.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}
