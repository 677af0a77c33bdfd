package workorder_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/workorder"
)

// The list query's enums are the lists the orders keep.
func TestListQueryEnums(t *testing.T) {
	ints := func(xs []int) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = strconv.Itoa(x)
		}
		return out
	}
	for name, want := range map[string][]string{
		"status":   ints(workorder.Statuses),
		"priority": ints(workorder.Priorities),
		"mine":     {workorder.MineStarted, workorder.MineCopied, workorder.MineAssigned},
	} {
		if got := httpapi.Enum(workorder.ListQuery{}, name); !slices.Equal(got, want) {
			t.Errorf("%s: the query takes %v, the orders know %v", name, got, want)
		}
	}
}
