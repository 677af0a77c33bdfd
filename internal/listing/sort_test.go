package listing

import (
	"net/http/httptest"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
)

// sortQuery is how a list declares its order: the keys and directions in the tags,
// needs_sort in its Check.
type sortQuery struct {
	Sort  string `query:"sort" enum:"a,b"`
	Order string `query:"order" enum:"asc,desc"`
	sort  Sort
}

func (q *sortQuery) Check(v *httpapi.Validator) { q.sort = SortOf(v, q.Sort, q.Order) }

func TestSortParams(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Sort
		bad  string // the field named in the 400, "" for none
	}{
		{"", Sort{Desc: true}, ""},
		{"sort=a", Sort{Key: "a", Desc: true}, ""},
		{"sort=b&order=asc", Sort{Key: "b"}, ""},
		{"sort=b&order=desc", Sort{Key: "b", Desc: true}, ""},
		{"sort=c", Sort{Desc: true}, "sort"},
		{"sort=a&order=up", Sort{Key: "a", Desc: true}, "order"},
		{"order=asc", Sort{Desc: true}, "order"},
	} {
		var q sortQuery
		err := httpapi.Bind(httptest.NewRequest("GET", "/x?"+tc.q, nil), &q)
		got := q.sort
		if got != tc.want || (err != nil) != (tc.bad != "") {
			t.Errorf("%q: %+v, %v; want %+v, a problem with %q", tc.q, got, err, tc.want, tc.bad)
		}
		if _, named := httpapi.AsError(err).Fields[tc.bad]; tc.bad != "" && err != nil && !named {
			t.Errorf("%q: the problem does not name %s: %v", tc.q, tc.bad, err)
		}
	}
}

func TestSortBy(t *testing.T) {
	type row struct {
		id int64
		v  float64
		ok bool
	}
	rows := []row{{5, 1, true}, {2, 0, false}, {3, 1, true}, {1, 2, true}, {4, 0, false}}
	val := func(r *row) (float64, bool) { return r.v, r.ok }
	id := func(r *row) int64 { return r.id }
	order := func(rs []row) []int64 {
		out := make([]int64, len(rs))
		for i, r := range rs {
			out[i] = r.id
		}
		return out
	}
	SortBy(rows, Sort{Key: "v"}, val, id)
	if got := order(rows); !equal(got, []int64{3, 5, 1, 2, 4}) {
		t.Errorf("ascending: %v", got)
	}
	SortBy(rows, Sort{Key: "v", Desc: true}, val, id)
	// the ascending order read backwards, rows without a figure still last
	if got := order(rows); !equal(got, []int64{1, 5, 3, 4, 2}) {
		t.Errorf("descending: %v", got)
	}
	if got := (Sort{Desc: true}).SQL("a.level", "a.id"); got != "a.level DESC, a.id DESC" {
		t.Errorf("SQL: %s", got)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
