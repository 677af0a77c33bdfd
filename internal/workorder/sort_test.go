package workorder_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/workorder"
)

// sortRig is a server with the demo fleet on db whose work-order calls run at now.
type sortRig struct {
	e        *apitest.Env
	now      time.Time
	stations []struct{ id, org, parent int64 }
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
	(&workorder.Service{DB: db, Blobs: blob.NewDB(db), Now: func() time.Time { return now }}).Routes(api)
	*e.Server.API = *api
	r := &sortRig{e: e, now: now}
	rows, err := db.Query(ctx, "SELECT id, org_id, COALESCE(parent_id, 0) FROM stations ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s struct{ id, org, parent int64 }
		if err := rows.Scan(&s.id, &s.org, &s.parent); err != nil {
			t.Fatal(err)
		}
		r.stations = append(r.stations, s)
	}
	return r
}

// seed stores n orders at random over both organisations' stations: every status and
// priority, planned ends on a coarse grid around now (so that they tie often), submitted,
// assigned to and copied to the organisation's users at random.
func (r *sortRig) seed(t *testing.T, rng *rand.Rand, n int) {
	t.Helper()
	ctx := context.Background()
	acc := r.e.Accounts
	titles := []string{"Fence repair", "Inverter trip", "Clean panels", "Replace fuse", "Meter check"}
	for i := range n {
		st := r.stations[rng.IntN(len(r.stations))]
		users, dept := []int64{acc.AdminID, acc.OperatorID}, acc.OpsDeptID
		if st.org == acc.OtherOrgID {
			users, dept = []int64{acc.OtherID}, acc.OtherDeptID
		}
		status := 1 + rng.IntN(5)
		created := r.now.Add(-time.Duration(rng.IntN(24*20)) * time.Hour)
		start := created.Add(time.Duration(rng.IntN(48)) * time.Hour)
		end := r.now.Add(time.Duration(rng.IntN(40)-20) * 12 * time.Hour)
		if !end.After(start) {
			end = start.Add(12 * time.Hour)
		}
		var aStart, aEnd, assignee any
		if status >= workorder.Executing && status != workorder.Rejected {
			aStart = start.UnixMilli()
		}
		if status == workorder.Finished {
			aEnd = end.Add(time.Duration(rng.IntN(5)-2) * time.Hour).UnixMilli()
		}
		if rng.IntN(3) > 0 {
			assignee = users[rng.IntN(len(users))]
		}
		id, err := r.e.DB.Insert(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, status, priority, submitter_id,
			assignee_user_id, assignee_dept_id, planned_start, planned_end, actual_start, actual_end, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			st.org, st.id, fmt.Sprintf("WO-SORT-%d", i), titles[rng.IntN(len(titles))], status, 1+rng.IntN(4),
			users[rng.IntN(len(users))], assignee, dept, start.UnixMilli(), end.UnixMilli(), aStart, aEnd,
			created.UnixMilli(), created.UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(4) == 0 {
			if _, err := r.e.DB.Exec(ctx, "INSERT INTO work_order_cc (order_id, user_id) VALUES (?, ?)", id, users[len(users)-1]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

type sortedOrder struct {
	ID         int64     `json:"id"`
	Number     string    `json:"number"`
	Status     int       `json:"status"`
	Priority   int       `json:"priority"`
	PlannedEnd time.Time `json:"plannedEnd"`
}

// orderRank is the brute force of sort=key: the priority code, the planned end, or the
// status's place in the workflow.
func orderRank(key string, desc bool) apitest.Rank[sortedOrder] {
	workflow := map[int]float64{}
	for i, s := range []int{workorder.PendingAccept, workorder.PendingProcess, workorder.Executing, workorder.Finished, workorder.Rejected} {
		workflow[s] = float64(i)
	}
	urgency := map[int]float64{}
	for i, p := range []int{1, 2, 3, 4} { // low, normal, urgent, very urgent
		urgency[p] = float64(i)
	}
	return apitest.Rank[sortedOrder]{Desc: desc, ID: func(o sortedOrder) int64 { return o.ID },
		Value: func(o sortedOrder) (float64, bool) {
			switch key {
			case "priority":
				return urgency[o.Priority], true
			case "status":
				return workflow[o.Status], true
			}
			return float64(o.PlannedEnd.UnixMilli()), true
		}}
}

// The property: on random orders (many tied) and random filters, every page of a sorted
// work-order list, put together, is the filtered list sorted by brute force (the column,
// ties by id, both in the asked direction), and its export comes in the same order.
func TestWorkOrderListSortsLikeBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		seed := rand.Uint64()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 206))
		r := newSortRig(t, db, time.Now().UTC().Truncate(time.Hour))
		r.seed(t, rng, 60+rng.IntN(120))
		for range 15 {
			q := url.Values{}
			as := []string{"admin", "admin", "operator", "other"}[rng.IntN(4)]
			if rng.IntN(3) == 0 {
				q.Set("status", fmt.Sprint(1+rng.IntN(5)))
			}
			if rng.IntN(4) == 0 {
				q.Set("priority", fmt.Sprint(1+rng.IntN(4)))
			}
			if rng.IntN(4) == 0 {
				q.Set("timeoutStatus", fmt.Sprint(rng.IntN(2)))
			}
			if rng.IntN(4) == 0 {
				q.Set("mine", []string{"started", "copied", "assigned"}[rng.IntN(3)])
			}
			if rng.IntN(5) == 0 {
				q.Set("q", []string{"fence", "TRIP", "sort-1", "e"}[rng.IntN(4)])
			}
			if rng.IntN(5) == 0 {
				q.Set("from", r.now.Add(-time.Duration(rng.IntN(20*24))*time.Hour).Format(time.RFC3339))
			}
			if as == "admin" && rng.IntN(4) == 0 {
				for _, st := range r.stations {
					if st.parent == 0 && st.org == r.e.Accounts.OrgID && rng.IntN(3) == 0 {
						q.Set("stationId", fmt.Sprint(st.id))
						break
					}
				}
			}
			key := workorder.Sorts[rng.IntN(len(workorder.Sorts))]
			desc := rng.IntN(2) == 0
			q.Set("sort", key)
			if !desc || rng.IntN(2) == 0 {
				q.Set("order", map[bool]string{true: "desc", false: "asc"}[desc])
			}
			want := apitest.Sorted(t, r.e, "/v2/workorder/list", as, q, 1+rng.IntN(20), orderRank(key, desc))
			apitest.ExportInOrder(t, r.e, "/v2/workorder/export", as, q, want, 0, func(o sortedOrder) string { return o.Number })
		}
	})
}

func TestWorkOrderListSortIsValidated(t *testing.T) {
	e := apitest.New(t)
	e.Run(t, []apitest.Scenario{
		{Name: "unknown column", Method: "GET", URL: "/v2/workorder/list?sort=title", As: "admin", Status: 400,
			Contains: []string{`"sort"`, "priority, due, status"}},
		{Name: "unknown order", Method: "GET", URL: "/v2/workorder/list?sort=due&order=newest", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "order without a column", Method: "GET", URL: "/v2/workorder/list?order=asc", As: "admin", Status: 400, Contains: []string{`"order"`}},
		{Name: "export: unknown column", Method: "GET", URL: "/v2/workorder/export?format=csv&sort=o.id", As: "admin", Status: 400, Contains: []string{`"sort"`}},
		{Name: "sorted", Method: "GET", URL: "/v2/workorder/list?sort=status&order=asc", As: "admin", Status: 200},
	})
}

// Each sort of the work-order list reads its page's ids in the order of its index
// (migration 0206): the sorted list call's page query is explained (EXPLAIN QUERY PLAN on
// SQLite; EXPLAIN with sequential scans priced out on PostgreSQL) and must walk the sort's
// index; the only sort is of the page's own rows, once they are looked up by id.
func TestWorkOrderListSortsInIndexOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newSortRig(t, db, time.Now().UTC().Truncate(time.Hour))
		r.seed(t, rand.New(rand.NewPCG(1, 2)), 60)
		indexes := map[string]string{"priority": "work_orders_org_priority", "due": "work_orders_org_due", "status": "work_orders_org_status"}
		for _, key := range workorder.Sorts {
			for _, order := range []string{"asc", "desc"} {
				for _, as := range []string{"admin", "operator"} {
					u := "/v2/workorder/list?pageSize=5&page=2&sort=" + key + "&order=" + order
					plan := apitest.ExplainOrdered(t, r.e, db, u, as)
					t.Logf("%s %s as %s:\n%s", key, order, as, plan)
					if !regexp.MustCompile(`\b` + indexes[key] + `\b`).MatchString(plan) {
						t.Errorf("%s as %s does not walk %s:\n%s", u, as, indexes[key], plan)
					}
					sorts := strings.Count(plan, "TEMP B-TREE FOR ORDER BY")
					if db.Dialect == store.Postgres {
						sorts = strings.Count(plan, "Sort Key:")
					}
					if sorts > 1 {
						t.Errorf("%s as %s sorts %d times (the page only, once):\n%s", u, as, sorts, plan)
					}
				}
			}
		}
	})
}
