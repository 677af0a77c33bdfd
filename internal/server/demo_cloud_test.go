package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"time"

	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestDemoCloud: the demo's SolarEdge account is connected on a fresh database only, and
// discovery through the worker reaches the stand-in and lists its two sites and three
// inverters, none of them in Helio yet.
func TestDemoCloud(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := &config.Config{Addr: "127.0.0.1:0", SessionTTL: time.Hour, RawRetention: 14 * 24 * time.Hour, SimSpeed: 1, Seed: 1,
		SecretKey: "demo test key"}
	db := storetest.SQLite(t)
	s := NewWithDB(cfg, db)
	org, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES ('Demo', 0)")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.startDemoCloud(ctx, org, true); err != nil {
		t.Fatal(err)
	}
	if err := s.startDemoCloud(ctx, org, false); err != nil { // a restart: the stand-in again, no second connection
		t.Fatal(err)
	}
	conns, err := s.Cloud.Store.List(ctx, org)
	if err != nil || len(conns) != 1 || conns[0].Name != demoCloudName {
		t.Fatalf("connections %+v, %v", conns, err)
	}
	sites, err := s.Cloud.Discover(ctx, conns[0])
	if err != nil {
		t.Fatal(err)
	}
	devices := 0
	for _, site := range sites {
		for _, d := range site.Devices {
			devices++
			if d.DeviceID != 0 {
				t.Errorf("%s is already in Helio", d.Serial)
			}
		}
	}
	if len(sites) != 2 || devices != 3 {
		t.Fatalf("discovered %d sites with %d inverters, want 2 and 3: %+v", len(sites), devices, sites)
	}
}

// TestDemoSecretKey: made once, kept in the data directory, read back the same.
func TestDemoSecretKey(t *testing.T) {
	dir := t.TempDir()
	k1, err := demoSecretKey(dir)
	if err != nil || len(k1) < 32 {
		t.Fatalf("key %q, %v", k1, err)
	}
	k2, err := demoSecretKey(dir)
	if err != nil || k2 != k1 {
		t.Fatalf("second read %q, %v; want %q", k2, err, k1)
	}
	if fi, err := os.Stat(filepath.Join(dir, "demo-secret.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
}
