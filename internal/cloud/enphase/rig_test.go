package enphase_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/cloudtest"
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

// rig is a database with an organisation, a stand-in Enphase on 127.0.0.1 with two systems
// whose data starts days before now, and a connection to it.
type rig struct {
	*cloudtest.Rig
	en      *standin.Server
	refresh string // the refresh token the connection starts with
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
	clk := cloudtest.NewClock(now0)
	r := &rig{}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := now0.In(berlin).AddDate(0, 0, -days).Format("2006-01-02")
	r.en = &standin.Server{APIKey: apiKey, ClientID: clientID, ClientSecret: secret, Now: clk.Now,
		MinuteLimit: -1, // the test's clock stands still during a round; pacing is tested apart
		Systems: []standin.System{
			{ID: 1001, Name: "Sonnenhof", TimeZone: "Europe/Berlin", Start: start, Country: "DE", Micros: 24, MicroW: 300},
			{ID: 1002, Name: "Weinberg", TimeZone: "Europe/Berlin", Start: start, Country: "DE", Micros: 12, MicroW: 350},
		}}
	r.refresh = fmt.Sprintf("RT-ADMIN-%d", rigs.Add(1)) // the owner's grant, new for each rig
	r.en.Grant(r.refresh)
	r.Rig = cloudtest.NewOn(t, db, clk, enphase.Vendor, r.en, "Roof systems", creds(r.refresh), budget)
	r.Picks = []cloud.Pick{{SiteID: "1001", Serials: serials[:1]}, {SiteID: "1002", Serials: serials[1:]}}
	return r
}

// stored is the device's readings and produced energy as the day roll-ups hold them, and
// its latest lifetime counter.
func (r *rig) stored(deviceID int64) (samples int64, kwh, counter float64) {
	r.T.Helper()
	samples, kwh = r.Stored(deviceID, now0.AddDate(0, -3, 0))
	latest, err := telemetry.NewReader(r.DB, telemetry.Options{Now: r.Clk.Now}).Latest(context.Background(), []int64{deviceID})
	if err != nil {
		r.T.Fatal(err)
	}
	return samples, kwh, latest[deviceID].EnergyKWh
}

// want is the stand-in's intervals of a system from its first day to now, and its
// production in kWh.
func (r *rig) want(i int) (int64, float64) {
	sys := &r.en.Systems[i]
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, _ := time.ParseInLocation("2006-01-02", sys.Start, berlin)
	return int64(r.Clk.Now().Sub(start) / standin.Step), float64(sys.EnergyWh(r.Clk.Now())) / 1000
}

// check says whether every system's readings, day energy and counter are all in.
func (r *rig) check(ids []int64) {
	r.T.Helper()
	for i, id := range ids {
		n, kwh, counter := r.stored(id)
		wantN, wantKWh := r.want(i)
		if n != wantN || !near(kwh, wantKWh) || !near(counter, wantKWh) {
			r.T.Fatalf("device %d: %d readings (want %d), %.3f kWh by day, counter %.3f (want %.3f)", id, n, wantN, kwh, counter, wantKWh)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }
