package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/store"
)

var keyRe = regexp.MustCompile(`(?m)^hk_[A-Za-z0-9_-]{43}$`)

func TestKeyCommand(t *testing.T) {
	dir := t.TempDir()
	if code, out := run(t, "", "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: %d %s", code, out)
	}
	db, err := store.Open(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now().UnixMilli()
	orgID, _ := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES ('Org', ?)", now)
	st, _ := db.Insert(ctx, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, 'Plant', 'UTC', 10, ?, ?)", orgID, now, now)
	if _, err := db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, collector_sn, created_at, updated_at)
		VALUES (?, ?, 'Inverter', 'INV-CLI-1', 'inverter', 'COLL-CLI', ?, ?)`, orgID, st, now, now); err != nil {
		t.Fatal(err)
	}
	db.Close()

	code, out := run(t, "", "key", "issue", "--data", dir, "--device", "INV-CLI-1")
	first := keyRe.FindString(out)
	if code != 0 || first == "" {
		t.Fatalf("issue: %d %s", code, out)
	}
	code, out = run(t, "", "key", "list", "--data", dir)
	if code != 0 || !strings.Contains(out, "INV-CLI-1") || !strings.Contains(out, ingest.HashKey(first)[:8]) || strings.Contains(out, first) {
		t.Fatalf("list: %d %s", code, out)
	}
	code, out = run(t, "", "key", "rotate", "--data", dir, "--device", "INV-CLI-1")
	if second := keyRe.FindString(out); code != 0 || second == "" || second == first {
		t.Fatalf("rotate: %d %s", code, out)
	}
	if code, out := run(t, "", "key", "issue", "--data", dir, "--collector", "COLL-CLI"); code != 0 || keyRe.FindString(out) == "" {
		t.Fatalf("collector key: %d %s", code, out)
	}
	for _, args := range [][]string{{"--device", "INV-CLI-1"}, {"--collector", "COLL-CLI"}} {
		if code, out := run(t, "", append([]string{"key", "revoke", "--data", dir}, args...)...); code != 0 {
			t.Fatalf("revoke %v: %d %s", args, code, out)
		}
	}
	if code, out := run(t, "", "key", "list", "--data", dir); code != 0 || strings.Contains(out, "INV-CLI-1") || strings.Contains(out, "COLL-CLI") {
		t.Fatalf("after revoking: %d %s", code, out)
	}
	for _, bad := range [][]string{
		{"key", "issue", "--data", dir},
		{"key", "issue", "--data", dir, "--device", "NOPE"},
		{"key", "revoke", "--data", dir, "--collector", "NOPE"},
		{"key", "frob", "--data", dir},
	} {
		if code, out := run(t, "", bad...); code == 0 {
			t.Fatalf("%v succeeded: %s", bad, out)
		}
	}
}
