package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/internal/store"
)

// pgFleetDB is the PostgreSQL database a fleet of that name is built into, e.g.
// helio_bench_fleet_10000x20_1d.
func pgFleetDB(name string) string {
	return "helio_bench_" + strings.NewReplacer("-", "_", ".", "_").Replace(name)
}

// pgURLFor is base (a PostgreSQL URL) with its database replaced by db.
func pgURLFor(base, db string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("-scale-pg: %q is not a postgres:// URL", base)
	}
	u.Path = "/" + db
	return u.String(), nil
}

// buildFleetPG is buildFleet into a PostgreSQL database of its own (created, or dropped and
// created again, on -scale-pg's server); the work directory keeps the marker, which names
// the database, so a later run with -keep reuses the fleet.
func (e *env) buildFleetPG(ctx context.Context, name string, spec fleet.Spec) (string, *fleet.Info, error) {
	name += "-pg"
	dir := filepath.Join(e.work, name)
	dbName := pgFleetDB(name)
	dbURL, err := pgURLFor(e.cfg.scalePG, dbName)
	if err != nil {
		return "", nil, err
	}
	if info := fleet.Reuse(dir, spec); info != nil && info.DB == dbURL {
		if db, err := store.Open(ctx, "", dbURL); err == nil {
			db.Close()
			log.Printf("   reusing %s in PostgreSQL database %s (history to %s)", dir, dbName, info.To.Format(time.RFC3339))
			return dir, info, analyze(ctx, dbURL)
		}
	}
	os.RemoveAll(dir)
	if err := pgRecreate(ctx, e.cfg.scalePG, dbName, true); err != nil {
		return "", nil, err
	}
	log.Printf("   building %s in PostgreSQL database %s: %d stations × %d devices × %d days through the write path",
		name, dbName, spec.Stations, spec.DevicesPerStation, spec.Days)
	info, err := fleet.BuildIn(ctx, dir, dbURL, spec, nil, func(s string) { log.Printf("   %s", s) })
	if err != nil {
		return "", nil, err
	}
	log.Printf("   %s samples in %.0f s (%s samples/s)", num(float64(info.Samples)), info.BackfillSeconds, num(float64(info.Samples)/info.BackfillSeconds))
	return dir, info, analyze(ctx, dbURL)
}

// analyze gathers the planner's statistics of a fleet's database, as autovacuum does soon
// after a bulk load on a server that runs it (this project's CI servers run without it,
// and a database never analyzed is priced from default guesses).
func analyze(ctx context.Context, dbURL string) error {
	db, err := store.Open(ctx, "", dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	t0 := time.Now()
	if _, err := db.Exec(ctx, "ANALYZE"); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	log.Printf("   statistics gathered (ANALYZE) in %s", time.Since(t0).Round(time.Millisecond))
	return nil
}

// pgRecreate drops the database db on base's server and, with create, creates it empty.
func pgRecreate(ctx context.Context, base, db string, create bool) error {
	admin, err := store.Open(ctx, "", base)
	if err != nil {
		return err
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, db)); err != nil {
		return fmt.Errorf("dropping database %s: %w", db, err)
	}
	if !create {
		return nil
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf(`CREATE DATABASE %q`, db)); err != nil {
		return fmt.Errorf("creating database %s: %w", db, err)
	}
	return nil
}

// dropFleet removes a fleet built for one run: its directory and, on PostgreSQL, its
// database.
func (e *env) dropFleet(ctx context.Context, dir string, info *fleet.Info) {
	os.RemoveAll(dir)
	if info.DB != "" {
		u, err := url.Parse(info.DB)
		if err == nil {
			if err := pgRecreate(ctx, e.cfg.scalePG, strings.TrimPrefix(u.Path, "/"), false); err != nil {
				log.Printf("   %v", err)
			}
		}
	}
}
