package analysis_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The in-memory fleet state answers the stations' day and month buckets with the stored
// roll-ups' figures, field by field; the fleet's overview of this month and this year
// (read from it) equals the sum of the stations' roll-ups read from the database.
func TestFleetRollupsEqualRollups(t *testing.T) {
	f := newFleetEnv(t)
	ctx := context.Background()
	db := analysis.ReaderRollups{Reader: f.Server.Reader}
	mem := analysis.FleetRollups{Fleet: f.Server.Fleet, Fallback: failing{t}}
	var ids []int64
	for _, id := range f.ids {
		ids = append(ids, id)
	}
	now := time.Now().UTC()
	for _, c := range []struct {
		res      telemetry.Resolution
		from, to time.Time
	}{
		{telemetry.Day, time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), now.Add(24 * time.Hour)},
		{telemetry.Day, now.AddDate(0, 0, -30), now},
		{telemetry.Month, time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC), now.Add(24 * time.Hour)},
	} {
		want, err := db.Stations(ctx, ids, c.res, c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		got, err := mem.Stations(ctx, ids, c.res, c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		buckets := 0
		for _, id := range ids {
			w, g := want[id], got[id]
			if len(w) != len(g) {
				t.Errorf("%v station %d: %d buckets, roll-ups %d", c.res, id, len(g), len(w))
				continue
			}
			for i := range w {
				if !w[i].Start.Equal(g[i].Start) || !w[i].End.Equal(g[i].End) || !sameTotals(w[i].Totals, g[i].Totals) {
					t.Errorf("%v station %d bucket %v:\n got %+v\nwant %+v", c.res, id, w[i].Start, g[i], w[i])
				}
				buckets++
			}
		}
		if buckets < len(ids) {
			t.Errorf("%v: only %d buckets compared", c.res, buckets)
		}
	}

	// The overviews served from memory equal a measurer reading the roll-ups.
	sts, err := analysis.Stations(ctx, f.DB, &httpapi.Principal{OrgID: f.Accounts.OrgID, Role: "admin", StationAuthority: "all"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stored := &analysis.Measurer{Rollups: db}
	for _, q := range []struct{ kind, date string }{{"month", now.Format("2006-01")}, {"year", now.Format("2006")}} {
		per, err := analysis.ParsePeriod(q.kind, q.date, "", "")
		if err != nil {
			t.Fatal(err)
		}
		o := data[analysis.Overview](t, f.Do(t, apitest.Scenario{Method: "GET", As: "admin",
			URL: fmt.Sprintf("/v2/analysis/overview?scope=fleet&period=%s&date=%s", q.kind, q.date)}))
		got, err := stored.Stations(ctx, sts, per)
		if err != nil {
			t.Fatal(err)
		}
		var pv, ref, online float64
		for _, m := range got {
			pv += m.Total.PVKWh
			ref += m.Total.RefEnergyKWh
			online += m.Total.OnlineMin
		}
		if pv == 0 || !near(o.Totals.PVKWh, pv) || !near(o.Totals.RefEnergyKWh, ref) || !near(o.Totals.OnlineMin, online) {
			t.Errorf("%s: overview pv %v ref %v online %v, roll-ups %v %v %v", q.kind, o.Totals.PVKWh, o.Totals.RefEnergyKWh, o.Totals.OnlineMin, pv, ref, online)
		}
	}
}

// sameTotals compares two buckets' totals. The temperature-corrected reference comes from
// the bucket's temperature sum, which a stored day row rebuilds from its packed hours, where
// temperature sums are kept as float32 (7 significant digits); the fleet state adds the
// write path's exact increments. Around noon of a long day the two differ in the eighth
// digit, so that one figure is compared to a millionth of itself.
func sameTotals(a, b analysis.Totals) bool {
	return near(a.PVKWh, b.PVKWh) && near(a.DischargeKWh, b.DischargeKWh) && near(a.ChargeKWh, b.ChargeKWh) &&
		near(a.ImportKWh, b.ImportKWh) && near(a.ExportKWh, b.ExportKWh) && near(a.LoadKWh, b.LoadKWh) &&
		near(a.RefEnergyKWh, b.RefEnergyKWh) && math.Abs(a.TempRefKWh-b.TempRefKWh) <= 1e-6*(1+math.Abs(b.TempRefKWh)) && near(a.OnlineMin, b.OnlineMin) &&
		near(a.FaultMin, b.FaultMin) && a.GridMeter == b.GridMeter && a.LoadMeter == b.LoadMeter
}

// failing is a Rollups that must not be read: the fleet state keeps what was asked.
type failing struct{ t *testing.T }

func (f failing) Stations(context.Context, []int64, telemetry.Resolution, time.Time, time.Time) (map[int64][]analysis.Bucket, error) {
	f.t.Error("read the roll-ups for what the fleet state keeps")
	return nil, nil
}

func (f failing) Devices(context.Context, map[int64]string, telemetry.Resolution, time.Time, time.Time) (map[int64][]analysis.Bucket, error) {
	f.t.Error("read the roll-ups for what the fleet state keeps")
	return nil, nil
}
