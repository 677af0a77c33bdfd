package listing

import (
	"cmp"
	"slices"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Sort is a list's order as the caller asked for it: one column of the list's own
// whitelist (Key, "" for the list's usual order) and its direction. Every list ranks by
// one column and breaks ties by id in the same direction, so that pages never overlap and
// the descending order is the ascending one read backwards (one index serves both);
// rows without a value (a device without an array has no specific yield) come last
// either way.
type Sort struct {
	Key  string
	Desc bool
}

// SortOf is a list's order from its sort and order parameters, whose tags hold them to
// the list's keys (enum) and to asc or desc: desc by default (operators rank the largest
// first); an order without a sort is a mistake too (needs_sort, added to v).
func SortOf(v *httpapi.Validator, sort, order string) Sort {
	s := Sort{Key: sort, Desc: true}
	switch {
	case order == "":
	case sort == "":
		v.Add("order", "needs_sort")
	default:
		s.Desc = order != "asc"
	}
	return s
}

// SQL is the ORDER BY of column (an expression of the whitelist, never the caller's
// text) then id, both in the sort's direction.
func (s Sort) SQL(column, id string) string {
	dir := " ASC"
	if s.Desc {
		dir = " DESC"
	}
	return column + dir + ", " + id + dir
}

// SortBy orders items in place by value (ok false: the item has none, and comes last),
// ties broken by id, both in the sort's direction. The keys are read once per item.
func SortBy[T any](items []T, s Sort, value func(*T) (float64, bool), id func(*T) int64) {
	keys := make([]rankKey, len(items))
	for i := range items {
		v, ok := value(&items[i])
		keys[i] = rankKey{v, ok, id(&items[i]), i}
	}
	slices.SortFunc(keys, s.compare)
	sorted := make([]T, len(items))
	for i, k := range keys {
		sorted[i] = items[k.at]
	}
	copy(items, sorted)
}

// rankKey is what an item is ordered by, and where it is.
type rankKey struct {
	v  float64
	ok bool
	id int64
	at int
}

// compare is the sort's order of two keys: with a value before without, then by value,
// then by id, both in the sort's direction.
func (s Sort) compare(a, b rankKey) int {
	if a.ok != b.ok {
		if a.ok {
			return -1
		}
		return 1
	}
	c := 0
	if a.ok {
		c = cmp.Compare(a.v, b.v)
	}
	if c == 0 {
		c = cmp.Compare(a.id, b.id)
	}
	if s.Desc {
		return -c
	}
	return c
}
