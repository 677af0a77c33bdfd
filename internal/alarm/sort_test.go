package alarm_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// sortRig is a server with the demo fleet on db whose alarm calls run at now, and the
// stations and devices the random alarms go to.
type sortRig struct {
	e        *apitest.Env
	now      time.Time
	stations []struct{ id, org, parent int64 }
	devices  map[int64][]int64 // by station
}

func newSortRig(t *testing.T, db *store.DB, now time.Time) *sortRig {
	t.Helper()
	ctx := context.Background()
	e := apitest.NewOn(t, db)
	e.Fleet = demo.Fleet()
	if err := demo.SeedFleet(ctx, db, e.Accounts, e.Fleet); err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(e.Server.Sessions.Authenticate)
	e.Server.Auth.Routes(api)
	(&alarm.Service{Engine: alarm.NewEngine(db, alarm.Options{Now: func() time.Time { return now }})}).Routes(api)
	*e.Server.API = *api
	r := &sortRig{e: e, now: now, devices: map[int64][]int64{}}
	rows, err := db.Query(ctx, "SELECT id, org_id, COALESCE(parent_id, 0) FROM stations ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s struct{ id, org, parent int64 }
		if err := rows.Scan(&s.id, &s.org, &s.parent); err != nil {
			t.Fatal(err)
		}
		r.stations = append(r.stations, s)
	}
	rows.Close()
	rows, err = db.Query(ctx, "SELECT id, station_id FROM devices ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, st int64
		if err := rows.Scan(&id, &st); err != nil {
			t.Fatal(err)
		}
		r.devices[st] = append(r.devices[st], id)
	}
	rows.Close()
	return r
}

// seed stores n alarms at random over both organisations' stations: started on a coarse
// grid of the last three days (so that times, levels and durations tie often, and an
// occurring alarm can last exactly as long as a recovered one), half of them recovered.
func (r *sortRig) seed(t *testing.T, rng *rand.Rand, n int) {
	t.Helper()
	ctx := context.Background()
	types := []string{"inverter", "battery", "storage", "meter", "collector"}
	for range n {
		st := r.stations[rng.IntN(len(r.stations))]
		var dev any
		if devs := r.devices[st.id]; len(devs) > 0 && rng.IntN(5) > 0 {
			dev = devs[rng.IntN(len(devs))]
		}
		spec := alarm.Specs[rng.IntN(len(alarm.Specs))]
		start := r.now.Add(-time.Duration(rng.IntN(300)) * 15 * time.Minute)
		occurred := start.Add(time.Duration(rng.IntN(3)) * 5 * time.Minute)
		status, recovered := 1, any(nil)
		if rng.IntN(2) == 0 {
			end := start.Add(time.Duration(rng.IntN(40)) * 15 * time.Minute)
			if end.After(r.now) {
				end = r.now
			}
			status, recovered = 2, end.UnixMilli()
		}
		if _, err := r.e.DB.Exec(ctx, `INSERT INTO alarms (org_id, station_id, device_id, device_sn, device_name, device_type, rule_key,
			alarm_type, level, status, deal_status, description, start_at, occurred_at, last_alarm_at, recovered_at, updated_at)
			VALUES (?, ?, ?, 'SN', 'device', ?, ?, ?, ?, ?, ?, 'sorted', ?, ?, ?, ?, ?)`,
			st.org, st.id, dev, types[rng.IntN(len(types))], spec.Key, spec.Type, rng.IntN(3), status, rng.IntN(2),
			start.UnixMilli(), occurred.UnixMilli(), occurred.UnixMilli(), recovered, r.now.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
}

type sortedAlarm struct {
	ID           int64      `json:"id"`
	Level        int        `json:"level"`
	OccurTime    time.Time  `json:"occurTime"`
	StartTime    time.Time  `json:"startTime"`
	RecoveryTime *time.Time `json:"recoveryTime"`
}

// alarmRank is the brute force of sort=key: the occurrence instant, the level, or the
// recovery (now while occurring) less the start, in milliseconds.
func alarmRank(key string, desc bool, now time.Time) apitest.Rank[sortedAlarm] {
	return apitest.Rank[sortedAlarm]{Desc: desc, ID: func(a sortedAlarm) int64 { return a.ID },
		Value: func(a sortedAlarm) (float64, bool) {
			switch key {
			case "time":
				return float64(a.OccurTime.UnixMilli()), true
			case "level":
				return float64(a.Level), true
			}
			end := now
			if a.RecoveryTime != nil {
				end = *a.RecoveryTime
			}
			return float64(end.Sub(a.StartTime).Milliseconds()), true
		}}
}

// The property: on random alarms (many tied) and random filters, every page of a sorted
// alarm list (listbysite, listbydate, listbydev), put together, is the filtered list sorted by brute force
// (the column, ties by id, both in the asked direction), and its export comes in the same
// order.
func TestAlarmListSortsLikeBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		seed := rand.Uint64()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 206))
		r := newSortRig(t, db, time.Now().UTC().Truncate(time.Minute))
		r.seed(t, rng, 60+rng.IntN(120))
		for range 15 {
			q := url.Values{}
			as := []string{"admin", "admin", "operator", "other"}[rng.IntN(4)]
			path, export := "/v2/warn/listbysite", "/v2/warn/export"
			switch rng.IntN(5) {
			case 0:
				path = "/v2/warn/listbydate"
				q.Set("date", r.now.Add(-time.Duration(rng.IntN(3))*24*time.Hour).Format("2006-01-02"))
			case 1:
				// a device of a station the caller sees whatever its grants
				org := map[bool]int64{true: r.e.Accounts.OtherOrgID, false: r.e.Accounts.OrgID}[as == "other"]
				st := r.stations[rng.IntN(len(r.stations))]
				if devs := r.devices[st.id]; len(devs) > 0 && st.org == org && as != "operator" {
					path = "/v2/warn/listbydev"
					q.Set("deviceId", fmt.Sprint(devs[rng.IntN(len(devs))]))
				}
			}
			if rng.IntN(3) == 0 {
				q.Set("alarmStatus", fmt.Sprint(rng.IntN(3)))
			}
			if rng.IntN(4) == 0 {
				q.Set("dealStatus", fmt.Sprint(rng.IntN(2)))
			}
			if rng.IntN(4) == 0 {
				q.Set("level", fmt.Sprint(rng.IntN(3)))
			}
			if rng.IntN(5) == 0 {
				q.Set("type", fmt.Sprint(1+rng.IntN(2)))
			}
			if rng.IntN(4) == 0 {
				q.Set("from", r.now.Add(-time.Duration(rng.IntN(72))*time.Hour).Format(time.RFC3339))
			}
			if as == "admin" && path == "/v2/warn/listbysite" && rng.IntN(4) == 0 {
				for _, st := range r.stations {
					if st.parent == 0 && st.org == r.e.Accounts.OrgID && rng.IntN(3) == 0 {
						q.Set("stationId", fmt.Sprint(st.id))
						break
					}
				}
			}
			key := alarm.Sorts[rng.IntN(len(alarm.Sorts))]
			desc := rng.IntN(2) == 0
			q.Set("sort", key)
			if !desc || rng.IntN(2) == 0 {
				q.Set("order", map[bool]string{true: "desc", false: "asc"}[desc])
			}
			want := apitest.Sorted(t, r.e, path, as, q, 1+rng.IntN(20), alarmRank(key, desc, r.now))
			apitest.ExportInOrder(t, r.e, export, as, q, want, 0, func(a sortedAlarm) string { return strconv.FormatInt(a.ID, 10) })
		}
	})
}

func TestAlarmListSortIsValidated(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "unknown column", Method: "GET", URL: "/v2/warn/listbysite?sort=station", As: "admin", Status: 400,
			Contains: []string{`"sort"`, "time, level, duration"}},
		{Name: "unknown order", Method: "GET", URL: "/v2/warn/listbydate?date=2026-05-01&sort=level&order=up", As: "admin", Status: 400,
			Contains: []string{`"order"`}},
		{Name: "order without a column", Method: "GET", URL: "/v2/warn/listbysite?order=asc", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "export: unknown column", Method: "GET", URL: "/v2/warn/export?format=csv&sort=a.id", As: "admin", Status: 400, Contains: []string{`"sort"`}},
		{Name: "sorted", Method: "GET", URL: "/v2/warn/listbysite?sort=duration&order=asc", As: "admin", Status: 200},
	})
}

// Each sort of the alarm list reads its page in the order of its index (migration 0206):
// every query of the sorted list calls is explained (EXPLAIN QUERY PLAN on SQLite; EXPLAIN
// with sequential scans priced out on PostgreSQL) and must walk the sort's index, never
// sorting the alarms: only sort=duration sorts, the heads of its two walks.
func TestAlarmListSortsInIndexOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newSortRig(t, db, time.Now().UTC().Truncate(time.Minute))
		r.seed(t, rand.New(rand.NewPCG(1, 2)), 50)
		indexes := map[string][]string{"time": {"alarms_org_occurred"}, "level": {"alarms_org_level"},
			"duration": {"alarms_org_recovered_duration", "alarms_org_occurring_start"}}
		for _, key := range alarm.Sorts {
			for _, order := range []string{"asc", "desc"} {
				for _, as := range []string{"admin", "operator"} {
					u := "/v2/warn/listbysite?pageSize=20&page=2&sort=" + key + "&order=" + order
					plan := apitest.ExplainOrdered(t, r.e, db, u, as)
					t.Logf("%s %s as %s:\n%s", key, order, as, plan)
					for _, ix := range indexes[key] {
						if !regexp.MustCompile(`\b` + ix + `\b`).MatchString(plan) {
							t.Errorf("%s as %s does not walk %s:\n%s", u, as, ix, plan)
						}
					}
					// sort=duration merges the walks' heads (and PostgreSQL may sort their ids to
					// look them up): those are the only sorts
					sorts, allowed := strings.Count(plan, "TEMP B-TREE FOR ORDER BY"), map[bool]int{true: 1, false: 0}[key == "duration"]
					if db.Dialect == store.Postgres {
						sorts, allowed = strings.Count(plan, "Sort Key:"), map[bool]int{true: 2, false: 0}[key == "duration"]
					}
					if sorts > allowed {
						t.Errorf("%s as %s sorts %d times (at most %d):\n%s", u, as, sorts, allowed, plan)
					}
				}
			}
		}
	})
}
