package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

func run(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	r, w, _ := os.Pipe()
	_, _ = w.WriteString(stdin)
	w.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	var out bytes.Buffer
	code := Main(args, &out, &out)
	return code, out.String()
}

func TestUserCommands(t *testing.T) {
	dir := t.TempDir()
	if code, out := run(t, "", "migrate", "--data", dir); code != 0 || !strings.Contains(out, "schema at version") {
		t.Fatalf("migrate: %d %s", code, out)
	}
	if code, out := run(t, "Secret123\n", "user", "add", "--data", dir, "--role", "admin", "alice"); code != 0 {
		t.Fatalf("user add: %d %s", code, out)
	}
	if code, out := run(t, "weak\n", "user", "add", "--data", dir, "bob"); code == 0 || !strings.Contains(out, "longer than 6") {
		t.Fatalf("weak password accepted: %d %s", code, out)
	}
	if code, _ := run(t, "Secret123\n", "user", "add", "--data", dir, "alice"); code == 0 {
		t.Fatal("duplicate username accepted")
	}
	if code, out := run(t, "Better456\n", "user", "passwd", "--data", dir, "alice"); code != 0 {
		t.Fatalf("passwd: %d %s", code, out)
	}
	if code, _ := run(t, "Better456\n", "user", "passwd", "--data", dir, "nobody"); code == 0 {
		t.Fatal("passwd of an unknown user succeeded")
	}
	db, err := store.Open(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := org.UserByUsername(context.Background(), db, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := auth.CheckPassword(u.PasswordHash, "Better456"); !ok || u.Role != "admin" || u.StationAuthority != "all" {
		t.Fatalf("alice: role %s authority %s, new password ok=%v", u.Role, u.StationAuthority, ok)
	}
}

func TestUnknownCommandAndVersion(t *testing.T) {
	if code, _ := run(t, "", "frobnicate"); code != 2 {
		t.Fatalf("unknown command exit %d", code)
	}
	if code, out := run(t, "", "version"); code != 0 || !strings.HasPrefix(out, "helio ") {
		t.Fatalf("version: %d %q", code, out)
	}
	if code, out := run(t, "", "serve", "--sim-speed", "0"); code != 1 || !strings.Contains(out, "--sim-speed") {
		t.Fatalf("bad flag: %d %q", code, out)
	}
}
