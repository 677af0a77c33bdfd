package solaredge_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
	"github.com/helio-energy/helio/internal/telemetry"
)

// at is a fixed clock for the stand-in and the client's callers.
func at(s string) func() time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return func() time.Time { return t }
}

func TestClientReadsSitesPageByPageAndInverterDataInLocalTime(t *testing.T) {
	se := &standin.Server{Keys: map[string]bool{"K1": true}, Now: at("2026-06-10T12:00:00Z")}
	for i := 0; i < 120; i++ { // more than one page of /sites/list
		se.Sites = append(se.Sites, standin.Site{ID: int64(1000 + i), Name: fmt.Sprintf("Site %d", i), TimeZone: "Europe/Berlin",
			Start: "2026-06-01", Inverters: []standin.Inverter{{Serial: fmt.Sprintf("7E%04d-AB", i), Name: "Inverter 1", Model: "SE10K", PeakW: 10000}}})
	}
	srv := httptest.NewServer(se)
	defer srv.Close()
	calls := 0
	c := solaredge.New("K1", srv.URL, nil, func() error { calls++; return nil })
	ctx := context.Background()
	sites, err := c.Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 120 || sites[119].Devices[0].Serial != "7E0119-AB" || sites[0].TimeZone != "Europe/Berlin" {
		t.Fatalf("sites: %d, last %+v", len(sites), sites[len(sites)-1])
	}
	if calls != 2+120 || se.Calls("K1") != calls { // two pages, one equipment list per site
		t.Fatalf("calls counted %d, stand-in saw %d", calls, se.Calls("K1"))
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, err := c.DataStart(ctx, "1000", berlin)
	if err != nil || !start.Equal(time.Date(2026, 6, 1, 0, 0, 0, 0, berlin)) {
		t.Fatalf("data start %v, %v", start, err)
	}
	// noon local (10:00 UTC in summer) is the sine's top: 10 kW
	from := time.Date(2026, 6, 9, 9, 55, 0, 0, time.UTC)
	got, err := c.DeviceData(ctx, "1000", "7E0000-AB", berlin, from, from.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Time.Equal(from.Add(5*time.Minute)) || got[0].PowerKW != 10 || got[0].Status != telemetry.StatusRunning {
		t.Fatalf("readings %+v", got)
	}
	if got[1].EnergyKWh <= got[0].EnergyKWh || got[0].EnergyKWh < 8*60 { // 8 whole days of about 76 kWh before
		t.Fatalf("counter %v then %v", got[0].EnergyKWh, got[1].EnergyKWh)
	}
	if _, err := c.DeviceData(ctx, "1000", "7E0000-AB", berlin, from, from.Add(8*24*time.Hour)); err == nil {
		t.Fatal("a range over a week was asked for")
	}
}

func TestClientTellsRefusedKeyQuotaAndOutage(t *testing.T) {
	se := &standin.Server{Keys: map[string]bool{"K1": true}, Budget: 2, Now: at("2026-06-10T12:00:00Z"),
		Sites: []standin.Site{{ID: 1, Name: "A", TimeZone: "UTC", Start: "2026-06-01"}}}
	srv := httptest.NewServer(se)
	defer srv.Close()
	ctx := context.Background()
	if _, err := solaredge.New("WRONG", srv.URL, nil, nil).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("bad key: %v", err)
	}
	c := solaredge.New("K1", srv.URL, nil, nil)
	se.FailNext(1, 503)
	var temp *cloud.TemporaryError
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.As(err, &temp) {
		t.Fatalf("503: %v", err)
	}
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.Is(err, cloud.ErrQuota) {
		t.Fatalf("past the quota: %v", err)
	}
}
