package isolarcloud_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestDiscoveryMarksWhatExistsAndConfirmCreatesOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 3, 1500)
		ctx := context.Background()
		// the second plant's inverter is already in Helio (added by hand, say)
		st, dev := r.AddByHand("Depot (by hand)", "Asia/Shanghai", 10, "WR", "A2262065534")
		w := r.Worker()
		found, err := w.Discover(ctx, r.Get())
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 2 || len(found[0].Devices) != 2 || found[0].Devices[0].DeviceID != 0 || found[0].StationID != 0 {
			t.Fatalf("first plant: %+v", found)
		}
		if len(found[1].Devices) != 1 || found[1].StationID != st || found[1].Devices[0].DeviceID != dev || found[1].Devices[0].Following {
			t.Fatalf("second plant (its meter left out): %+v", found[1])
		}
		picks := []cloud.Pick{{SiteID: "1001", Serials: []string{"A2262065536", "A2271319309"}}, {SiteID: "1002", Serials: []string{"A2262065534"}}}
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
		var tz string
		var kwp float64
		_ = db.QueryRow(ctx, "SELECT s.timezone, s.capacity_kwp FROM stations s JOIN devices d ON d.station_id = s.id WHERE d.sn = ?",
			"A2262065536").Scan(&tz, &kwp)
		if tz != "Etc/GMT-8" || kwp != 160 {
			t.Fatalf("new station: zone %q, %v kWp", tz, kwp)
		}
		// the cursors hold the inverters' ps_keys, the handle of their data calls
		var keys []string
		rows, _ := db.Query(ctx, "SELECT serial FROM cloud_cursors WHERE connection_id = ? ORDER BY serial", r.Conn.ID)
		for rows.Next() {
			var k string
			_ = rows.Scan(&k)
			keys = append(keys, k)
		}
		rows.Close()
		if strings.Join(keys, " ") != "1001_1_1_1 1001_1_1_2 1002_1_1_1" {
			t.Fatalf("cursor keys %v", keys)
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
		r := newRig(t, db, 31, 1500) // older than the 30-day raw window: Backfill and Write both
		w := r.Worker()
		ids := r.Follow(w)
		c := r.SyncUntil(w, cloud.StateLive, 3)
		for _, id := range ids {
			if n, kwh := r.stored(id); n != r.want() || kwh <= 0 {
				t.Fatalf("device %d: %d readings (want %d), %.1f kWh", id, n, r.want(), kwh)
			}
		}
		// the lifetime counter landed: the last reading's total yield, in kWh
		var last float64
		_ = db.QueryRow(context.Background(), "SELECT energy_kwh FROM telemetry_latest WHERE device_id = ?", ids[1]).Scan(&last)
		if last < 31*800 { // 110 kW peak: about 840 kWh a day
			t.Fatalf("lifetime counter %.1f kWh", last)
		}
		// discovery: a login, a page of plants and a device list per plant (4); the plant
		// list again for the first day (1); then 31 days and 20 hours in three-hour windows:
		// 255 calls, each naming both inverters of the plant
		if used := c.QuotaUsed; used != 4+1+255 || r.se.Calls() != used {
			t.Fatalf("calls: counted %d, stand-in %d", used, r.se.Calls())
		}
		if r.se.PathCalls(isolarcloud.PathLogin) != 1 {
			t.Fatalf("%d logins: the token is not kept", r.se.PathCalls(isolarcloud.PathLogin))
		}
		if !c.NextSync.Equal(r.Clk.Now().Add(cloud.Interval(1500, 1, false))) || c.LastError != "" {
			t.Fatalf("next sync %v, error %q", c.NextSync, c.LastError)
		}
		// an hour later: one call brings both inverters' new readings
		r.Clk.Set(r.Clk.Now().Add(time.Hour))
		if err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if n, _ := r.stored(id); n != r.want() {
				t.Fatalf("device %d after an hour: %d readings, want %d", id, n, r.want())
			}
		}
		if used := r.Get().QuotaUsed; used != 4+1+255+1 {
			t.Fatalf("calls after the live round: %d", used)
		}
	})
}

func TestQuotaSpentStopsAndResumesNextDayWithNothingLost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("own budget", func(t *testing.T) {
			// 15 windows (both devices in each call) + 5 = 20 calls, 15 a day; keeping up
			// takes 8 a day
			r := newRig(t, db, 1, 15)
			w := r.Worker()
			ids := r.Follow(w)
			day := r.Clk.Now().UTC().Format("2006-01-02")
			for i := 0; i < 60 && r.Get().State != cloud.StateLive; i++ {
				if err := w.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if calls := r.se.Calls(); calls > 15 {
					t.Fatalf("day %s: %d calls, budget 15", day, calls)
				}
				if c := r.Get(); c.State != cloud.StateLive && c.NextSync.After(r.Clk.Now()) {
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
		})
		t.Run("vendor says the hour's calls are spent", func(t *testing.T) {
			r := newRig(t, db, 2, 1500)
			r.se.Limit = 20 // the vendor's count is lower than ours
			w := r.Worker()
			ids := r.Follow(w)
			if err := w.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			c := r.Get()
			midnight := now0.Truncate(24 * time.Hour).Add(24 * time.Hour)
			if c.State != cloud.StateQuota || !c.NextSync.Equal(midnight) || !strings.Contains(c.LastError, "resumes") {
				t.Fatalf("after the rate limit: %+v", c)
			}
			if n, _ := r.stored(ids[1]); n == 0 || n >= r.want() { // part of the history is in
				t.Fatalf("%d readings before the limit", n)
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

func TestRefusedCredentialsAreShownUntilReplaced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, 2, 1500)
		w := r.Worker()
		ids := r.Follow(w)
		ctx := context.Background()
		// the password is changed at the vendor and the token expires
		r.se.Users["ops@example.com"] = "pw-2"
		r.se.ExpireTokens()
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		c := r.Get()
		if c.State != cloud.StateRefused || !strings.Contains(c.LastError, "refused") {
			t.Fatalf("after a refusal: %+v", c)
		}
		before := r.se.Calls()
		r.Clk.Set(r.Clk.Now().Add(2 * time.Hour))
		if err := w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if r.se.Calls() != before {
			t.Fatal("a refused connection kept calling")
		}
		if _, err := r.Store.Update(ctx, r.Org, c.ID, c.Name, creds("pw-2"), c.DailyBudget); err != nil {
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
		r := newRig(t, db, 2, 1500)
		ids := r.Follow(r.Worker())
		// the process dies during the fourth call for minute data
		ctx, cancel := context.WithCancel(context.Background())
		var dataCalls atomic.Int32
		r.Handler = func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == isolarcloud.PathMinuteData && dataCalls.Add(1) == 4 {
				_, _ = io.Copy(io.Discard, req.Body) // read: the server then notices the client leave
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
		// 2 days and 20 hours in three-hour windows, both devices in each call: 23; the cut
		// call is asked again, once
		if got, cut := r.se.PathCalls(isolarcloud.PathMinuteData), dataCalls.Load(); got != 23 || cut != 4 {
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
	r := newRig(t, storetest.SQLite(t), 2, 1500)
	w := r.Worker()
	ids := r.Follow(w)
	r.OutageBacksOff(w, r.se.FailNext)
	if n, _ := r.stored(ids[1]); n != r.want() {
		t.Fatalf("%d readings, want %d", n, r.want())
	}
}
