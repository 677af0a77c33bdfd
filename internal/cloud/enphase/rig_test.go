package enphase_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/enphase"
	"github.com/helio-energy/helio/internal/cloud/enphase/standin"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

func TestMain(m *testing.M) {
	// the workers' clients keep the plan's ten calls over a millisecond rather than a
	// minute (the pacing itself is tested with a clock of its own)
	enphase.PaceWindow = time.Millisecond
	os.Exit(m.Run())
}

// clock is the test's time, shared by the stand-in, the store, the writer and the worker.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// rig is a database with an organisation, a stand-in Enphase on 127.0.0.1 with two systems
// whose data starts days before now, and a connection to it.
type rig struct {
	t       *testing.T
	db      *store.DB
	clk     *clock
	en      *standin.Server
	url     string
	org     int64
	conn    *cloud.Connection
	store   *cloud.Store
	refresh string // the refresh token the connection starts with
	// handler wraps the stand-in (tests cut requests off through it)
	handler func(w http.ResponseWriter, r *http.Request)
}

var rigs atomic.Int32

var now0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const (
	apiKey   = "APIKEY1"
	clientID = "CLIENT1"
	secret   = "CLIENTSECRET1"
)

// creds are the connection's credentials with a refresh token.
func creds(refresh string) string {
	b, _ := json.Marshal(map[string]string{"apiKey": apiKey, "clientId": clientID, "clientSecret": secret, "refreshToken": refresh})
	return string(b)
}

var serials = []string{"enphase-1001", "enphase-1002"}

func newRig(t *testing.T, db *store.DB, days, budget int) *rig {
	r := &rig{t: t, db: db, clk: &clock{t: now0}}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := now0.In(berlin).AddDate(0, 0, -days).Format("2006-01-02")
	r.en = &standin.Server{APIKey: apiKey, ClientID: clientID, ClientSecret: secret, Now: r.clk.Now,
		MinuteLimit: -1, // the test's clock stands still during a round; pacing is tested apart
		Systems: []standin.System{
			{ID: 1001, Name: "Sonnenhof", TimeZone: "Europe/Berlin", Start: start, Country: "DE", Micros: 24, MicroW: 300},
			{ID: 1002, Name: "Weinberg", TimeZone: "Europe/Berlin", Start: start, Country: "DE", Micros: 12, MicroW: 350},
		}}
	r.refresh = fmt.Sprintf("RT-ADMIN-%d", rigs.Add(1)) // the owner's grant, new for each rig
	r.en.Grant(r.refresh)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.handler != nil {
			r.handler(w, req)
			return
		}
		r.en.ServeHTTP(w, req)
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
	if r.conn, err = r.store.Create(ctx, r.org, "enphase", "Roof systems", creds(r.refresh), budget); err != nil {
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
		Vendors: map[string]cloud.Vendor{"enphase": enphase.Vendor}, BaseURLs: map[string]string{"enphase": r.url}}
}

// follow confirms both systems (new stations, one new device each).
func (r *rig) follow(w *cloud.Worker) []int64 {
	r.t.Helper()
	picks := []cloud.Pick{{SiteID: "1001", Serials: serials[:1]}, {SiteID: "1002", Serials: serials[1:]}}
	if _, err := w.Confirm(context.Background(), r.get(), picks, 0); err != nil {
		r.t.Fatal(err)
	}
	return r.devices()
}

// devices are the devices the connection follows.
func (r *rig) devices() []int64 {
	ctx := context.Background()
	var ids []int64
	rows, err := r.db.Query(ctx, "SELECT device_id FROM cloud_cursors WHERE connection_id = ? ORDER BY device_id", r.conn.ID)
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

// stored is the device's readings and produced energy as the day roll-ups hold them, and
// its latest lifetime counter.
func (r *rig) stored(deviceID int64) (samples int64, kwh, counter float64) {
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
	latest, err := rd.Latest(context.Background(), []int64{deviceID})
	if err != nil {
		r.t.Fatal(err)
	}
	return samples, kwh, latest[deviceID].EnergyKWh
}

// want is the stand-in's intervals of a system from its first day to now, and its
// production in kWh.
func (r *rig) want(i int) (int64, float64) {
	sys := &r.en.Systems[i]
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, _ := time.ParseInLocation("2006-01-02", sys.Start, berlin)
	return int64(r.clk.Now().Sub(start) / standin.Step), float64(sys.EnergyWh(r.clk.Now())) / 1000
}

// check says whether every system's readings, day energy and counter are all in.
func (r *rig) check(ids []int64) {
	r.t.Helper()
	for i, id := range ids {
		n, kwh, counter := r.stored(id)
		wantN, wantKWh := r.want(i)
		if n != wantN || !near(kwh, wantKWh) || !near(counter, wantKWh) {
			r.t.Fatalf("device %d: %d readings (want %d), %.3f kWh by day, counter %.3f (want %.3f)", id, n, wantN, kwh, counter, wantKWh)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

// syncUntil runs rounds (each when due) until the connection is in state, moving the clock
// to each next sync; it gives up after n rounds.
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
