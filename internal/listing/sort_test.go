package listing

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
)

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
		{"sort=c", Sort{Key: "c", Desc: true}, "sort"},
		{"sort=a&order=up", Sort{Key: "a", Desc: true}, "order"},
		{"order=asc", Sort{Desc: true}, "order"},
	} {
		q, _ := url.ParseQuery(tc.q)
		p := &Params{Q: q}
		got := p.Sort("a", "b")
		err := p.Err()
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

// The first n a Top keeps are SortBy's first n, for any n, on rows full of ties and of
// rows without a figure, in both directions.
func TestTopIsSortByCut(t *testing.T) {
	type row struct {
		id int64
		v  float64
		ok bool
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for range 300 {
		rows := make([]row, rng.IntN(60))
		for i := range rows {
			rows[i] = row{id: int64(rng.IntN(1000)), v: float64(rng.IntN(5)), ok: rng.IntN(4) > 0}
		}
		s := Sort{Key: "v", Desc: rng.IntN(2) == 0}
		n := rng.IntN(len(rows) + 3)
		top := NewTop[row](s, n)
		for _, r := range rows {
			top.Add(r, r.v, r.ok, r.id)
		}
		want := slices.Clone(rows)
		SortBy(want, s, func(r *row) (float64, bool) { return r.v, r.ok }, func(r *row) int64 { return r.id })
		if n > 0 {
			want = want[:min(n, len(want))]
		}
		got := top.Sorted()
		if top.Added() != len(rows) || !slices.EqualFunc(got, want, func(a, b row) bool { return a.id == b.id && a.ok == b.ok && (!a.ok || a.v == b.v) }) {
			t.Fatalf("n %d of %d, %+v: got %v, want %v", n, len(rows), s, got, want)
		}
	}
}
