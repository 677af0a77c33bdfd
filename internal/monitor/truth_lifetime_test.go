package monitor_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// One lifetime per device wherever it appears: over the demo fleet, on SQLite and
// PostgreSQL, from the fleet state and from the roll-ups read afresh, each device's
// lifetime in the device list = its page = its station's device tree = the export = its
// history's sum (hour and day resolution) + its opening; each station's lifetime (list and
// page) = the sum of its counted devices' (its own and its sub-stations' inverters, not
// the packs inside a unit), openings included (docs/kpi.md).
func TestOneLifetimePerDevice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		ctx := context.Background()
		e.Fleet = demo.Fleet()
		if err := demo.SeedFleet(ctx, db, e.Accounts, e.Fleet); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Minute)
		from := now.Add(-30 * time.Hour)
		e.Simulate(t, from, now)
		openings := openingsOf(t, db)
		if len(openings) == 0 {
			t.Fatal("the demo stored no openings")
		}
		for _, kept := range []bool{true, false} {
			t.Run(fmt.Sprintf("kept=%v", kept), func(t *testing.T) {
				saved := e.Server.Figures.Fleet
				if !kept {
					e.Server.Figures.Fleet = nil
				}
				defer func() { e.Server.Figures.Fleet = saved }()
				checkLifetimes(t, e, openings, from, now)
			})
		}
	})
}

// allDevices is the whole device list, page by page.
func allDevices(t *testing.T, e *apitest.Env) []device.Item {
	var out []device.Item
	for page := 1; ; page++ {
		p := adminGet[httpapi.Page[device.Item]](t, e, fmt.Sprintf("/v2/dev/listbytype?page=%d&pageSize=200", page))
		out = append(out, p.List...)
		if len(p.List) == 0 || int64(len(out)) >= p.Total {
			return out
		}
	}
}

// sameKWh: equal but for the rounding to watt-hours of each of n summed figures.
func sameKWh(a, b float64, n int) bool {
	return math.Abs(a-b) <= 0.0005*float64(n+1)+1e-9*math.Abs(b)
}

func checkLifetimes(t *testing.T, e *apitest.Env, openings map[int64]float64, from, now time.Time) {
	list := allDevices(t, e)
	if len(list) < 100 {
		t.Fatalf("%d devices in the list", len(list))
	}
	// the export's lifetime column, by serial number
	exported := map[string]float64{}
	res := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/dev/export?format=csv", As: "admin", Headers: map[string]string{"Accept-Language": "en-US"}})
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(res.Body, "\ufeff"))).ReadAll()
	if err != nil || len(recs) != len(list)+1 {
		t.Fatalf("export: %d rows for %d devices (%v)", len(recs), len(list), err)
	}
	// the lifetime column found by its header, whatever columns come before it
	col := slices.IndexFunc(recs[0], func(h string) bool { return h == "Total (kWh)" })
	if col < 0 {
		t.Fatalf("export: no lifetime column in %q", recs[0])
	}
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatalf("export's lifetime %q: %v", r[col], err)
		}
		exported[r[1]] = v
	}
	tree := map[int64]float64{}
	byStation := map[int64]float64{}
	stations := adminGet[[]station.SimpleItem](t, e, "/v2/site/simplelist")
	top := map[int64]int64{}
	for _, s := range stations {
		top[s.ID] = s.ID
		if s.ParentID != 0 {
			top[s.ID] = s.ParentID
		}
	}
	for _, s := range stations {
		if s.ParentID != 0 {
			continue
		}
		for _, it := range adminGet[[]device.Item](t, e, fmt.Sprintf("/v2/dev/list/%d", s.ID)) {
			tree[it.ID] = it.TotalKWh
		}
	}
	hourFrom := url.QueryEscape(from.Add(-24 * time.Hour).Format(time.RFC3339))
	dayFrom := url.QueryEscape(from.AddDate(0, 0, -100).Format(time.RFC3339))
	to := url.QueryEscape(now.Add(48 * time.Hour).Format(time.RFC3339))
	withOpening := 0
	for _, it := range list {
		page := adminGet[device.Detail](t, e, fmt.Sprintf("/v2/dev/detail/%d", it.ID))
		if page.TotalKWh != it.TotalKWh || tree[it.ID] != it.TotalKWh || exported[it.SN] != it.TotalKWh {
			t.Fatalf("%s (%d): lifetime %.3f kWh in the list, %.3f on its page, %.3f in its station's tree, %.3f in the export",
				it.Name, it.ID, it.TotalKWh, page.TotalKWh, tree[it.ID], exported[it.SN])
		}
		if openings[it.ID] > 0 {
			withOpening++
		}
		for _, fromQ := range []string{hourFrom, dayFrom} {
			h := adminGet[device.History](t, e, fmt.Sprintf("/v2/dev/history/%d?metric=energy&from=%s&to=%s", it.ID, fromQ, to))
			sum := openings[it.ID]
			for _, p := range h.Points {
				sum += p[1]
			}
			if !sameKWh(sum, it.TotalKWh, len(h.Points)) {
				t.Fatalf("%s (%d): lifetime %.3f kWh in the list, its %s history's sum + opening %.3f", it.Name, it.ID, it.TotalKWh, h.Resolution, sum)
			}
		}
		if it.Type == "inverter" && it.ParentID == 0 {
			byStation[top[it.StationID]] += it.TotalKWh
		}
	}
	if withOpening < 100 {
		t.Fatalf("only %d devices have an opening", withOpening)
	}
	listed := map[int64]float64{}
	for _, s := range adminGet[httpapi.Page[station.ListItem]](t, e, "/v2/site/list?pageSize=100").List {
		listed[s.ID] = s.TotalEnergyKWh
	}
	for _, s := range stations {
		if s.ParentID != 0 {
			continue
		}
		d := adminGet[station.Detail](t, e, fmt.Sprintf("/v2/site/detail/%d", s.ID))
		sum := byStation[s.ID]
		if !sameKWh(d.KPIs.TotalEnergyKWh, sum, 200) || d.TotalEnergyKWh != d.KPIs.TotalEnergyKWh || listed[s.ID] != d.TotalEnergyKWh || sum == 0 {
			t.Fatalf("%s: lifetime %.3f kWh on its page (%.3f in its header), %.3f in the list, its devices' %.3f",
				s.Name, d.KPIs.TotalEnergyKWh, d.TotalEnergyKWh, listed[s.ID], sum)
		}
	}
}

// openingsOf is every device's opening counter (kWh), by device.
func openingsOf(t *testing.T, db *store.DB) map[int64]float64 {
	t.Helper()
	out := map[int64]float64{}
	rows, err := db.Query(context.Background(), "SELECT device_id, energy_kwh FROM device_openings")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var kwh float64
		if err := rows.Scan(&id, &kwh); err != nil {
			t.Fatal(err)
		}
		out[id] = kwh
	}
	return out
}
