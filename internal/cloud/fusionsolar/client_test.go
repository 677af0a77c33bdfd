package fusionsolar_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar/standin"
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

func TestClientReadsPlantsPageByPageAndFiveMinuteDataInLocalDays(t *testing.T) {
	fs := &standin.Server{Accounts: map[string]string{"api": "code"}, Now: at("2026-06-10T12:00:00Z")}
	for i := 0; i < 120; i++ { // more than one page of /thirdData/stations
		fs.Plants = append(fs.Plants, standin.Plant{Code: fmt.Sprintf("NE=%d", 1000+i), Name: fmt.Sprintf("Plant %d", i), TimeZone: "Europe/Berlin",
			Start: "2026-06-01", Inverters: []standin.Inverter{{ID: int64(5000 + i), Serial: fmt.Sprintf("HV%04d", i), Name: "Inverter 1", Inv: "SUN2000-10KTL-M1", PeakW: 10000}}})
	}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	calls := 0
	c := fusionsolar.New("api", "code", srv.URL, nil, func() error { calls++; return nil })
	ctx := context.Background()
	sites, err := c.Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 120 || len(sites[119].Devices) != 1 || sites[119].Devices[0].Serial != "HV0119" || sites[0].TimeZone != "Etc/GMT-2" || sites[0].PeakKW != 10 {
		t.Fatalf("sites: %d, last %+v", len(sites), sites[len(sites)-1])
	}
	// a login, two pages, two device lists (100 plants a call)
	if calls != 1+2+2 || fs.Calls("api") != calls {
		t.Fatalf("calls counted %d, stand-in saw %d", calls, fs.Calls("api"))
	}
	zone, _ := time.LoadLocation(sites[0].TimeZone)
	start, err := c.DataStart(ctx, "NE=1000", zone)
	if err != nil || !start.Equal(time.Date(2026, 5, 31, 22, 0, 0, 0, time.UTC)) {
		t.Fatalf("data start %v, %v", start, err)
	}
	// noon local (10:00 UTC in summer) is the sine's top: 10 kW; a range within a day is one call
	from := time.Date(2026, 6, 9, 9, 55, 0, 0, time.UTC)
	calls = 0
	got, err := c.DeviceData(ctx, "NE=1000", "HV0000", zone, from, from.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(got) != 2 || !got[0].Time.Equal(from.Add(5*time.Minute)) || got[0].PowerKW != 10 || got[0].Status != telemetry.StatusRunning ||
		got[0].ACVoltageV != 230 || got[0].FrequencyHz != 50 || got[0].DCVoltageV != 480 || got[0].TempC != 35 {
		t.Fatalf("%d calls, readings %+v", calls, got)
	}
	if got[1].EnergyKWh <= got[0].EnergyKWh || got[0].EnergyKWh < 8*60 { // 8 whole days of about 76 kWh before
		t.Fatalf("counter %v then %v", got[0].EnergyKWh, got[1].EnergyKWh)
	}
	// across a local midnight (22:00 UTC in summer): a call a day, night readings standby
	calls = 0
	got, err = c.DeviceData(ctx, "NE=1000", "HV0000", zone, time.Date(2026, 6, 8, 21, 0, 0, 0, time.UTC), time.Date(2026, 6, 8, 23, 0, 0, 0, time.UTC))
	if err != nil || calls != 2 || len(got) != 24 || got[0].Status != telemetry.StatusStandby || got[0].PowerKW != 0 {
		t.Fatalf("across midnight: %d calls, %d readings, %v", calls, len(got), err)
	}
	for i := 1; i < len(got); i++ {
		if !got[i].Time.After(got[i-1].Time) {
			t.Fatalf("readings out of order at %d: %v", i, got[i].Time)
		}
	}
	// the session expires: one login more, the call asked again
	fs.Expire()
	calls = 0
	if _, err := c.DeviceData(ctx, "NE=1000", "HV0000", zone, from, from.Add(5*time.Minute)); err != nil || calls != 3 {
		t.Fatalf("after the session expired: %d calls, %v", calls, err)
	}
}

func TestClientTellsRefusedCredentialsQuotaAndOutage(t *testing.T) {
	fs := &standin.Server{Accounts: map[string]string{"api": "code"}, DataLimit: 1, Now: at("2026-06-10T12:00:00Z"),
		Plants: []standin.Plant{{Code: "NE=1", Name: "A", TimeZone: "UTC", Start: "2026-06-01",
			Inverters: []standin.Inverter{{ID: 77, Serial: "HV77", PeakW: 1000}}}}}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	ctx := context.Background()
	if _, err := fusionsolar.New("api", "WRONG", srv.URL, nil, nil).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("bad system code: %v", err)
	}
	c := fusionsolar.New("api", "code", srv.URL, nil, nil)
	fs.FailNext(1, 503)
	var temp *cloud.TemporaryError
	if _, err := c.Sites(ctx); !errors.As(err, &temp) {
		t.Fatalf("503: %v", err)
	}
	if _, err := c.Sites(ctx); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 6, 9, 0, 0, 0, 0, time.UTC)
	if _, err := c.DeviceData(ctx, "NE=1", "HV77", time.UTC, day, day.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeviceData(ctx, "NE=1", "HV77", time.UTC, day, day.Add(time.Hour)); !errors.Is(err, cloud.ErrQuota) {
		t.Fatalf("past the vendor's allowance (407): %v", err)
	}
	// our own count says no: nothing is sent
	before := fs.Calls("api")
	spent := fusionsolar.New("api", "code", srv.URL, nil, func() error { return cloud.ErrQuota })
	if _, err := spent.Sites(ctx); !errors.Is(err, cloud.ErrQuota) || fs.Calls("api") != before {
		t.Fatalf("budget spent: %v, %d calls sent", err, fs.Calls("api")-before)
	}
}

func TestCredentialsAndHost(t *testing.T) {
	for host, want := range map[string]string{"": fusionsolar.BaseURL, "intl.fusionsolar.huawei.com": "https://intl.fusionsolar.huawei.com",
		"https://la5.fusionsolar.huawei.com/": "https://la5.fusionsolar.huawei.com"} {
		if got, err := fusionsolar.HostURL(host); err != nil || got != want {
			t.Errorf("host %q: %q, %v", host, got, err)
		}
	}
	for _, host := range []string{"http://eu5.fusionsolar.huawei.com", "evil.example.com", "https://fusionsolar.huawei.com.evil.example/",
		"https://eu5.fusionsolar.huawei.com/thirdData"} {
		if _, err := fusionsolar.HostURL(host); !errors.Is(err, cloud.ErrRefused) {
			t.Errorf("host %q taken: %v", host, err)
		}
	}
	if _, err := fusionsolar.Vendor.New(`{"userName":"api"}`, cloud.Deps{}).Sites(context.Background()); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("credentials without a system code: %v", err)
	}
	if got := fusionsolar.Zone("2022-04-18T18:06:30+08:00"); got != "Etc/GMT-8" {
		t.Fatalf("zone %q", got)
	}
	if got := fusionsolar.Zone("2022-04-18T18:06:30-05:00"); got != "Etc/GMT+5" {
		t.Fatalf("zone %q", got)
	}
	if got := fusionsolar.Zone("2022-04-18T18:06:30+05:30"); got != "UTC" {
		t.Fatalf("zone %q", got)
	}
	for state, want := range map[int]int{512: telemetry.StatusRunning, 513: telemetry.StatusRunning, 768: telemetry.StatusFault,
		40960: telemetry.StatusStandby, 769: telemetry.StatusStandby, 0: telemetry.StatusStandby} {
		if got := fusionsolar.Status(state); got != want {
			t.Errorf("inverter_state %d: %d, want %d", state, got, want)
		}
	}
}
