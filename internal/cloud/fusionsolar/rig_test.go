package fusionsolar_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar/standin"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// clock is the test's time, shared by the stand-in, the store, the writer and the worker.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// rig is a database with an organisation, a stand-in FusionSolar on 127.0.0.1 with two
// plants (two inverters, one) whose data starts days before now, and a connection to it.
type rig struct {
	t     *testing.T
	db    *store.DB
	clk   *clock
	fs    *standin.Server
	url   string
	org   int64
	conn  *cloud.Connection
	store *cloud.Store
	// handler wraps the stand-in (tests cut requests off through it)
	handler func(w http.ResponseWriter, r *http.Request)
}

var now0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const (
	siteID = "NE=33550001"
	user   = "helio_api"
	creds  = `{"userName":"helio_api","systemCode":"S3cret!code"}`
)

func newRig(t *testing.T, db *store.DB, days, budget int) *rig {
	r := &rig{t: t, db: db, clk: &clock{t: now0}}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := now0.In(berlin).AddDate(0, 0, -days).Format("2006-01-02")
	// the five-minute allowance is the quota test's to lower; the others load more history
	r.fs = &standin.Server{Accounts: map[string]string{user: "S3cret!code"}, DataLimit: 1000, Now: r.clk.Now, Plants: []standin.Plant{
		{Code: siteID, Name: "Sonnenhof", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{ID: 1000000033550101, Serial: "HV2150012345", Name: "Inverter 1", Inv: "SUN2000-10KTL-M1", PeakW: 10000},
			{ID: 1000000033550102, Serial: "HV2150012346", Name: "Inverter 2", Inv: "SUN2000-8KTL-M1", PeakW: 8000},
		}},
		{Code: "NE=33550002", Name: "Weinberg", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{ID: 1000000033550201, Serial: "HV2150022222", Name: "Inverter 1", Inv: "SUN2000-5KTL-L1", PeakW: 5000},
		}},
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.handler != nil {
			r.handler(w, req)
			return
		}
		r.fs.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	ctx := context.Background()
	id, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Cloud Org", now0.UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	r.org = id
	r.store = &cloud.Store{DB: db, Sealer: cloud.NewSealer("test secret"), Now: r.clk.Now}
	if r.conn, err = r.store.Create(ctx, r.org, "fusionsolar", "Roof plants", creds, budget); err != nil {
		t.Fatal(err)
	}
	return r
}

// worker is a fresh worker with a writer of its own, as after a restart.
func (r *rig) worker() *cloud.Worker {
	return r.workerOn(r.db)
}

func (r *rig) workerOn(db *store.DB) *cloud.Worker {
	st := &cloud.Store{DB: db, Sealer: r.store.Sealer, Now: r.clk.Now}
	return &cloud.Worker{Store: st, Writer: telemetry.NewWriter(db, telemetry.Options{Now: r.clk.Now}),
		Vendors: map[string]cloud.Vendor{"fusionsolar": fusionsolar.Vendor}, BaseURLs: map[string]string{"fusionsolar": r.url}}
}

// follow confirms the first site's two inverters (new station, new devices).
func (r *rig) follow(w *cloud.Worker) []int64 {
	r.t.Helper()
	ctx := context.Background()
	c := r.get()
	if _, err := w.Confirm(ctx, c, []cloud.Pick{{SiteID: siteID, Serials: []string{"HV2150012345", "HV2150012346"}}}, 0); err != nil {
		r.t.Fatal(err)
	}
	return r.devices()
}

// devices are the devices the connection follows.
func (r *rig) devices() []int64 {
	ctx := context.Background()
	c := r.get()
	var ids []int64
	rows, err := r.db.Query(ctx, "SELECT device_id FROM cloud_cursors WHERE connection_id = ? ORDER BY device_id", c.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

func (r *rig) get() *cloud.Connection {
	r.t.Helper()
	c, err := r.store.Get(context.Background(), r.org, r.conn.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// stored is the device's readings and produced energy as the day roll-ups hold them.
func (r *rig) stored(deviceID int64) (samples int64, kwh float64) {
	r.t.Helper()
	rd := telemetry.NewReader(r.db, telemetry.Options{Now: r.clk.Now})
	pts, err := rd.DeviceRollups(context.Background(), []int64{deviceID}, telemetry.Day, now0.AddDate(0, -3, 0), r.clk.Now().AddDate(0, 0, 2))
	if err != nil {
		r.t.Fatal(err)
	}
	for _, p := range pts[deviceID] {
		samples += p.Stats.Samples
		kwh += p.Stats.EnergyKWh
	}
	return samples, kwh
}

// want is the stand-in's readings of a first-plant inverter from the first day to now.
func (r *rig) want() int64 {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, _ := time.ParseInLocation("2006-01-02", r.fs.Plants[0].Start, berlin)
	return int64(r.clk.Now().Sub(start)/standin.Step) + 1
}

// syncUntil runs rounds (each when due) until the connection is live, moving the clock to
// each next sync; it gives up after n rounds.
func (r *rig) syncUntil(w *cloud.Worker, state string, n int) *cloud.Connection {
	r.t.Helper()
	for i := 0; i < n; i++ {
		if err := w.RunOnce(context.Background()); err != nil {
			r.t.Fatal(err)
		}
		c := r.get()
		if c.State == state {
			return c
		}
		if c.NextSync.After(r.clk.Now()) {
			r.clk.Set(c.NextSync)
		}
	}
	c := r.get()
	r.t.Fatalf("after %d rounds: state %s (%s)", n, c.State, c.LastError)
	return nil
}
