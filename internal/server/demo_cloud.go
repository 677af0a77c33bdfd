package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/cloud/enphase"
	enstandin "github.com/helio-energy/helio/internal/cloud/enphase/standin"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	fsstandin "github.com/helio-energy/helio/internal/cloud/fusionsolar/standin"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	iscstandin "github.com/helio-energy/helio/internal/cloud/isolarcloud/standin"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
)

// The demo's vendor clouds: SolarEdge's, FusionSolar's, iSolarCloud's and Enphase's APIs served by the
// stand-ins the tests use, on 127.0.0.1, with made-up plants whose data starts 60 days back.
// The demo organisation has a connection to each that nobody has confirmed yet: an
// administrator discovers its sites, confirms them, and watches the history come in within
// the stand-in's quota, as with a real account. docs/ingest.md, "Vendor clouds".
const (
	demoCloudKey  = "DEMO-SOLAREDGE-KEY"
	demoCloudName = "SolarEdge demo account"
	// demoEnphaseToken is the refresh token the demo's Enphase connection starts with (an
	// owner's authorisation, given once); Enphase rotates it at every refresh
	demoEnphaseToken = "demo-enphase-refresh-1"
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

// demoAccount is one demo connection to a stand-in.
type demoAccount struct {
	vendor, name, credentials string
	budget                    int
	serve                     http.Handler
	// grant, when set, makes the stand-in take the connection's stored credentials again
	// after a restart (a vendor whose tokens rotate: the stand-in forgets them)
	grant func(credentials string)
}

// demoAccounts are the demo's vendor accounts: the stand-ins' made-up plants, data from 60
// days back, each in its vendor's own shapes, times and quota.
func demoAccounts(now time.Time) []demoAccount {
	start := now.AddDate(0, 0, -60).Format(solaredge.DateLayout)
	se := &standin.Server{Keys: map[string]bool{demoCloudKey: true}, Now: time.Now, Sites: []standin.Site{
		{ID: 4101, Name: "Weingut Sonnenhang", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E1D0A11-01", Name: "Inverter 1", Model: "SE25K", PeakW: 25000},
			{Serial: "7E1D0A12-02", Name: "Inverter 2", Model: "SE25K", PeakW: 25000},
		}},
		{ID: 4102, Name: "Agriturismo Collina", TimeZone: "Europe/Rome", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E1D0B21-03", Name: "Inverter 1", Model: "SE17K", PeakW: 17000},
		}},
	}}
	fs := &fsstandin.Server{Accounts: map[string]string{"demo-northbound": "Demo-System-Code-1"}, Now: time.Now, Plants: []fsstandin.Plant{
		{Code: "NE=33710001", Name: "Yangzhou Logistics Park Rooftop", TimeZone: "Asia/Shanghai", Start: start, Inverters: []fsstandin.Inverter{
			{ID: 1000000033710101, Serial: "HV2260012345", Name: "SUN2000-100KTL-1", Inv: "SUN2000-100KTL-M1", PeakW: 100000},
		}},
	}}
	isc := &iscstandin.Server{AppKey: "DEMOAPPKEY", AccessKey: "demo-access-key", Users: map[string]string{"demo@helio.example": "Demo-Pass-1"},
		Now: time.Now, Plants: []iscstandin.Plant{
			{ID: 1260001, Name: "Toowoomba Cold Store", Offset: 10, Start: start, Inverters: []iscstandin.Inverter{
				{Serial: "A2271234567", Name: "SG50CX", Model: "SG50CX", Channel: 1, PeakW: 50000},
			}},
		}}
	en := &enstandin.Server{APIKey: "DEMOENPHASEKEY", ClientID: "demo-client", ClientSecret: "demo-client-secret", Now: time.Now,
		Systems: []enstandin.System{
			{ID: 2975001, Name: "Hartley Residence", TimeZone: "Australia/Sydney", Start: start, Country: "AU", Micros: 24, MicroW: 366},
		}}
	en.Grant(demoEnphaseToken)
	grantEnphase := func(credentials string) {
		var c enphase.Credentials
		if json.Unmarshal([]byte(credentials), &c) == nil && c.RefreshToken != "" {
			en.Grant(c.RefreshToken)
		}
	}
	return []demoAccount{
		{vendor: solaredge.Vendor.Name, name: demoCloudName, credentials: demoCloudKey, budget: solaredge.Vendor.DefaultBudget, serve: se},
		{vendor: fusionsolar.Vendor.Name, name: "FusionSolar demo account", budget: fusionsolar.Vendor.DefaultBudget, serve: fs,
			credentials: `{"userName":"demo-northbound","systemCode":"Demo-System-Code-1"}`},
		{vendor: isolarcloud.Vendor.Name, name: "iSolarCloud demo account", budget: isolarcloud.Vendor.DefaultBudget, serve: isc,
			credentials: `{"appKey":"DEMOAPPKEY","accessKey":"demo-access-key","userAccount":"demo@helio.example","userPassword":"Demo-Pass-1"}`},
		{vendor: enphase.Vendor.Name, name: "Enphase demo account", budget: enphase.Vendor.DefaultBudget, serve: en, grant: grantEnphase,
			credentials: `{"apiKey":"DEMOENPHASEKEY","clientId":"demo-client","clientSecret":"demo-client-secret","refreshToken":"` + demoEnphaseToken + `"}`},
	}
}

// startDemoCloud serves the stand-ins until ctx ends, points the worker at them, and on a
// fresh demo database connects the demo organisation to each.
func (s *Server) startDemoCloud(ctx context.Context, orgID int64, fresh bool) error {
	if s.Cloud.BaseURLs == nil {
		s.Cloud.BaseURLs = map[string]string{}
	}
	for _, a := range demoAccounts(time.Now()) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("demo cloud: %w", err)
		}
		srv := &http.Server{Handler: a.serve, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		go func() { <-ctx.Done(); _ = srv.Close() }()
		s.Cloud.BaseURLs[a.vendor] = "http://" + ln.Addr().String()
		slog.Info("demo vendor cloud", "vendor", a.vendor, "address", s.Cloud.BaseURLs[a.vendor])
		if !fresh {
			if a.grant != nil {
				if err := s.regrantDemo(ctx, orgID, a); err != nil {
					return err
				}
			}
			continue
		}
		if _, err := s.Cloud.Store.Create(ctx, orgID, a.vendor, a.name, a.credentials, a.budget); err != nil {
			return fmt.Errorf("demo cloud connection: %w", err)
		}
	}
	return nil
}

// regrantDemo hands the stored credentials of the organisation's connections to a's vendor
// back to its stand-in, which forgot them when the server stopped.
func (s *Server) regrantDemo(ctx context.Context, orgID int64, a demoAccount) error {
	conns, err := s.Cloud.Store.List(ctx, orgID)
	if err != nil {
		return fmt.Errorf("demo cloud: %w", err)
	}
	for _, c := range conns {
		if c.Vendor != a.vendor {
			continue
		}
		creds, err := s.Cloud.Store.OpenCredentials(c)
		if err != nil {
			slog.Warn("demo cloud: credentials do not open", "connection", c.Name, "err", err)
			continue
		}
		a.grant(creds)
	}
	return nil
}
