package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestDemoCloud: the demo's vendor accounts are connected on a fresh database only (after a
// restart the Enphase stand-in takes the refresh token Enphase rotated to), and
// discovery through the worker reaches each stand-in and lists its plants and inverters,
// none of them in Helio yet.
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
	discover := func(c *cloud.Connection) ([]cloud.FoundSite, error) {
		c, err := s.Cloud.Store.Get(ctx, org, c.ID) // the credentials as stored now
		if err != nil {
			return nil, err
		}
		return s.Cloud.Discover(ctx, c)
	}
	conns, err := s.Cloud.Store.List(ctx, org)
	if err != nil || len(conns) != 4 {
		t.Fatalf("connections %+v, %v; want one per demo vendor", conns, err)
	}
	// Enphase rotates its refresh token at the first call: the new one is what is stored
	for _, c := range conns {
		if c.Vendor == "enphase" {
			if _, err := discover(c); err != nil {
				t.Fatalf("enphase before the restart: %v", err)
			}
		}
	}
	if err := s.startDemoCloud(ctx, org, false); err != nil { // a restart: the stand-ins again, no second connection
		t.Fatal(err)
	}
	if conns, err = s.Cloud.Store.List(ctx, org); err != nil || len(conns) != 4 {
		t.Fatalf("connections after a restart %+v, %v; want one per demo vendor", conns, err)
	}
	want := map[string][2]int{"solaredge": {2, 3}, "fusionsolar": {1, 1}, "isolarcloud": {1, 1}, "enphase": {1, 1}} // sites, inverters
	for _, c := range conns {
		sites, err := discover(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Vendor, err)
		}
		devices := 0
		for _, site := range sites {
			for _, d := range site.Devices {
				devices++
				if d.DeviceID != 0 {
					t.Errorf("%s: %s is already in Helio", c.Vendor, d.Serial)
				}
			}
		}
		if got := [2]int{len(sites), devices}; got != want[c.Vendor] {
			t.Errorf("%s (%s): %d sites with %d inverters, want %v", c.Name, c.Vendor, got[0], got[1], want[c.Vendor])
		}
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
