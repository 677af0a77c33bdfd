package station_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

type stationRow struct {
	ID                   int64   `json:"id"`
	Name                 string  `json:"name"`
	DailyEnergyKWh       float64 `json:"dailyEnergyKwh"`
	DailyEquivalentHours float64 `json:"dailyEquivalentHours"`
	CurrentPowerKW       float64 `json:"currentPowerKw"`
	AlarmExist           int     `json:"alarmExist"`
	PerformanceRatio     float64 `json:"performanceRatio"`
}

func (r stationRow) value(key string) float64 {
	switch key {
	case "dailyEquivalentHours":
		return r.DailyEquivalentHours
	case "currentPowerKw":
		return r.CurrentPowerKW
	case "alarmExist":
		return float64(r.AlarmExist)
	case "performanceRatio":
		return r.PerformanceRatio
	}
	return r.DailyEnergyKWh
}

// The property: for random filters on the demo fleet with a random stretch of history,
// the pages of a sorted station list, put together, are the filtered rows sorted by
// brute force (the figure, ties by id, both in the asked direction), and the export of the
// sorted list comes in the same order.
func TestStationListSortsLikeBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := apitest.NewOn(t, db)
		e.Fleet = demo.Fleet()
		if err := demo.SeedFleet(context.Background(), db, e.Accounts, e.Fleet); err != nil {
			t.Fatal(err)
		}
		seed := rand.Uint64()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 36))
		now := time.Now().UTC().Truncate(time.Minute)
		// a day and more: yesterday's PR is measured in every zone
		e.Simulate(t, now.Add(-time.Duration(25+rng.IntN(8))*time.Hour), now)
		for range 12 {
			q := url.Values{}
			as := []string{"admin", "operator"}[rng.IntN(2)]
			if rng.IntN(2) == 0 {
				q.Set("parentId", "-1")
			}
			if rng.IntN(4) == 0 {
				q.Set("alarmStatus", fmt.Sprint(rng.IntN(2)))
			}
			if rng.IntN(4) == 0 {
				q.Set("communicationStatus", fmt.Sprint(1+rng.IntN(4)))
			}
			if rng.IntN(4) == 0 {
				q.Set("name", []string{"a", "solar", "·", "farm"}[rng.IntN(4)])
			}
			key := station.Sorts[rng.IntN(len(station.Sorts))]
			desc := rng.IntN(2) == 0
			q.Set("sort", key)
			q.Set("order", map[bool]string{true: "desc", false: "asc"}[desc])
			want := apitest.Sorted(t, e, "/v2/site/list", as, q, 1+rng.IntN(6), apitest.Rank[stationRow]{
				Value: func(r stationRow) (float64, bool) { return r.value(key), true },
				ID:    func(r stationRow) int64 { return r.ID }, Desc: desc})
			apitest.ExportInOrder(t, e, "/v2/site/export", as, q, want, 0, func(r stationRow) string { return r.Name })
		}
	})
}

func TestStationListSortIsValidated(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "unknown column", Method: "GET", URL: "/v2/site/list?sort=name", As: "admin", Status: 400,
			Contains: []string{`"sort"`, strings.Join(station.Sorts, ", ")}},
		{Name: "order without a column", Method: "GET", URL: "/v2/site/list?order=desc", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "export: unknown order", Method: "GET", URL: "/v2/site/export?format=csv&sort=currentPowerKw&order=down", As: "admin", Status: 400, Contains: []string{`"order"`}},
	})
}
