package isolarcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud/standin"
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

func server() *standin.Server {
	return &standin.Server{AppKey: "APPKEY1", AccessKey: "ACCESS1", Users: map[string]string{"ops@example.com": "pw-1"},
		Now: at("2026-06-10T12:00:00Z")}
}

func TestClientReadsPlantsPageByPageAndMinuteDataInLocalTime(t *testing.T) {
	se := server()
	for i := 0; i < 120; i++ { // more than one page of plants
		se.Plants = append(se.Plants, standin.Plant{ID: int64(1000 + i), Name: fmt.Sprintf("Plant %d", i), Offset: 8,
			Start: "2026-06-01", Meter: i == 0, Inverters: []standin.Inverter{{Serial: fmt.Sprintf("A%04d", i), Name: "NB01",
				Model: "SG10RT", Channel: 1, PeakW: 10000}}})
	}
	srv := httptest.NewServer(se)
	defer srv.Close()
	calls := 0
	var saved string
	deps := cloud.Deps{BaseURL: srv.URL, Count: func() error { calls++; return nil },
		Save: func(_ context.Context, c string) error { saved = c; return nil }}
	c := isolarcloud.New(creds("pw-1"), deps)
	ctx := context.Background()
	sites, err := c.Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 120 || sites[119].Devices[0].Serial != "A0119" || sites[0].TimeZone != "Etc/GMT-8" || sites[0].PeakKW != 10 {
		t.Fatalf("sites: %d, first %+v, last %+v", len(sites), sites[0], sites[len(sites)-1])
	}
	if d := sites[0].Devices; len(d) != 1 || d[0].Key != "1000_1_1_1" || d[0].Model != "SG10RT" || d[0].Type != "inverter" {
		t.Fatalf("the first plant's devices (a meter among them): %+v", d)
	}
	if calls != 1+2+120 || se.Calls() != calls { // a login, two pages, a device list per plant
		t.Fatalf("calls counted %d, stand-in saw %d", calls, se.Calls())
	}
	// the token is kept with the credentials: a client built from them does not log in
	if !strings.Contains(saved, `"token":"`) || !strings.Contains(saved, `"userPassword":"pw-1"`) {
		t.Fatalf("saved credentials %q", saved)
	}
	c = isolarcloud.New(saved, deps)
	loc, _ := time.LoadLocation(sites[0].TimeZone)
	start, err := c.DataStart(ctx, "1000", loc)
	if err != nil || !start.Equal(time.Date(2026, 6, 1, 0, 0, 0, 0, loc)) {
		t.Fatalf("data start %v, %v", start, err)
	}
	if se.PathCalls(isolarcloud.PathLogin) != 1 {
		t.Fatalf("%d logins", se.PathCalls(isolarcloud.PathLogin))
	}
	// noon at the plant (04:00 UTC) is the sine's top: 10 kW
	from := time.Date(2026, 6, 9, 3, 55, 0, 0, time.UTC)
	got, err := c.DeviceData(ctx, "1000", "1000_1_1_1", loc, from, from.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Time.Equal(from.Add(5*time.Minute)) || got[0].PowerKW != 10 || got[0].Status != telemetry.StatusRunning ||
		got[0].DCVoltageV != 480 || got[0].ACVoltageV != 230 || got[0].FrequencyHz != 50 || got[0].TempC != 35 {
		t.Fatalf("readings %+v", got)
	}
	if got[1].EnergyKWh <= got[0].EnergyKWh || got[0].EnergyKWh < 8*60 { // 8 whole days of about 76 kWh before
		t.Fatalf("counter %v then %v", got[0].EnergyKWh, got[1].EnergyKWh)
	}
	// at night: no power, no DC voltage (null), standing by, the counter kept
	night, err := c.DeviceData(ctx, "1000", "1000_1_1_1", loc, from.Add(-9*time.Hour), from.Add(-9*time.Hour+5*time.Minute))
	if err != nil || len(night) != 1 || night[0].PowerKW != 0 || night[0].DCVoltageV != 0 || night[0].Status != telemetry.StatusStandby ||
		night[0].EnergyKWh < 8*60 {
		t.Fatalf("night: %+v, %v", night, err)
	}
	if _, err := c.DeviceData(ctx, "1000", "1000_1_1_1", loc, from, from.Add(3*time.Hour+time.Minute)); err == nil {
		t.Fatal("a range over three hours was asked for")
	}
	if _, err := c.DeviceData(ctx, "1000", "1001_1_1_1", loc, from, from.Add(time.Hour)); err == nil {
		t.Fatal("another plant's ps_key was asked for")
	}
}

// One minute-data call names several inverters of a plant; each gets what a call of its own
// would have answered.
func TestClientAsksSeveralInvertersInOneCall(t *testing.T) {
	se := server()
	se.Plants = []standin.Plant{{ID: 1000, Name: "Roof", Offset: 8, Start: "2026-06-01", Inverters: []standin.Inverter{
		{Serial: "A1", Name: "NB01", Model: "SG10RT", Channel: 1, PeakW: 10000},
		{Serial: "A2", Name: "NB02", Model: "SG50CX", Channel: 2, PeakW: 50000}}}}
	srv := httptest.NewServer(se)
	defer srv.Close()
	c := isolarcloud.New(creds("pw-1"), cloud.Deps{BaseURL: srv.URL})
	ctx := context.Background()
	sites, err := c.Sites(ctx)
	if err != nil || len(sites) != 1 || len(sites[0].Devices) != 2 {
		t.Fatalf("sites %+v, %v", sites, err)
	}
	keys := []string{sites[0].Devices[0].Key, sites[0].Devices[1].Key}
	loc, _ := time.LoadLocation(sites[0].TimeZone)
	from := time.Date(2026, 6, 9, 3, 0, 0, 0, time.UTC)
	before := se.PathCalls(isolarcloud.PathMinuteData)
	got, err := c.DevicesData(ctx, "1000", keys, loc, from, from.Add(3*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n := se.PathCalls(isolarcloud.PathMinuteData) - before; n != 1 {
		t.Fatalf("%d calls for two inverters", n)
	}
	for _, key := range keys {
		one, err := c.DeviceData(ctx, "1000", key, loc, from, from.Add(3*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(got[key]) != 36 || !reflect.DeepEqual(got[key], one) {
			t.Fatalf("%s: %d readings together, %d alone", key, len(got[key]), len(one))
		}
	}
	if got[keys[1]][12].PowerKW <= got[keys[0]][12].PowerKW {
		t.Fatalf("the two inverters' readings are mixed up: %v and %v kW", got[keys[0]][12].PowerKW, got[keys[1]][12].PowerKW)
	}
	many := make([]string, isolarcloud.MaxKeys+1)
	for i := range many {
		many[i] = keys[0]
	}
	if _, err := c.DevicesData(ctx, "1000", many, loc, from, from.Add(time.Hour)); err == nil {
		t.Fatalf("%d inverters asked in one call", len(many))
	}
	if _, err := c.DevicesData(ctx, "1000", []string{keys[0], "1001_1_1_1"}, loc, from, from.Add(time.Hour)); err == nil {
		t.Fatal("another plant's ps_key was asked for")
	}
}

func TestClientTellsRefusedCredentialsQuotaOutageAndRenewsAnExpiredToken(t *testing.T) {
	se := server()
	se.Plants = []standin.Plant{{ID: 1, Name: "A", Offset: 8, Start: "2026-06-01"}}
	srv := httptest.NewServer(se)
	defer srv.Close()
	ctx := context.Background()
	deps := cloud.Deps{BaseURL: srv.URL}
	if _, err := isolarcloud.New(creds("wrong"), deps).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("wrong password: %v", err)
	}
	wrongKey := strings.Replace(creds("pw-1"), "ACCESS1", "ACCESS2", 1)
	if _, err := isolarcloud.New(wrongKey, deps).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("wrong access key: %v", err)
	}
	// a host that is no iSolarCloud gateway is refused before any call
	calls := 0
	count := func() error { calls++; return nil }
	elsewhere := strings.Replace(creds("pw-1"), `}`, `,"host":"https://collector.example.org"}`, 1)
	if _, err := isolarcloud.New(elsewhere, cloud.Deps{Count: count}).Sites(ctx); !errors.Is(err, cloud.ErrRefused) || calls != 0 {
		t.Fatalf("another host: %v after %d calls", err, calls)
	}
	c := isolarcloud.New(creds("pw-1"), deps)
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil {
		t.Fatal(err)
	}
	// the token expires: the client logs in again, once, and the call goes through
	se.ExpireTokens()
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil || se.PathCalls(isolarcloud.PathLogin) != 3 { // the wrong password, the first, the new
		t.Fatalf("after the token expired: %v, %d logins", err, se.PathCalls(isolarcloud.PathLogin))
	}
	// and when the new login is refused (the password was changed), so is the call
	se.ExpireTokens()
	se.Users["ops@example.com"] = "pw-2"
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("password changed: %v", err)
	}
	se.Users["ops@example.com"] = "pw-1"
	se.FailNext(1, 503)
	var temp *cloud.TemporaryError
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.As(err, &temp) {
		t.Fatalf("503: %v", err)
	}
	se.Limit = se.Calls() + 2 // one login and one more call this hour
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.Is(err, cloud.ErrQuota) {
		t.Fatalf("past the hour's limit: %v", err)
	}
}

func TestZoneFromTheOffsetTheAPIGives(t *testing.T) {
	for in, want := range map[string]string{"GMT+8": "Etc/GMT-8", "GMT-3": "Etc/GMT+3", "GMT+5:30": "Asia/Kolkata",
		"GMT+08:00": "Etc/GMT-8", "GMT": "UTC", "GMT+0": "UTC", "Europe/Berlin": "Europe/Berlin", "": "UTC", "whatever": "UTC"} {
		if got := isolarcloud.Zone(in); got != want {
			t.Errorf("Zone(%q) = %q, want %q", in, got, want)
		}
		if _, err := time.LoadLocation(isolarcloud.Zone(in)); err != nil {
			t.Errorf("Zone(%q): %v", in, err)
		}
	}
}
