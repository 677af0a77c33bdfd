package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
)

// The demo's vendor cloud: SolarEdge's Monitoring API served by the stand-in the tests use,
// on 127.0.0.1, with two made-up sites whose data starts 60 days back. The demo
// organisation has a connection to it ("SolarEdge demo account") that nobody has confirmed
// yet: an administrator discovers its sites, confirms them, and watches the history come in
// within the stand-in's quota, as with a real account. docs/ingest.md, "Vendor clouds".
const (
	demoCloudKey  = "DEMO-SOLAREDGE-KEY"
	demoCloudName = "SolarEdge demo account"
)

// demoSecretKey is the key that seals the demo's credentials when none is configured: made
// once and kept in the data directory (never used without --demo).
func demoSecretKey(dataDir string) (string, error) {
	path := filepath.Join(dataDir, "demo-secret.key")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	key := hex.EncodeToString(buf)
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("demo secret key: %w", err)
	}
	return key, nil
}

// startDemoCloud serves the stand-in until ctx ends, points the worker at it, and on a
// fresh demo database connects the demo organisation to it.
func (s *Server) startDemoCloud(ctx context.Context, orgID int64, fresh bool) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("demo cloud: %w", err)
	}
	start := time.Now().AddDate(0, 0, -60).Format(solaredge.DateLayout)
	se := &standin.Server{Keys: map[string]bool{demoCloudKey: true}, Now: time.Now, Sites: []standin.Site{
		{ID: 4101, Name: "Weingut Sonnenhang", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E1D0A11-01", Name: "Inverter 1", Model: "SE25K", PeakW: 25000},
			{Serial: "7E1D0A12-02", Name: "Inverter 2", Model: "SE25K", PeakW: 25000},
		}},
		{ID: 4102, Name: "Agriturismo Collina", TimeZone: "Europe/Rome", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E1D0B21-03", Name: "Inverter 1", Model: "SE17K", PeakW: 17000},
		}},
	}}
	srv := &http.Server{Handler: se, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if s.Cloud.BaseURLs == nil {
		s.Cloud.BaseURLs = map[string]string{}
	}
	s.Cloud.BaseURLs[solaredge.Vendor.Name] = "http://" + ln.Addr().String()
	slog.Info("demo vendor cloud", "vendor", "solaredge", "address", s.Cloud.BaseURLs[solaredge.Vendor.Name])
	if !fresh {
		return nil
	}
	if _, err := s.Cloud.Store.Create(ctx, orgID, solaredge.Vendor.Name, demoCloudName, demoCloudKey, solaredge.Vendor.DefaultBudget); err != nil {
		return fmt.Errorf("demo cloud connection: %w", err)
	}
	return nil
}
