package monitor

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/helio-energy/helio/internal/station"
)

// The project ranking's selection of the first stations equals a stable sort of them all
// (by alarms today, then name), cut to the limit: ties and equal names included.
func TestTopProjectsAsAStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		n := rng.IntN(40)
		rs := make([]*station.Station, n)
		counts := map[int64]AlarmCount{}
		for i := range rs {
			rs[i] = &station.Station{ID: int64(i + 1), Name: fmt.Sprintf("S%d", rng.IntN(6))}
			if k := rng.IntN(4); k > 0 {
				counts[rs[i].ID] = AlarmCount{Total: k, Processed: rng.IntN(k + 1)}
			}
		}
		limit := 1 + rng.IntN(12)
		want := make([]ProjectRank, 0, n)
		for _, st := range rs {
			c := counts[st.ID]
			p := ProjectRank{StationID: st.ID, Name: st.Name, FaultToday: c.Total, FaultProcessed: c.Processed}
			if c.Total > 0 {
				p.FaultProcessRatio = r3(float64(c.Processed) / float64(c.Total) * 100)
			}
			want = append(want, p)
		}
		sort.SliceStable(want, func(i, j int) bool {
			if want[i].FaultToday != want[j].FaultToday {
				return want[i].FaultToday > want[j].FaultToday
			}
			return want[i].Name < want[j].Name
		})
		want = want[:min(limit, len(want))]
		for i := range want {
			want[i].Rank = i + 1
		}
		if got := topProjects(rs, func(i int) AlarmCount { return counts[rs[i].ID] }, limit); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d, limit %d:\ngot  %+v\nwant %+v", round, limit, got, want)
		}
	}
}
