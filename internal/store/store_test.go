package store_test

import (
	"context"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestMigrateIsIdempotentAndPortable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		migs, err := store.Migrations()
		if err != nil {
			t.Fatal(err)
		}
		v, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v != migs[len(migs)-1].Version {
			t.Fatalf("schema version %d, want %d", v, migs[len(migs)-1].Version)
		}
		n, err := db.Migrate(ctx)
		if err != nil || n != 0 {
			t.Fatalf("second migrate applied %d (%v), want 0", n, err)
		}
		id, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Org 'quoted?'", 1)
		if err != nil || id == 0 {
			t.Fatalf("insert: id=%d err=%v", id, err)
		}
		var name string
		if err := db.QueryRow(ctx, "SELECT name FROM organizations WHERE id = ? AND name <> '?'", id).Scan(&name); err != nil {
			t.Fatal(err)
		}
		if name != "Org 'quoted?'" {
			t.Fatalf("got %q", name)
		}
	})
}

func TestRebind(t *testing.T) {
	db := &store.DB{Dialect: store.Postgres}
	got := db.Rebind("SELECT a FROM t WHERE b = ? AND c = '?' AND d IN (?, ?)")
	want := "SELECT a FROM t WHERE b = $1 AND c = '?' AND d IN ($2, $3)"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if (&store.DB{Dialect: store.SQLite}).Rebind("a = ?") != "a = ?" {
		t.Fatal("sqlite query must be left alone")
	}
}

func TestOpenRejectsUnknownURL(t *testing.T) {
	if _, err := store.Open(context.Background(), t.TempDir(), "mysql://x"); err == nil {
		t.Fatal("want an error for an unsupported URL")
	}
}
