package fusionsolar_test

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/cloudtest"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar/standin"
	"github.com/helio-energy/helio/internal/store"
)

// rig is a database with an organisation, a stand-in FusionSolar on 127.0.0.1 with two
// plants (two inverters, one) whose data starts days before now, and a connection to it.
type rig struct {
	*cloudtest.Rig
	fs *standin.Server
}

var now0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const (
	siteID = "NE=33550001"
	user   = "helio_api"
	creds  = `{"userName":"helio_api","systemCode":"S3cret!code"}`
)

func newRig(t *testing.T, db *store.DB, days, budget int) *rig {
	clk := cloudtest.NewClock(now0)
	r := &rig{}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := now0.In(berlin).AddDate(0, 0, -days).Format("2006-01-02")
	// the five-minute allowance is the quota test's to lower; the others load more history
	r.fs = &standin.Server{Accounts: map[string]string{user: "S3cret!code"}, DataLimit: 1000, Now: clk.Now, Plants: []standin.Plant{
		{Code: siteID, Name: "Sonnenhof", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{ID: 1000000033550101, Serial: "HV2150012345", Name: "Inverter 1", Inv: "SUN2000-10KTL-M1", PeakW: 10000},
			{ID: 1000000033550102, Serial: "HV2150012346", Name: "Inverter 2", Inv: "SUN2000-8KTL-M1", PeakW: 8000},
		}},
		{Code: "NE=33550002", Name: "Weinberg", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{ID: 1000000033550201, Serial: "HV2150022222", Name: "Inverter 1", Inv: "SUN2000-5KTL-L1", PeakW: 5000},
		}},
	}}
	r.Rig = cloudtest.NewOn(t, db, clk, fusionsolar.Vendor, r.fs, "Roof plants", creds, budget)
	r.Picks = []cloud.Pick{{SiteID: siteID, Serials: []string{"HV2150012345", "HV2150012346"}}}
	return r
}

// stored is the device's readings and produced energy as the day roll-ups hold them.
func (r *rig) stored(deviceID int64) (samples int64, kwh float64) {
	return r.Stored(deviceID, now0.AddDate(0, -3, 0))
}

// want is the stand-in's readings of a first-plant inverter from the first day to now.
func (r *rig) want() int64 {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, _ := time.ParseInLocation("2006-01-02", r.fs.Plants[0].Start, berlin)
	return int64(r.Clk.Now().Sub(start)/standin.Step) + 1
}
