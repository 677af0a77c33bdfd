package device

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fakeKept is a kept fleet of a few devices whose figures and mark the test moves.
type fakeKept struct {
	Telemetry
	devs   []*Device
	latest map[int64]*telemetry.Sample
	mark   uint64
	reads  int
}

func (k *fakeKept) EachDeviceFigures(_ context.Context, _ []int64, fn func(*Device, *telemetry.Sample, Energy)) (bool, error) {
	k.reads++
	for _, d := range k.devs {
		fn(d, k.latest[d.ID], Energy{})
	}
	return true, nil
}

func (k *fakeKept) RankingMark(context.Context) ([3]uint64, bool, error) {
	return [3]uint64{1, k.mark, 0}, true, nil
}

// A kept ranking is made again when a figure changes (the mark moves) and when time alone
// changes a row (a sample growing old turns its device offline, and its power out of the
// count), and is not made again otherwise.
func TestKeptRankingFollowsChangesAndTime(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 1, 0, 0, time.UTC)
	k := &fakeKept{latest: map[int64]*telemetry.Sample{}}
	for i := int64(1); i <= 3; i++ {
		k.devs = append(k.devs, &Device{ID: i, Name: "INV", SN: "SN", Type: "inverter"})
		k.latest[i] = &telemetry.Sample{DeviceID: i, Time: now.Add(-time.Duration(i) * time.Minute), PowerKW: float64(10 * i), Status: telemetry.StatusRunning}
	}
	s := &Service{Now: func() time.Time { return now }}
	order := func(state string) []int64 {
		t.Helper()
		rows, nok, ok, err := s.rankingOf(context.Background(), k, "currentPowerKw", []int64{7})
		if err != nil || !ok {
			t.Fatalf("rankingOf: %v %v", ok, err)
		}
		devs, _ := rankedPage(rows, nok, Filter{}, state, listing.Sort{Key: "currentPowerKw", Desc: true}, 1, 10)
		var out []int64
		for _, d := range devs {
			out = append(out, d.ID)
		}
		return out
	}
	same := func(a, b []int64) bool {
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
	if got := order(""); !same(got, []int64{3, 2, 1}) || k.reads != 1 {
		t.Fatalf("first ranking %v (%d reads)", got, k.reads)
	}
	if order(""); k.reads != 1 {
		t.Fatalf("nothing changed, yet the ranking was made again (%d reads)", k.reads)
	}
	// a figure changes: device 1 now leads
	k.latest[1] = &telemetry.Sample{DeviceID: 1, Time: now, PowerKW: 99, Status: telemetry.StatusRunning}
	k.mark++
	if got := order(""); !same(got, []int64{1, 3, 2}) || k.reads != 2 {
		t.Fatalf("after a change %v (%d reads)", got, k.reads)
	}
	// time alone: device 3's sample (3 minutes old) grows older than OfflineAfter
	now = now.Add(OfflineAfter - 4*time.Minute) // device 3's sample is 14 minutes old, device 2's 13
	if got := order("offline"); len(got) != 0 {
		t.Fatalf("offline before any sample is old: %v", got)
	}
	now = now.Add(90 * time.Second) // 15.5 and 14.5 minutes
	if got := order("offline"); !same(got, []int64{3}) || k.reads != 3 {
		t.Fatalf("device 3's sample grew old: offline %v (%d reads)", got, k.reads)
	}
	if got := order(""); !same(got, []int64{1, 2, 3}) {
		t.Fatalf("an offline device counts no power: %v", got)
	}
}
