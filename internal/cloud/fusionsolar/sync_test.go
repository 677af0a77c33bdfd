package fusionsolar_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

func TestDiscoveryMarksWhatExistsAndConfirmCreatesOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 3, 300)
		ctx := context.Background()
		// the second plant's inverter is already in Helio (added by hand, say)
		st, dev := r.AddByHand("Weinberg (by hand)", "Europe/Berlin", 5, "WR", "HV2150022222")
		w := r.Worker()
		found, err := w.Discover(ctx, r.Get())
		if err != nil {
			t.Fatal(err)
		}
		// the plants' dongles are listed by the vendor, not offered
		if len(found) != 2 || len(found[0].Devices) != 2 || found[0].Devices[0].DeviceID != 0 || found[0].StationID != 0 ||
			found[0].TimeZone != "Etc/GMT-2" || found[0].PeakKW != 18 || found[0].Devices[0].Model != "SUN2000-10KTL-M1" {
			t.Fatalf("first plant: %+v", found)
		}
		if found[1].StationID != st || len(found[1].Devices) != 1 || found[1].Devices[0].DeviceID != dev || found[1].Devices[0].Following {
			t.Fatalf("second plant: %+v", found[1])
		}
		picks := []cloud.Pick{{SiteID: siteID, Serials: []string{"HV2150012345", "HV2150012346"}}, {SiteID: "NE=33550002", Serials: []string{"HV2150022222"}}}
		got, err := w.Confirm(ctx, r.Get(), picks, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got != (cloud.Confirmed{StationsCreated: 1, DevicesCreated: 2, DevicesLinked: 1}) {
			t.Fatalf("confirmed %+v", got)
		}
		// confirming again creates nothing more
		if got, err = w.Confirm(ctx, r.Get(), picks, 0); err != nil || got != (cloud.Confirmed{}) {
			t.Fatalf("again: %+v, %v", got, err)
		}
		stations, devices := r.Count()
		if stations != 2 || devices != 3 {
			t.Fatalf("%d stations, %d devices", stations, devices)
		}
		var tz, currency, base string
		var kwp float64
		_ = db.QueryRow(ctx, "SELECT s.timezone, s.currency, s.capacity_kwp FROM stations s JOIN devices d ON d.station_id = s.id WHERE d.sn = ?",
			"HV2150012345").Scan(&tz, &currency, &kwp)
		_ = db.QueryRow(ctx, "SELECT base_currency FROM organizations WHERE id = ?", r.Org).Scan(&base)
		if tz != "Etc/GMT-2" || currency != base || kwp != 18 {
			t.Fatalf("new station: zone %q, currency %q (base %q), %v kWp", tz, currency, base, kwp)
		}
		// a serial number the vendor did not list is refused, and nothing is created
		if _, err := w.Confirm(ctx, r.Get(), []cloud.Pick{{SiteID: siteID, Serials: []string{"DONGLE-" + siteID}}}, 0); err == nil {
			t.Fatal("a device that is no inverter was accepted")
		}
		if c := r.Get(); c.Devices != 3 || c.State != cloud.StateBackfill {
			t.Fatalf("connection %+v", c)
		}
	})
}

func TestBackfillThenIncrementalSync(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 35, 300) // older than the 30-day raw window: Backfill and Write both
		w := r.Worker()
		ids := r.Follow(w)
		c := r.SyncUntil(w, cloud.StateLive, 3)
		for _, id := range ids {
			if n, kwh := r.stored(id); n != r.want() || kwh <= 0 {
				t.Fatalf("device %d: %d readings (want %d), %.1f kWh", id, n, r.want(), kwh)
			}
		}
		// discovery: login, a page of plants, one device list (3); then a login, the plant
		// list for the first day, and 35 days one call a day plus today, each call asking for
		// both inverters of the plant
		if used := c.QuotaUsed; used != 3+2+36 || r.fs.Calls(user) != used {
			t.Fatalf("calls: counted %d, stand-in %d", used, r.fs.Calls(user))
		}
		// a live round costs the login and one call for the plant's two inverters: 2 calls
		if !c.NextSync.Equal(r.Clk.Now().Add(cloud.Interval(300, 2, false))) || c.LastError != "" {
			t.Fatalf("next sync %v, error %q", c.NextSync, c.LastError)
		}
		// the lifetime counter landed as it was read
		latest, err := telemetry.NewReader(db, telemetry.Options{Now: r.Clk.Now}).Latest(context.Background(), ids[:1])
		if s := latest[ids[0]]; err != nil || !s.Time.Equal(r.Clk.Now().Truncate(5*time.Minute)) || s.EnergyKWh < 35*60 || s.PowerKW <= 0 ||
			s.Status != telemetry.StatusRunning {
			t.Fatalf("latest reading %+v, %v", s, err)
		}
		// an hour later: a login and one call bring both inverters' new readings
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		if err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if n, _ := r.stored(id); n != r.want() {
				t.Fatalf("device %d after an hour: %d readings, want %d", id, n, r.want())
			}
		}
		if used := r.Get().QuotaUsed; used != 3+2+36+2 {
			t.Fatalf("calls after the live round: %d", used)
		}
		// on a budget where it shows, the rounds are spaced for the login too: 96 calls a day
		// at 2 a round are a round every 30 minutes, not every 15
		c = r.Get()
		if _, err := r.Store.Update(context.Background(), r.Org, c.ID, c.Name, "", 96); err != nil {
			t.Fatal(err)
		}
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		if err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		if c = r.Get(); !c.NextSync.Equal(r.Clk.Now().Add(30 * time.Minute)) {
			t.Fatalf("next sync at %v, now %v", c.NextSync, r.Clk.Now())
		}
	})
}

func TestQuotaSpentStopsAndResumesNextDayWithNothingLost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("own budget", func(t *testing.T) {
			r := newRig(t, db, 13, 12) // 14 days of calls for the plant + logins, 12 calls a day
			w := r.Worker()
			ids := r.Follow(w)
			day := r.Clk.Now().UTC().Format("2006-01-02")
			quota := false
			for i := 0; i < 40 && r.Get().State != cloud.StateLive; i++ {
				if err := w.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if calls := r.fs.Calls(user); calls > 12 {
					t.Fatalf("day %s: %d calls, budget 12", day, calls)
				}
				c := r.Get()
				quota = quota || c.State == cloud.StateQuota
				if c.State != cloud.StateLive && c.NextSync.After(r.Clk.Now()) {
					r.Clk.Set(c.NextSync)
				}
				day = r.Clk.Now().UTC().Format("2006-01-02")
			}
			if c := r.Get(); c.State != cloud.StateLive || r.Clk.Now().Sub(now0) < 24*time.Hour {
				t.Fatalf("state %s at %v", c.State, r.Clk.Now())
			}
			for _, id := range ids {
				if n, _ := r.stored(id); n != r.want() {
					t.Fatalf("device %d: %d readings, want %d", id, n, r.want())
				}
			}
			_ = quota
		})
		t.Run("vendor says 407", func(t *testing.T) {
			r := newRig(t, db, 3, 300)
			r.fs.DataLimit = 2 // an allowance lower than our budget
			w := r.Worker()
			ids := r.Follow(w)
			if err := w.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			c := r.Get()
			midnight := now0.Truncate(24 * time.Hour).Add(24 * time.Hour)
			if c.State != cloud.StateQuota || !c.NextSync.Equal(midnight) || !strings.Contains(c.LastError, "resumes") {
				t.Fatalf("after 407: %+v", c)
			}
			r.Clk.Set(midnight.Add(time.Minute))
			r.SyncUntil(w, cloud.StateLive, 10)
			for _, id := range ids {
				if n, _ := r.stored(id); n != r.want() {
					t.Fatalf("device %d: %d readings, want %d", id, n, r.want())
				}
			}
		})
	})
}

func TestRefusedKeyIsShownUntilReplaced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 2, 300)
		w := r.Worker()
		ids := r.Follow(w)
		delete(r.fs.Accounts, user) // the account expires
		r.fs.Accounts["helio_api_2"] = "N3w!code"
		ctx := context.Background()
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		c := r.Get()
		if c.State != cloud.StateRefused || !strings.Contains(c.LastError, "refused") {
			t.Fatalf("after a refusal: %+v", c)
		}
		before := r.fs.PathCalls("/thirdData/login")
		r.Clk.Set(r.Clk.Now().Add(2 * time.Hour))
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if r.fs.PathCalls("/thirdData/login") != before {
			t.Fatal("a refused connection kept calling")
		}
		if _, err := r.Store.Update(ctx, r.Org, c.ID, c.Name, `{"userName":"helio_api_2","systemCode":"N3w!code"}`, c.DailyBudget); err != nil {
			t.Fatal(err)
		}
		r.SyncUntil(w, cloud.StateLive, 3)
		if n, _ := r.stored(ids[0]); n != r.want() {
			t.Fatalf("%d readings, want %d", n, r.want())
		}
	})
}

func TestRestartMidBackfillResumesWithoutDoubles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 20, 300)
		ids := r.Follow(r.Worker())
		// the process dies during the fourth call for five-minute data
		ctx, cancel := context.WithCancel(context.Background())
		var dataCalls atomic.Int32
		r.Handler = func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/thirdData/getDevFiveMinutes" && dataCalls.Add(1) == 4 {
				_, _ = io.Copy(io.Discard, req.Body) // read: the server then sees the client go
				cancel()
				select {
				case <-req.Context().Done():
				case <-time.After(5 * time.Second): // not the first worker's call: it fails
					http.Error(w, "cut", http.StatusServiceUnavailable)
				}
				return
			}
			r.fs.ServeHTTP(w, req)
		}
		_ = r.Worker().RunOnce(ctx)
		if c := r.Get(); c.State == cloud.StateLive || dataCalls.Load() != 4 {
			t.Fatalf("the first worker was not stopped at its fourth data call: %d calls, %+v", dataCalls.Load(), c)
		}
		r.Handler = nil
		w := r.Worker() // after the restart
		r.SyncUntil(w, cloud.StateLive, 3)
		for _, id := range ids {
			if n, _ := r.stored(id); n != r.want() {
				t.Fatalf("device %d: %d readings, want %d", id, n, r.want())
			}
		}
		// 20 days and today for both inverters, a day a call; the cut call is asked again, once
		if got, cut := r.fs.PathCalls("/thirdData/getDevFiveMinutes"), dataCalls.Load(); got != 21 || cut != 4 {
			t.Fatalf("%d data calls answered, %d before the restart", got, cut)
		}
		// a write that committed without its cursor moving (a crash between the two) is
		// fetched and written again: the write path stores nothing twice
		n0, kwh0 := r.stored(ids[0])
		r.Resync(w, ids[0], 36*time.Hour)
		if n, kwh := r.stored(ids[0]); n != n0 || kwh != kwh0 {
			t.Fatalf("after writing again: %d readings %.3f kWh, before %d %.3f", n, kwh, n0, kwh0)
		}
	})
}

func TestVendorOutageBacksOffAndRecovers(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), 2, 300)
	w := r.Worker()
	ids := r.Follow(w)
	r.OutageBacksOff(w, r.fs.FailNext)
	if n, _ := r.stored(ids[1]); n != r.want() {
		t.Fatalf("%d readings, want %d", n, r.want())
	}
}
