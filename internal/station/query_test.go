package station_test

import (
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
)

// The list query's enums are the lists the station keeps.
func TestListQueryEnums(t *testing.T) {
	for name, want := range map[string][]string{"stationType": station.StationTypes, "systemType": station.SystemTypes, "sort": station.Sorts} {
		if got := httpapi.Enum(station.ListQuery{}, name); !slices.Equal(got, want) {
			t.Errorf("%s: the query takes %v, the stations know %v", name, got, want)
		}
	}
}
