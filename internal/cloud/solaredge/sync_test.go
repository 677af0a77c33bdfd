package solaredge_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestDiscoveryMarksWhatExistsAndConfirmCreatesOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 3, 300)
		ctx := context.Background()
		// the second site's inverter is already in Helio (added by hand, say)
		st, dev := r.AddByHand("Weinberg (by hand)", "Europe/Berlin", 5, "WR", "7E2000B1-D4")
		w := r.Worker()
		found, err := w.Discover(ctx, r.Get())
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 2 || len(found[0].Devices) != 2 || found[0].Devices[0].DeviceID != 0 || found[0].StationID != 0 {
			t.Fatalf("first site: %+v", found)
		}
		if found[1].StationID != st || found[1].Devices[0].DeviceID != dev || found[1].Devices[0].Following {
			t.Fatalf("second site: %+v", found[1])
		}
		picks := []cloud.Pick{{SiteID: "1001", Serials: []string{"7E1000A1-B2", "7E1000A2-C3"}}, {SiteID: "1002", Serials: []string{"7E2000B1-D4"}}}
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
		var tz, country, currency string
		_ = db.QueryRow(ctx, "SELECT s.timezone, s.country, s.currency FROM stations s JOIN devices d ON d.station_id = s.id WHERE d.sn = ?",
			"7E1000A1-B2").Scan(&tz, &country, &currency)
		if tz != "Europe/Berlin" || country != "DE" || currency != "EUR" {
			t.Fatalf("new station: zone %q, country %q, currency %q", tz, country, currency)
		}
		// a serial number the vendor did not list is refused, and nothing is created
		if _, err := w.Confirm(ctx, r.Get(), []cloud.Pick{{SiteID: "1001", Serials: []string{"NOPE"}}}, 0); err == nil {
			t.Fatal("an unknown serial number was accepted")
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
		// discovery: a page of sites and an equipment list per site (3); then 35 days in
		// one-week windows: 6 calls a device, and one dataPeriod
		if used := c.QuotaUsed; used != 3+13 || r.se.Calls("GOODKEY") != used {
			t.Fatalf("calls: counted %d, stand-in %d", used, r.se.Calls("GOODKEY"))
		}
		if !c.NextSync.Equal(r.Clk.Now().Add(cloud.Interval(300, 2, false))) || c.LastError != "" {
			t.Fatalf("next sync %v, error %q", c.NextSync, c.LastError)
		}
		// an hour later: one call a device brings the new readings
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		if err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if n, _ := r.stored(id); n != r.want() {
				t.Fatalf("device %d after an hour: %d readings, want %d", id, n, r.want())
			}
		}
		if used := r.Get().QuotaUsed; used != 3+13+2 {
			t.Fatalf("calls after the live round: %d", used)
		}
	})
}

func TestQuotaSpentStopsAndResumesNextDayWithNothingLost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("own budget", func(t *testing.T) {
			r := newRig(t, db, 20, 6) // 2 devices × 3 weeks + 1 = 7 calls, 6 a day
			w := r.Worker()
			ids := r.Follow(w)
			day := r.Clk.Now().UTC().Format("2006-01-02")
			for i := 0; i < 20 && r.Get().State != cloud.StateLive; i++ {
				if err := w.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if calls := r.se.Calls("GOODKEY"); calls > 6 {
					t.Fatalf("day %s: %d calls, budget 6", day, calls)
				}
				if c := r.Get(); c.State != cloud.StateLive && c.NextSync.After(r.Clk.Now()) {
					next := c.NextSync
					r.Clk.Set(next)
				}
				day = r.Clk.Now().UTC().Format("2006-01-02")
			}
			if c := r.Get(); c.State != cloud.StateLive || r.Clk.Now().Sub(now0) < 12*time.Hour {
				t.Fatalf("state %s at %v", c.State, r.Clk.Now())
			}
			for _, id := range ids {
				if n, _ := r.stored(id); n != r.want() {
					t.Fatalf("device %d: %d readings, want %d", id, n, r.want())
				}
			}
		})
		t.Run("vendor says 429", func(t *testing.T) {
			r := newRig(t, db, 20, 300)
			r.se.Budget = 4 // the vendor's count is lower than ours
			w := r.Worker()
			ids := r.Follow(w)
			if err := w.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			c := r.Get()
			midnight := now0.Truncate(24 * time.Hour).Add(24 * time.Hour)
			if c.State != cloud.StateQuota || !c.NextSync.Equal(midnight) || !strings.Contains(c.LastError, "resumes") {
				t.Fatalf("after 429: %+v", c)
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
		delete(r.se.Keys, "GOODKEY") // the key expires
		r.se.Keys["NEWKEY"] = true
		ctx := context.Background()
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		c := r.Get()
		if c.State != cloud.StateRefused || !strings.Contains(c.LastError, "refused") {
			t.Fatalf("after a refusal: %+v", c)
		}
		before := r.se.PathCalls("/")
		r.Clk.Set(r.Clk.Now().Add(2 * time.Hour))
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if r.se.PathCalls("/") != before {
			t.Fatal("a refused connection kept calling")
		}
		if _, err := r.Store.Update(ctx, r.Org, c.ID, c.Name, "NEWKEY", c.DailyBudget); err != nil {
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
		// the process dies during the fourth call for inverter data
		ctx, cancel := context.WithCancel(context.Background())
		var dataCalls atomic.Int32
		r.Handler = func(w http.ResponseWriter, req *http.Request) {
			if strings.HasSuffix(req.URL.Path, "/data") && dataCalls.Add(1) == 4 {
				cancel()
				<-req.Context().Done()
				return
			}
			r.se.ServeHTTP(w, req)
		}
		_ = r.Worker().RunOnce(ctx)
		if c := r.Get(); c.State == cloud.StateLive {
			t.Fatal("the first worker finished before it was stopped")
		}
		r.Handler = nil
		w := r.Worker() // after the restart
		r.SyncUntil(w, cloud.StateLive, 3)
		for _, id := range ids {
			if n, _ := r.stored(id); n != r.want() {
				t.Fatalf("device %d: %d readings, want %d", id, n, r.want())
			}
		}
		// 3 weeks a device in one-week windows; the cut call is asked again, once
		if got, cut := r.se.PathCalls("/equipment/1001/7E"), dataCalls.Load(); got != 6 || cut != 4 {
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
	r.OutageBacksOff(w, r.se.FailNext)
	if n, _ := r.stored(ids[1]); n != r.want() {
		t.Fatalf("%d readings, want %d", n, r.want())
	}
}

func TestCredentialsThatDoNotOpenWaitForTheRightKey(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), 2, 300)
	w := r.Worker()
	r.Follow(w)
	ctx := context.Background()
	w.Store.Sealer = cloud.NewSealer("another secret") // restarted with the wrong key
	if err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	c := r.Get()
	if c.State != cloud.StateRetrying || !strings.Contains(c.LastError, "secret key") || !c.NextSync.After(r.Clk.Now()) {
		t.Fatalf("with the wrong key: %+v", c)
	}
	w.Store.Sealer = r.Store.Sealer // and again with the right one
	if _, err := r.Store.SyncNow(ctx, r.Org, c.ID); err != nil {
		t.Fatal(err)
	}
	r.SyncUntil(w, cloud.StateLive, 2)
}
