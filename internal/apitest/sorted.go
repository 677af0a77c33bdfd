package apitest

import (
	"cmp"
	"encoding/csv"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Rank is how a brute force sorts a list's rows: by Value (ok false: the row has none and
// comes last whatever the direction), ties by ID, both in the direction asked.
type Rank[T any] struct {
	Value func(T) (float64, bool)
	ID    func(T) int64
	Desc  bool
}

// Sort sorts rows by brute force.
func (r Rank[T]) Sort(rows []T) []T {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b T) int {
		va, oka := r.Value(a)
		vb, okb := r.Value(b)
		if oka != okb {
			if oka {
				return -1
			}
			return 1
		}
		c := 0
		if oka {
			c = cmp.Compare(va, vb)
		}
		if c == 0 {
			c = cmp.Compare(r.ID(a), r.ID(b))
		}
		if r.Desc {
			return -c
		}
		return c
	})
	return out
}

// Sorted checks a sorted list call against a brute force: q holds the filters and the
// sort (sort, order); the list is read whole without the sort (the filtered rows), then
// with it, size rows a page, and the pages put together must be the filtered rows as rank
// sorts them. It returns them.
func Sorted[T any](t testing.TB, e *Env, path, as string, q url.Values, size int, rank Rank[T]) []T {
	t.Helper()
	plain := maps.Clone(q)
	delete(plain, "sort")
	delete(plain, "order")
	want := rank.Sort(Pages[T](t, e, path, as, plain, 200))
	got := Pages[T](t, e, path, as, maps.Clone(q), size)
	if len(got) != len(want) {
		t.Fatalf("%s?%s as %s: %d rows sorted, %d filtered", path, q.Encode(), as, len(got), len(want))
	}
	for i := range want {
		if rank.ID(got[i]) != rank.ID(want[i]) {
			t.Fatalf("%s?%s as %s (pages of %d): row %d is %d, the brute force ranks %d there (%d rows)",
				path, q.Encode(), as, size, i, rank.ID(got[i]), rank.ID(want[i]), len(want))
		}
	}
	return want
}

// ExportInOrder downloads the CSV export at path with the list's query q (paging dropped)
// and checks that its rows are want's, in order: column col of each record is cell of the
// row at its place.
func ExportInOrder[T any](t testing.TB, e *Env, path, as string, q url.Values, want []T, col int, cell func(T) string) {
	t.Helper()
	q = maps.Clone(q)
	q.Del("page")
	q.Del("pageSize")
	q.Set("format", "csv")
	r := e.Do(t, Scenario{Method: "GET", URL: path + "?" + q.Encode(), As: as})
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(r.Body, "\ufeff"))).ReadAll()
	if r.Status != 200 || err != nil || len(recs) != len(want)+1 {
		t.Fatalf("export %s: %d, %v, %d records for %d rows", q.Encode(), r.Status, err, len(recs), len(want))
	}
	for i, rec := range recs[1:] {
		if rec[col] != cell(want[i]) {
			t.Fatalf("export %s: row %d is %s, the list has %s", q.Encode(), i, rec[col], cell(want[i]))
		}
	}
}

// ExplainOrdered calls url as the user as and explains the one query of the call that
// orders rows (a list's page), as storetest.Explain does: the plan. A call that answers
// other than 200 or orders in more or fewer than one query fails the test.
func ExplainOrdered(t testing.TB, e *Env, db *store.DB, url, as string) string {
	t.Helper()
	var mu sync.Mutex
	var page []string
	var args [][]any
	db.Trace = func(q string, a []any) {
		if strings.Contains(q, "ORDER BY") {
			mu.Lock()
			page, args = append(page, q), append(args, a)
			mu.Unlock()
		}
	}
	res := e.Do(t, Scenario{Method: "GET", URL: url, As: as})
	db.Trace = nil
	if res.Status != 200 || len(page) != 1 {
		t.Fatalf("%s as %s: %d, %d ordered queries: %s", url, as, res.Status, len(page), res.Body)
	}
	return storetest.Explain(t, db, page[0], args[0])
}
