package isolarcloud_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/cloudtest"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud/standin"
	"github.com/helio-energy/helio/internal/store"
)

// rig is a database with an organisation, a stand-in iSolarCloud on 127.0.0.1 with a plant
// of two inverters (UTC+8) whose data starts days before now and a plant of one inverter
// and a meter, and a connection to it.
type rig struct {
	*cloudtest.Rig
	se *standin.Server
}

var now0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC) // 20:00 at the plants

const siteID = "1001"

var shanghai = time.FixedZone("GMT+8", 8*3600)

// creds are the connection's credentials for a password.
func creds(password string) string {
	b, _ := json.Marshal(map[string]string{"appKey": "APPKEY1", "accessKey": "ACCESS1", "userAccount": "ops@example.com",
		"userPassword": password})
	return string(b)
}

func newRig(t *testing.T, db *store.DB, days, budget int) *rig {
	clk := cloudtest.NewClock(now0)
	r := &rig{}
	start := now0.In(shanghai).AddDate(0, 0, -days).Format("2006-01-02")
	r.se = &standin.Server{AppKey: "APPKEY1", AccessKey: "ACCESS1", Users: map[string]string{"ops@example.com": "pw-1"},
		Now: clk.Now, Plants: []standin.Plant{
			{ID: 1001, Name: "Jinshan Roof", Offset: 8, Start: start, Inverters: []standin.Inverter{
				{Serial: "A2262065536", Name: "NB01", Model: "SG50CX", Channel: 1, PeakW: 50000},
				{Serial: "A2271319309", Name: "NB02", Model: "SG110CX", Channel: 2, PeakW: 110000},
			}},
			{ID: 1002, Name: "Depot", Offset: 8, Start: start, Meter: true, Inverters: []standin.Inverter{
				{Serial: "A2262065534", Name: "NB01", Model: "SG10RT", Channel: 1, PeakW: 10000},
			}},
		}}
	r.Rig = cloudtest.NewOn(t, db, clk, isolarcloud.Vendor, r.se, "Installer account", creds("pw-1"), budget)
	r.Picks = []cloud.Pick{{SiteID: siteID, Serials: []string{"A2262065536", "A2271319309"}}}
	return r
}

// stored is the device's readings and produced energy as the day roll-ups hold them.
func (r *rig) stored(deviceID int64) (samples int64, kwh float64) {
	return r.Stored(deviceID, now0.AddDate(0, -3, 0))
}

// want is the stand-in's readings of a plant-1001 inverter from the first day to now.
func (r *rig) want() int64 {
	start, _ := time.ParseInLocation("2006-01-02", r.se.Plants[0].Start, shanghai)
	return int64(r.Clk.Now().Sub(start)/standin.Step) + 1
}
