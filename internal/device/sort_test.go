package device_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

type sortedRow struct {
	ID             int64    `json:"id"`
	SN             string   `json:"sn"`
	Type           string   `json:"type"`
	State          string   `json:"state"`
	CurrentPowerKW float64  `json:"currentPowerKw"`
	TodayKWh       float64  `json:"todayKwh"`
	TotalKWh       float64  `json:"totalKwh"`
	SpecificYield  *float64 `json:"specificYield"`
}

// rowValue is the figure a row ranks by under key (ok false: none, ranked last).
func rowValue(r sortedRow, key string) (float64, bool) {
	switch key {
	case "todayKwh":
		return r.TodayKWh, true
	case "currentPowerKw":
		return r.CurrentPowerKW, true
	case "totalKwh":
		return r.TotalKWh, true
	}
	if r.SpecificYield == nil {
		return 0, false
	}
	return *r.SpecificYield, true
}

// The property: on random fleets (the demo's, with devices added at random array sizes,
// many without figures, so ties abound) and random filters, every page of a sorted device
// list, put together, is the filtered rows sorted by brute force (the figure, rows
// without one last, ties by id, all in the asked direction), from the fleet state and
// without it.
func TestDeviceListSortsLikeBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		e.Fleet = demo.Fleet()
		ctx := context.Background()
		if err := demo.SeedFleet(ctx, db, e.Accounts, e.Fleet); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 36))
		seed := rng.Uint64()
		t.Logf("seed %d", seed)
		rng = rand.New(rand.NewPCG(seed, 6))
		var stations []int64
		rows, err := db.Query(ctx, "SELECT id FROM stations WHERE org_id = (SELECT org_id FROM users WHERE username = 'admin')")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			stations = append(stations, id)
		}
		rows.Close()
		for i := range 5 + rng.IntN(20) {
			typ, pos := "inverter", any(nil)
			if rng.IntN(3) == 0 {
				typ, pos = "meter", "grid"
			}
			body := deviceBody(stations[rng.IntN(len(stations))], fmt.Sprintf("SORT-%d-%d", seed%1000, i),
				"componentCount", []int{0, 10, 10, 100}[rng.IntN(4)], "type", typ, "meterPosition", pos)
			if r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/dev/add", As: "admin", Body: body}); r.Status != 200 {
				t.Fatalf("add: %d %s", r.Status, r.Body)
			}
		}
		now := time.Now().UTC().Truncate(time.Minute)
		e.Simulate(t, now.Add(-time.Duration(1+rng.IntN(6))*time.Hour), now)

		for range 12 {
			q := url.Values{}
			as := []string{"admin", "operator"}[rng.IntN(2)]
			if rng.IntN(3) == 0 {
				q.Set("type", []string{"inverter", "meter", "battery", "storage"}[rng.IntN(4)])
			}
			if rng.IntN(4) == 0 {
				q.Set("state", []string{"running", "standby", "fault", "offline"}[rng.IntN(4)])
			}
			if rng.IntN(4) == 0 {
				q.Set("name", []string{"inv", "0", "1", "sort", "-0"}[rng.IntN(5)])
			}
			if as == "admin" && rng.IntN(4) == 0 {
				q.Set("stationId", fmt.Sprint(stations[rng.IntN(len(stations))]))
			}
			key := []string{"todayKwh", "equivalentHours", "specificYield", "currentPowerKw", "totalKwh"}[rng.IntN(5)]
			desc := rng.IntN(2) == 0
			q.Set("sort", key)
			if !desc || rng.IntN(2) == 0 {
				q.Set("order", map[bool]string{true: "desc", false: "asc"}[desc])
			}
			size := 1 + rng.IntN(30)
			want := apitest.Sorted(t, e, "/v2/dev/listbytype", as, q, size, apitest.Rank[sortedRow]{
				Value: func(r sortedRow) (float64, bool) { return rowValue(r, key) },
				ID:    func(r sortedRow) int64 { return r.ID }, Desc: desc})
			// and without the fleet state: the list read in SQL, the figures from the roll-ups
			kept := e.Server.Figures.Fleet
			e.Server.Figures.Fleet = nil
			read := apitest.Pages[sortedRow](t, e, "/v2/dev/listbytype", as, q, size)
			e.Server.Figures.Fleet = kept
			for i := range want {
				if i >= len(read) || read[i].ID != want[i].ID {
					t.Fatalf("%s as %s, without the fleet state: row %d of %d is not device %d", q.Encode(), as, i, len(read), want[i].ID)
				}
			}
			// the export of the sorted list comes in the same order
			apitest.ExportInOrder(t, e, "/v2/dev/export", as, q, want, 1, func(r sortedRow) string { return r.SN })
		}
	})
}

func TestDeviceListSortIsValidated(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "unknown column", Method: "GET", URL: "/v2/dev/listbytype?sort=mood", As: "admin", Status: 400,
			Contains: []string{`"sort"`, "todayKwh, equivalentHours, specificYield, currentPowerKw, totalKwh"}},
		{Name: "unknown order", Method: "GET", URL: "/v2/dev/listbytype?sort=todayKwh&order=up", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "order without a column", Method: "GET", URL: "/v2/dev/listbytype?order=asc", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "export: unknown column", Method: "GET", URL: "/v2/dev/export?format=csv&sort=name", As: "admin", Status: 400, Contains: []string{`"sort"`}},
		{Name: "sorted", Method: "GET", URL: "/v2/dev/listbytype?sort=totalKwh&order=asc", As: "admin", Status: 200},
	})
}
