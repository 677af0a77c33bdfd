package enphase_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/cloudtest"
	"github.com/helio-energy/helio/internal/cloud/enphase"
	"github.com/helio-energy/helio/internal/cloud/enphase/standin"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fakeTime is a clock whose sleeps move it on at once.
type fakeTime struct{ *cloudtest.Clock }

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.Set(f.Now().Add(d))
	return nil
}

// grant has the owner authorise the application: a refresh token new to the process (a
// client keeps tokens in memory by API address, which a later test's stand-in may reuse).
func grant(en *standin.Server) string {
	rt := fmt.Sprintf("RT-ADMIN-%d", rigs.Add(1))
	en.Grant(rt)
	return rt
}

// client is a client of the stand-in on a fake clock, paced at the plan's ten calls a
// minute by that clock.
func client(srv *httptest.Server, ft *fakeTime, credentials string, d cloud.Deps) *enphase.Client {
	d.BaseURL = srv.URL
	c := enphase.New(credentials, d)
	c.Now = ft.Now
	c.Pacer = &enphase.Pacer{Limit: enphase.MinuteCalls, Window: time.Minute, Now: ft.Now, Sleep: ft.Sleep}
	return c
}

func TestClientReadsSystemsPageByPageAndProductionInEpochSeconds(t *testing.T) {
	ft := &fakeTime{cloudtest.NewClock(now0)}
	en := &standin.Server{APIKey: apiKey, ClientID: clientID, ClientSecret: secret, Now: ft.Now} // the Watt plan's limits
	for i := 0; i < 120; i++ {                                                                   // more than one page of /systems
		en.Systems = append(en.Systems, standin.System{ID: int64(1000 + i), Name: fmt.Sprintf("System %d", i), TimeZone: "Australia/Sydney",
			Start: "2026-06-01", Country: "AU", Micros: 20, MicroW: 300})
	}
	admin := grant(en)
	srv := httptest.NewServer(en)
	defer srv.Close()
	calls := 0
	var before []time.Time
	c := client(srv, ft, creds(admin), cloud.Deps{Count: func() error { calls++; return nil },
		EnergyBefore: func(_ context.Context, serial string, at time.Time) (float64, error) {
			if serial != "enphase-1000" {
				return 0, fmt.Errorf("asked for %s", serial)
			}
			before = append(before, at)
			return 1000, nil
		}})
	ctx := context.Background()
	sites, err := c.Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last := sites[119]
	if len(sites) != 120 || last.ID != "1119" || last.TimeZone != "Australia/Sydney" || last.PeakKW != 6 || last.Country != "AU" ||
		len(last.Devices) != 1 || last.Devices[0].Serial != "enphase-1119" || last.Devices[0].Type != "inverter" {
		t.Fatalf("sites: %d, last %+v", len(sites), last)
	}
	// two pages and a summary per system, and the token: every call counted, and paced to
	// ten a minute (the stand-in refuses an eleventh within a minute)
	if calls != 2+120+1 || en.Calls()+en.TokenCalls() != calls {
		t.Fatalf("calls counted %d, stand-in saw %d + %d token calls", calls, en.Calls(), en.TokenCalls())
	}
	if waited := ft.Now().Sub(now0); waited < 12*time.Minute || waited > 13*time.Minute {
		t.Fatalf("122 API calls took %v", waited)
	}
	sydney, _ := time.LoadLocation("Australia/Sydney")
	start, err := c.DataStart(ctx, "1000", sydney)
	if err != nil || !start.Equal(time.Date(2026, 6, 1, 0, 0, 0, 0, sydney)) {
		t.Fatalf("data start %v, %v", start, err)
	}
	// noon in Sydney (02:00 UTC in June) is the sine's top: 20 × 300 W
	from := time.Date(2026, 6, 9, 1, 50, 0, 0, time.UTC)
	got, err := c.DeviceData(ctx, "1000", "enphase-1000", sydney, from, from.Add(30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Time.Equal(time.Date(2026, 6, 9, 2, 0, 0, 0, time.UTC)) || !got[1].Time.Equal(got[0].Time.Add(15*time.Minute)) {
		t.Fatalf("readings %+v", got)
	}
	if got[0].PowerKW < 5.9 || got[0].PowerKW > 6 || got[0].Status != telemetry.StatusRunning {
		t.Fatalf("noon reading %+v", got[0])
	}
	// the counter continues the stored one by each interval's energy
	if len(before) != 1 || !before[0].Equal(got[0].Time) || math.Abs(got[0].EnergyKWh-1000-got[0].PowerKW/4) > 0.001 ||
		math.Abs(got[1].EnergyKWh-got[0].EnergyKWh-got[1].PowerKW/4) > 0.001 {
		t.Fatalf("counter asked at %v; readings %+v", before, got)
	}
	// a week a call: the whole week is one call
	n := en.PathCalls("/api/v4/systems/1000/telemetry")
	week, err := c.DeviceData(ctx, "1000", "enphase-1000", sydney, start, start.Add(enphase.WeekSpan))
	if err != nil || len(week) != 7*96 || en.PathCalls("/api/v4/systems/1000/telemetry") != n+1 {
		t.Fatalf("a week: %d readings, %v", len(week), err)
	}
	if _, err := c.DeviceData(ctx, "1000", "enphase-1000", sydney, from, from.Add(8*24*time.Hour)); err == nil {
		t.Fatal("a range over a week was asked for")
	}
}

func TestClientTellsRefusedCredentialsQuotaAndOutage(t *testing.T) {
	ft := &fakeTime{cloudtest.NewClock(now0)}
	en := &standin.Server{APIKey: apiKey, ClientID: clientID, ClientSecret: secret, Now: ft.Now, MonthLimit: 2,
		Systems: []standin.System{{ID: 1, Name: "A", TimeZone: "UTC", Start: "2026-06-01", Micros: 1, MicroW: 300}}}
	admin := grant(en)
	srv := httptest.NewServer(en)
	defer srv.Close()
	ctx := context.Background()
	for name, cr := range map[string]string{
		"refresh token": creds("RT-WRONG"),
		"client secret": strings.Replace(creds(admin), secret, "WRONG", 1),
		"missing field": `{"apiKey":"APIKEY1"}`,
	} {
		if _, err := client(srv, ft, cr, cloud.Deps{}).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
			t.Fatalf("wrong %s: %v", name, err)
		}
	}
	if en.Calls() != 0 {
		t.Fatalf("%d API calls without a token", en.Calls())
	}
	// a wrong API key: the access token is renewed once, then the credentials are refused
	wrongKey := strings.Replace(creds(admin), apiKey, "WRONGKEY", 1)
	if _, err := client(srv, ft, wrongKey, cloud.Deps{}).DataStart(ctx, "1", time.UTC); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("wrong API key: %v", err)
	}
	if en.TokenCalls() != 2+2 { // the two refusals above, then two refreshes
		t.Fatalf("%d token calls", en.TokenCalls())
	}
	// the refresh token was rotated twice by the wrong key's client: the rig's continues
	rt := en.RefreshTokens()
	if len(rt) != 1 {
		t.Fatalf("refresh tokens %v", rt)
	}
	c := client(srv, ft, creds(rt[0]), cloud.Deps{})
	en.FailNext(1, 503)
	var temp *cloud.TemporaryError
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.As(err, &temp) {
		t.Fatalf("503: %v", err)
	}
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil {
		t.Fatal(err)
	}
	// the month's second call was the one above: the third is over the plan
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.Is(err, cloud.ErrQuota) {
		t.Fatalf("past the month's calls: %v", err)
	}
	// the minute's limit is a passing refusal: tried again with the worker's back-off,
	// not held until the next day
	en.MonthLimit, en.MinuteLimit = 1000, 1
	ft.Set(ft.Now().Add(time.Minute))
	c.Pacer = nil // not paced: the stand-in's minute is what is tested
	if _, err := c.DataStart(ctx, "1", time.UTC); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DataStart(ctx, "1", time.UTC); !errors.As(err, &temp) || errors.Is(err, cloud.ErrQuota) {
		t.Fatalf("past the minute's calls: %v", err)
	}
	// Helio's own budget spent: nothing is sent
	calls := en.Calls()
	spent := client(srv, ft, creds(rt[0]), cloud.Deps{Count: func() error { return cloud.ErrQuota }})
	if _, err := spent.Sites(ctx); !errors.Is(err, cloud.ErrQuota) || en.Calls() != calls {
		t.Fatalf("over the budget: %v, %d calls sent", err, en.Calls()-calls)
	}
}

func TestClientKeepsTheRotatedRefreshToken(t *testing.T) {
	ft := &fakeTime{cloudtest.NewClock(now0)}
	en := &standin.Server{APIKey: apiKey, ClientID: clientID, ClientSecret: secret, Now: ft.Now, MinuteLimit: -1,
		Systems: []standin.System{{ID: 1, Name: "A", TimeZone: "UTC", Start: "2026-06-01", Micros: 1, MicroW: 300}}}
	admin := grant(en)
	srv := httptest.NewServer(en)
	defer srv.Close()
	ctx := context.Background()
	var saved []string
	deps := cloud.Deps{Save: func(_ context.Context, c string) error { saved = append(saved, c); return nil }}
	if _, err := client(srv, ft, creds(admin), deps).Sites(ctx); err != nil {
		t.Fatal(err)
	}
	rt1 := en.RefreshTokens()[0]
	if len(saved) != 1 || saved[0] != creds(rt1) || en.PathCalls("/oauth/token") != 1 {
		t.Fatalf("saved %q after %d token calls", saved, en.PathCalls("/oauth/token"))
	}
	// another client of the credentials as they were (a round that read them before the
	// save): it takes the token in memory and keeps the new refresh token too
	if _, err := client(srv, ft, creds(admin), deps).Sites(ctx); err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 || saved[1] != creds(rt1) || en.PathCalls("/oauth/token") != 1 {
		t.Fatalf("saved %q after %d token calls", saved, en.PathCalls("/oauth/token"))
	}
	// a day on, the access token has expired: one refresh, the newer refresh token kept
	ft.Set(ft.Now().Add(25 * time.Hour))
	c := client(srv, ft, saved[1], deps)
	c.Now = func() time.Time { return now0 } // the client's clock says it has not: the API's 401 tells
	if _, err := c.Sites(ctx); err != nil {
		t.Fatal(err)
	}
	if rt2 := en.RefreshTokens()[0]; rt2 == rt1 || len(saved) != 3 || saved[2] != creds(rt2) || en.PathCalls("/oauth/token") != 2 {
		t.Fatalf("saved %q after %d token calls", saved, en.PathCalls("/oauth/token"))
	}
	// the owner withdraws the application's access: refused
	en.Revoke()
	ft.Set(ft.Now().Add(25 * time.Hour))
	if _, err := client(srv, ft, saved[2], deps).Sites(ctx); !errors.Is(err, cloud.ErrRefused) {
		t.Fatalf("revoked: %v", err)
	}
}

func TestPacerKeepsTenCallsAMinute(t *testing.T) {
	ft := &fakeTime{cloudtest.NewClock(now0)}
	p := &enphase.Pacer{Limit: 10, Window: time.Minute, Now: ft.Now, Sleep: ft.Sleep}
	ctx := context.Background()
	for i := 0; i < 10; i++ {
		ft.Set(ft.Now().Add(time.Second))
		if err := p.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !ft.Now().Equal(now0.Add(10 * time.Second)) {
		t.Fatalf("ten calls waited: %v", ft.Now())
	}
	if err := p.Wait(ctx); err != nil || !ft.Now().Equal(now0.Add(61*time.Second)) {
		t.Fatalf("the eleventh call at %v (%v), want a minute after the first", ft.Now().Sub(now0), err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.Wait(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
	// with the real timer too
	real := &enphase.Pacer{Limit: 1, Window: time.Hour}
	_ = real.Wait(ctx)
	short, cancel2 := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel2()
	if err := real.Wait(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a wait past the deadline: %v", err)
	}
}
