package solaredge_test

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/cloudtest"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
	"github.com/helio-energy/helio/internal/cloud/solaredge/standin"
	"github.com/helio-energy/helio/internal/store"
)

// rig is a database with an organisation, a stand-in SolarEdge on 127.0.0.1 with one site
// of two inverters whose data starts days before now, and a connection to it.
type rig struct {
	*cloudtest.Rig
	se *standin.Server
}

var now0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const siteID = "1001"

func newRig(t *testing.T, db *store.DB, days, budget int) *rig {
	clk := cloudtest.NewClock(now0)
	r := &rig{}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := now0.In(berlin).AddDate(0, 0, -days).Format(solaredge.DateLayout)
	r.se = &standin.Server{Keys: map[string]bool{"GOODKEY": true}, Now: clk.Now, Sites: []standin.Site{
		{ID: 1001, Name: "Sonnenhof", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E1000A1-B2", Name: "Inverter 1", Model: "SE10K", PeakW: 10000},
			{Serial: "7E1000A2-C3", Name: "Inverter 2", Model: "SE8K", PeakW: 8000},
		}},
		{ID: 1002, Name: "Weinberg", TimeZone: "Europe/Berlin", Start: start, Inverters: []standin.Inverter{
			{Serial: "7E2000B1-D4", Name: "Inverter 1", Model: "SE5K", PeakW: 5000},
		}},
	}}
	r.Rig = cloudtest.NewOn(t, db, clk, solaredge.Vendor, r.se, "Roof sites", "GOODKEY", budget)
	r.Picks = []cloud.Pick{{SiteID: siteID, Serials: []string{"7E1000A1-B2", "7E1000A2-C3"}}}
	return r
}

// stored is the device's readings and produced energy as the day roll-ups hold them.
func (r *rig) stored(deviceID int64) (samples int64, kwh float64) {
	return r.Stored(deviceID, now0.AddDate(0, -3, 0))
}

// want is the stand-in's readings of a site-1001 inverter from the first day to now.
func (r *rig) want() int64 {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start, _ := time.ParseInLocation(solaredge.DateLayout, r.se.Sites[0].Start, berlin)
	return int64(r.Clk.Now().Sub(start)/standin.Step) + 1
}
