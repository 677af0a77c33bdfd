package enphase_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/enphase"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestDiscoveryMarksWhatExistsAndConfirmCreatesOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 3, enphase.DailyBudget)
		ctx := context.Background()
		// the second system is already in Helio (added by hand, say)
		st, dev := r.AddByHand("Weinberg (by hand)", "Europe/Berlin", 4.2, "Weinberg", "enphase-1002")
		w := r.Worker()
		found, err := w.Discover(ctx, r.Get())
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 2 || len(found[0].Devices) != 1 || found[0].Devices[0].DeviceID != 0 || found[0].StationID != 0 ||
			found[0].PeakKW != 7.2 || found[0].Devices[0].Serial != "enphase-1001" {
			t.Fatalf("first system: %+v", found)
		}
		if found[1].StationID != st || found[1].Devices[0].DeviceID != dev || found[1].Devices[0].Following {
			t.Fatalf("second system: %+v", found[1])
		}
		picks := []cloud.Pick{{SiteID: "1001", Serials: serials[:1]}, {SiteID: "1002", Serials: serials[1:]}}
		got, err := w.Confirm(ctx, r.Get(), picks, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got != (cloud.Confirmed{StationsCreated: 1, DevicesCreated: 1, DevicesLinked: 1}) {
			t.Fatalf("confirmed %+v", got)
		}
		// confirming again creates nothing more
		if got, err = w.Confirm(ctx, r.Get(), picks, 0); err != nil || got != (cloud.Confirmed{}) {
			t.Fatalf("again: %+v, %v", got, err)
		}
		stations, devices := r.Count()
		if stations != 2 || devices != 2 {
			t.Fatalf("%d stations, %d devices", stations, devices)
		}
		var tz, country string
		var kwp float64
		_ = db.QueryRow(ctx, "SELECT s.timezone, s.country, s.capacity_kwp FROM stations s JOIN devices d ON d.station_id = s.id WHERE d.sn = ?",
			"enphase-1001").Scan(&tz, &country, &kwp)
		if tz != "Europe/Berlin" || country != "DE" || kwp != 7.2 {
			t.Fatalf("new station: zone %q, country %q, %v kWp", tz, country, kwp)
		}
		// a serial number the vendor did not list is refused, and nothing is created
		if _, err := w.Confirm(ctx, r.Get(), []cloud.Pick{{SiteID: "1001", Serials: []string{"NOPE"}}}, 0); err == nil {
			t.Fatal("an unknown serial number was accepted")
		}
		if c := r.Get(); c.Devices != 2 || c.State != cloud.StateBackfill {
			t.Fatalf("connection %+v", c)
		}
	})
}

func TestBackfillThenIncrementalSync(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 35, enphase.DailyBudget) // older than the 30-day raw window: Backfill and Write both
		w := r.Worker()
		ids := r.Follow(w)
		c := r.SyncUntil(w, cloud.StateLive, 3)
		r.check(ids)
		// discovery: the token, a page of systems and a summary per system (4); then per
		// system a summary for the first day and 35½ days in one-week windows (6)
		if used := c.QuotaUsed; used != 4+2*7 || r.en.Calls()+r.en.TokenCalls() != used {
			t.Fatalf("calls: counted %d, stand-in %d and %d token calls", used, r.en.Calls(), r.en.TokenCalls())
		}
		if !c.NextSync.Equal(r.Clk.Now().Add(cloud.Interval(enphase.DailyBudget, 2, false))) || c.LastError != "" {
			t.Fatalf("next sync %v, error %q", c.NextSync, c.LastError)
		}
		// at the next sync: one call a system brings the new readings
		r.Clk.Set(c.NextSync)
		if err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		r.check(ids)
		if used := r.Get().QuotaUsed; used != 4+2*7+2 {
			t.Fatalf("calls after the live round: %d", used)
		}
		// the refresh token was rotated and stored: a process that never saw the rotation
		// (another address for the same API, so nothing in memory) syncs with the stored one
		if got := r.en.RefreshTokens(); len(got) != 1 || got[0] == r.refresh {
			t.Fatalf("refresh tokens %v", got)
		}
		srv := httptest.NewServer(r.en)
		defer srv.Close()
		w.BaseURLs["enphase"] = srv.URL
		r.Clk.Set(r.Get().NextSync)
		if c = r.SyncUntil(w, cloud.StateLive, 1); c.LastError != "" {
			t.Fatalf("with the stored refresh token: %+v", c)
		}
		r.check(ids)
	})
}

func TestQuotaSpentStopsAndResumesNextDayWithNothingLost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("own budget", func(t *testing.T) {
			r := newRig(t, db, 20, 8) // discovery 4, then 2 × (1 + 3 weeks) = 8: more than a day's 8
			w := r.Worker()
			ids := r.Follow(w)
			day := r.Clk.Now().UTC().Format("2006-01-02")
			for i := 0; i < 20 && r.Get().State != cloud.StateLive; i++ {
				if err := w.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if calls := r.en.Calls() + r.en.TokenCalls(); calls > 8 {
					t.Fatalf("day %s: %d calls, budget 8", day, calls)
				}
				if c := r.Get(); c.State != cloud.StateLive && c.NextSync.After(r.Clk.Now()) {
					r.Clk.Set(c.NextSync)
				}
				day = r.Clk.Now().UTC().Format("2006-01-02")
			}
			if c := r.Get(); c.State != cloud.StateLive || r.Clk.Now().Sub(now0) < 12*time.Hour {
				t.Fatalf("state %s at %v", c.State, r.Clk.Now())
			}
			r.check(ids)
		})
		t.Run("vendor says 429 for the minute", func(t *testing.T) {
			r := newRig(t, db, 20, enphase.DailyBudget)
			r.en.MinuteLimit = 4 // another program spends the same key's minute
			w := r.Worker()
			ids := r.Follow(w) // 3 calls of the minute
			if err := w.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			// a passing refusal: tried again within minutes, not held until midnight
			c := r.Get()
			if c.State != cloud.StateRetrying || c.NextSync.Sub(r.Clk.Now()) > 10*time.Minute || !strings.Contains(c.LastError, "minute") {
				t.Fatalf("after the minute's 429: %+v", c)
			}
			r.Clk.Set(c.NextSync)
			r.SyncUntil(w, cloud.StateLive, 10)
			r.check(ids)
		})
		t.Run("vendor says 429 for the month", func(t *testing.T) {
			r := newRig(t, db, 20, enphase.DailyBudget)
			w := r.Worker()
			ids := r.Follow(w)
			r.en.MonthLimit = r.en.Calls() + 1 // the plan's month is all but spent
			if err := w.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			c := r.Get()
			midnight := now0.Truncate(24 * time.Hour).Add(24 * time.Hour)
			if c.State != cloud.StateQuota || !c.NextSync.Equal(midnight) || !strings.Contains(c.LastError, "resumes") {
				t.Fatalf("after the month's 429: %+v", c)
			}
			r.en.MonthLimit = 1000 // a new month (or a bigger plan)
			r.Clk.Set(midnight.Add(time.Minute))
			r.SyncUntil(w, cloud.StateLive, 10)
			r.check(ids)
		})
	})
}

func TestRefusedCredentialsAreShownUntilReplaced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 2, enphase.DailyBudget)
		w := r.Worker()
		ids := r.Follow(w)
		r.en.Revoke() // the owner withdraws the application's access, and grants it again
		r.en.Grant("RT-NEW")
		ctx := context.Background()
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		c := r.Get()
		if c.State != cloud.StateRefused || !strings.Contains(c.LastError, "refused") {
			t.Fatalf("after a refusal: %+v", c)
		}
		before := r.en.PathCalls("/")
		r.Clk.Set(r.Clk.Now().Add(2 * time.Hour))
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if r.en.PathCalls("/") != before {
			t.Fatal("a refused connection kept calling")
		}
		if _, err := r.Store.Update(ctx, r.Org, c.ID, c.Name, creds("RT-NEW"), c.DailyBudget); err != nil {
			t.Fatal(err)
		}
		r.SyncUntil(w, cloud.StateLive, 3)
		r.check(ids)
	})
}

func TestRestartMidBackfillResumesWithoutDoubles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 20, enphase.DailyBudget)
		ids := r.Follow(r.Worker())
		// the process dies during the second call for production
		ctx, cancel := context.WithCancel(context.Background())
		var dataCalls atomic.Int32
		r.Handler = func(w http.ResponseWriter, req *http.Request) {
			if strings.HasSuffix(req.URL.Path, "/production_micro") && dataCalls.Add(1) == 2 {
				cancel()
				<-req.Context().Done()
				return
			}
			r.en.ServeHTTP(w, req)
		}
		_ = r.Worker().RunOnce(ctx)
		if c := r.Get(); c.State == cloud.StateLive {
			t.Fatal("the first worker finished before it was stopped")
		}
		r.Handler = nil
		w := r.Worker() // after the restart
		r.SyncUntil(w, cloud.StateLive, 3)
		r.check(ids)
		// 3 weeks a system in one-week windows; the cut call is asked again, once
		if got, cut := r.en.PathCalls("/api/v4/systems/100"), dataCalls.Load(); got != 2*(1+3)+2 || cut != 2 {
			t.Fatalf("%d system calls answered, %d data calls before the restart", got, cut)
		}
		// a write that committed without its cursor moving (a crash between the two) is
		// fetched and written again: nothing is stored twice, the counter goes on as it was
		r.Resync(w, ids[0], 36*time.Hour)
		r.check(ids)
	})
}

func TestVendorOutageBacksOffAndRecovers(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), 2, enphase.DailyBudget)
	w := r.Worker()
	ids := r.Follow(w)
	r.OutageBacksOff(w, r.en.FailNext)
	r.check(ids)
}
