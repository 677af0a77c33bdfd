// Package cli implements the helio commands: serve, migrate, user add|passwd, key, version.
package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/server"
	"github.com/helio-energy/helio/internal/store"
)

const usage = `Helio — monitoring and operations console for PV stations and storage fleets.

Usage:
  helio serve [--addr 127.0.0.1:8080] [--data DIR] [--demo] [--db URL] [--mqtt URL]
  helio migrate [--data DIR] [--db URL]
  helio user add [--role admin|user] [--org ID] USERNAME   (password read from stdin)
  helio user passwd USERNAME                               (password read from stdin)
  helio key list|issue|rotate|revoke [--org ID] [--device SN | --collector SN]   (ingest keys)
  helio version

Every flag has an environment twin: --addr is HELIO_ADDR, --db is HELIO_DB, and so on.
Run "helio serve --help" for all serve options.
`

// Main runs a command and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(args[1:], stderr)
	case "migrate":
		err = migrate(args[1:], stdout, stderr)
	case "user":
		err = user(args[1:], os.Stdin, stdout, stderr)
	case "key":
		err = key(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "helio", server.Version)
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "helio: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "helio:", err)
		return 1
	}
	return 0
}

func serve(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	setupLogging(cfg.LogFormat, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := server.New(ctx, cfg)
	if err != nil {
		return err
	}
	return s.Run(ctx)
}

func setupLogging(format string, w io.Writer) {
	var h slog.Handler = slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})
	if format == "json" {
		h = slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})
	}
	slog.SetDefault(slog.New(h))
}

func openDB(args []string, name string, stderr io.Writer, extra func(fs *flag.FlagSet)) (*store.DB, *flag.FlagSet, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config.Flags(fs)
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	db, err := store.Open(ctx, cfg.DataDir, cfg.DBURL)
	if err != nil {
		return nil, nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, fs, nil
}

func migrate(args []string, stdout, stderr io.Writer) error {
	db, _, err := openDB(args, "migrate", stderr, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := db.SchemaVersion(context.Background())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "schema at version %d (%s)\n", v, db.Dialect)
	return nil
}

func user(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "add" && args[0] != "passwd") {
		return fmt.Errorf("usage: helio user add|passwd USERNAME")
	}
	sub := args[0]
	var role string
	var orgID int64
	db, fs, err := openDB(args[1:], "user "+sub, stderr, func(fs *flag.FlagSet) {
		if sub == "add" {
			fs.StringVar(&role, "role", "user", "admin or user")
			fs.Int64Var(&orgID, "org", 0, "organisation id (default: the first organisation)")
		}
	})
	if err != nil {
		return err
	}
	defer db.Close()
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: helio user %s USERNAME", sub)
	}
	username := fs.Arg(0)
	pw, err := readPassword(stdin, stdout)
	if err != nil {
		return err
	}
	if k := auth.PasswordProblem(pw); k != "" {
		return fmt.Errorf("the password must be longer than 6 characters, with digits, upper- and lower-case letters and no spaces")
	}
	ctx := context.Background()
	svc := &auth.Service{DB: db, Sessions: &auth.Sessions{DB: db}}
	if sub == "passwd" {
		u, err := org.UserByUsername(ctx, db, username)
		if err != nil {
			return fmt.Errorf("no user %q", username)
		}
		if err := svc.SetPassword(ctx, u.ID, pw); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "password of %q changed; their sessions have ended\n", username)
		return nil
	}
	if role != "admin" && role != "user" {
		return fmt.Errorf("--role must be admin or user")
	}
	if orgID == 0 {
		if err := db.QueryRow(ctx, "SELECT MIN(id) FROM organizations").Scan(&orgID); err != nil || orgID == 0 {
			if orgID, err = org.CreateOrg(ctx, db, "My organisation"); err != nil {
				return err
			}
		}
	}
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return err
	}
	authority := org.AuthorityAuthorized
	if role == "admin" {
		authority = org.AuthorityAll
	}
	if _, err := org.CreateUser(ctx, db, &org.User{OrgID: orgID, Username: username, PasswordHash: hash, Role: role,
		StationAuthority: authority, Name: username}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user %q added (role %s, organisation %d)\n", username, role, orgID)
	return nil
}

func readPassword(stdin io.Reader, stdout io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprint(stdout, "password: ")
		}
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", fmt.Errorf("no password given on standard input")
	}
	return pw, nil
}
