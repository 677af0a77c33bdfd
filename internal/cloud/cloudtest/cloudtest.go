// Package cloudtest is what the vendor connectors' tests share: a clock the stand-in, the
// store, the writer and the worker all read, and a rig of a database with an organisation,
// the vendor's stand-in served on 127.0.0.1 and a connection to it.
package cloudtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Clock is the test's time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// Rig is one connection to a vendor's stand-in.
type Rig struct {
	T      *testing.T
	DB     *store.DB
	Clk    *Clock
	URL    string // the stand-in's address
	Org    int64
	Conn   *cloud.Connection
	Store  *cloud.Store
	Vendor cloud.Vendor
	// Picks are what Follow confirms.
	Picks []cloud.Pick
	// Handler, when set, answers in the stand-in's place (tests cut requests off through it).
	Handler func(w http.ResponseWriter, r *http.Request)
}

// New serves standIn on 127.0.0.1 and connects a new organisation to it with the given
// credentials and daily budget; the clock starts at now.
func New(t *testing.T, db *store.DB, now time.Time, vendor cloud.Vendor, standIn http.Handler, name, credentials string, budget int) *Rig {
	t.Helper()
	return NewOn(t, db, NewClock(now), vendor, standIn, name, credentials, budget)
}

// NewOn is New with a clock the stand-in was built with.
func NewOn(t *testing.T, db *store.DB, clk *Clock, vendor cloud.Vendor, standIn http.Handler, name, credentials string, budget int) *Rig {
	t.Helper()
	r := &Rig{T: t, DB: db, Clk: clk, Vendor: vendor}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.Handler != nil {
			r.Handler(w, req)
			return
		}
		standIn.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	ctx := context.Background()
	id, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Cloud Org", clk.Now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	r.Org = id
	r.Store = &cloud.Store{DB: db, Sealer: cloud.NewSealer("test secret"), Now: clk.Now}
	if r.Conn, err = r.Store.Create(ctx, r.Org, vendor.Name, name, credentials, budget); err != nil {
		t.Fatal(err)
	}
	return r
}

// Worker is a fresh worker with a writer of its own, as after a restart.
func (r *Rig) Worker() *cloud.Worker { return r.WorkerOn(r.DB) }

// WorkerOn is a worker on another connection to the database (a replica).
func (r *Rig) WorkerOn(db *store.DB) *cloud.Worker {
	st := &cloud.Store{DB: db, Sealer: r.Store.Sealer, Now: r.Clk.Now}
	return &cloud.Worker{Store: st, Writer: telemetry.NewWriter(db, telemetry.Options{Now: r.Clk.Now}),
		Vendors: map[string]cloud.Vendor{r.Vendor.Name: r.Vendor}, BaseURLs: map[string]string{r.Vendor.Name: r.URL}}
}

// Follow confirms Picks (new stations, new devices) and answers the devices followed.
func (r *Rig) Follow(w *cloud.Worker) []int64 {
	r.T.Helper()
	if _, err := w.Confirm(context.Background(), r.Get(), r.Picks, 0); err != nil {
		r.T.Fatal(err)
	}
	return r.Devices()
}

// Devices are the devices the connection follows.
func (r *Rig) Devices() []int64 {
	r.T.Helper()
	ids, err := store.IDs(context.Background(), r.DB, "SELECT device_id FROM cloud_cursors WHERE connection_id = ? ORDER BY device_id", r.Conn.ID)
	if err != nil {
		r.T.Fatal(err)
	}
	return ids
}

// Get is the connection as stored now.
func (r *Rig) Get() *cloud.Connection {
	r.T.Helper()
	c, err := r.Store.Get(context.Background(), r.Org, r.Conn.ID)
	if err != nil {
		r.T.Fatal(err)
	}
	return c
}

// Stored is the device's readings and produced energy as the day roll-ups hold them, from
// since to two days after the clock.
func (r *Rig) Stored(deviceID int64, since time.Time) (samples int64, kwh float64) {
	r.T.Helper()
	rd := telemetry.NewReader(r.DB, telemetry.Options{Now: r.Clk.Now})
	pts, err := rd.DeviceRollups(context.Background(), []int64{deviceID}, telemetry.Day, since, r.Clk.Now().AddDate(0, 0, 2))
	if err != nil {
		r.T.Fatal(err)
	}
	for _, p := range pts[deviceID] {
		samples += p.Stats.Samples
		kwh += p.Stats.EnergyKWh
	}
	return samples, kwh
}

// SyncUntil runs rounds (each when due) until the connection is in state, moving the clock
// to each next sync; it fails the test after n rounds.
func (r *Rig) SyncUntil(w *cloud.Worker, state string, n int) *cloud.Connection {
	r.T.Helper()
	for i := 0; i < n; i++ {
		if err := w.RunOnce(context.Background()); err != nil {
			r.T.Fatal(err)
		}
		c := r.Get()
		if c.State == state {
			return c
		}
		if c.NextSync.After(r.Clk.Now()) {
			r.Clk.Set(c.NextSync)
		}
	}
	c := r.Get()
	r.T.Fatalf("after %d rounds: state %s (%s)", n, c.State, c.LastError)
	return nil
}

// Resync moves the device's cursor back by d, as a crash between a write's commit and its
// cursor's move would leave it, and syncs until live again: the readings are fetched and
// written a second time, which the write path must store once.
func (r *Rig) Resync(w *cloud.Worker, deviceID int64, d time.Duration) {
	r.T.Helper()
	ctx := context.Background()
	if _, err := r.DB.Exec(ctx, "UPDATE cloud_cursors SET synced_to = ? WHERE device_id = ?", r.Clk.Now().Add(-d).UnixMilli(), deviceID); err != nil {
		r.T.Fatal(err)
	}
	if _, err := r.Store.SyncNow(ctx, r.Org, r.Conn.ID); err != nil {
		r.T.Fatal(err)
	}
	r.SyncUntil(w, cloud.StateLive, 3)
}

// OutageBacksOff has the stand-in answer the next two calls 503 (failNext) and checks the
// connection shows `retrying` and is tried again after 2, then 4 minutes, then recovers
// to live with no error kept.
func (r *Rig) OutageBacksOff(w *cloud.Worker, failNext func(n, status int)) {
	r.T.Helper()
	ctx := context.Background()
	failNext(2, http.StatusServiceUnavailable)
	_ = w.RunOnce(ctx)
	c := r.Get()
	if c.State != cloud.StateRetrying || !c.NextSync.Equal(r.Clk.Now().Add(2*time.Minute)) || !strings.Contains(c.LastError, "503") {
		r.T.Fatalf("after a 503: %+v", c)
	}
	r.Clk.Set(c.NextSync)
	_ = w.RunOnce(ctx)
	if c = r.Get(); c.State != cloud.StateRetrying || !c.NextSync.Equal(r.Clk.Now().Add(4*time.Minute)) {
		r.T.Fatalf("after a second 503: %+v", c)
	}
	r.Clk.Set(c.NextSync)
	r.SyncUntil(w, cloud.StateLive, 2)
	if c = r.Get(); c.LastError != "" {
		r.T.Fatalf("error kept: %q", c.LastError)
	}
}

// AddByHand puts a station (in zone, of kWp) with one inverter of serial sn into the
// organisation, as an operator would have before connecting the vendor.
func (r *Rig) AddByHand(station, zone string, kWp float64, device, sn string) (stationID, deviceID int64) {
	r.T.Helper()
	ctx := context.Background()
	now := r.Clk.Now().UnixMilli()
	stationID, err := r.DB.Insert(ctx, `INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, r.Org, station, zone, kWp, now, now)
	if err != nil {
		r.T.Fatal(err)
	}
	deviceID, err = r.DB.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, r.Org, stationID, device, sn, "inverter", now, now)
	if err != nil {
		r.T.Fatal(err)
	}
	return stationID, deviceID
}

// Count is the organisation's stations and devices.
func (r *Rig) Count() (stations, devices int) {
	r.T.Helper()
	ctx := context.Background()
	if err := r.DB.QueryRow(ctx, "SELECT COUNT(*) FROM stations WHERE org_id = ?", r.Org).Scan(&stations); err != nil {
		r.T.Fatal(err)
	}
	if err := r.DB.QueryRow(ctx, "SELECT COUNT(*) FROM devices WHERE org_id = ?", r.Org).Scan(&devices); err != nil {
		r.T.Fatal(err)
	}
	return stations, devices
}
