package fleet

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The kept device rows answer as device.List in SQL, row for row and in its order (the
// stations' names, then type, name and id), through renames to one name, moves, edits
// and deletions, on both databases.
func TestKeptDevicesAnswerAsList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := newRig(t, db, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
		p := &httpapi.Principal{OrgID: r.org, StationAuthority: "all", Role: "user"}
		rng := rand.New(rand.NewPCG(7, 8))
		check := func(when string) {
			t.Helper()
			sets := [][]int64{r.stations, {}}
			for _, id := range r.stations {
				sets = append(sets, []int64{id})
			}
			for range 10 {
				var set []int64
				for _, i := range rng.Perm(len(r.stations))[:1+rng.IntN(len(r.stations))] {
					set = append(set, r.stations[i])
				}
				sets = append(sets, set)
			}
			for _, set := range sets {
				got, err := r.s.Devices(ctx, set)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := device.List(ctx, db, p, device.Filter{StationIDs: set})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%s, stations %v: %d kept devices, %d listed", when, set, len(got), len(want))
				}
				for i := range got {
					if !reflect.DeepEqual(*got[i], *want[i]) {
						t.Fatalf("%s, stations %v, row %d:\nkept   %+v\nlisted %+v", when, set, i, *got[i], *want[i])
					}
				}
				checkEachDevice(t, r.s, set, got)
			}
		}
		check("as built")

		// one device by id, as device.Get reads it, for its organisation and another
		other := &httpapi.Principal{OrgID: r.org + 1, StationAuthority: "all", Role: "user"}
		for _, id := range append(append([]int64{}, r.devices...), 999_999) {
			for _, who := range []*httpapi.Principal{p, other} {
				got, err := r.s.Device(ctx, who, id)
				if err != nil {
					t.Fatal(err)
				}
				want, err := device.Get(ctx, db, who, id)
				if errors.Is(err, store.ErrNotFound) {
					if got != nil {
						t.Fatalf("device %d for org %d: kept %+v, not found in SQL", id, who.OrgID, *got)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if got == nil || !reflect.DeepEqual(*got, *want) {
					t.Fatalf("device %d for org %d: kept %v, SQL %+v", id, who.OrgID, got, *want)
				}
			}
		}

		// stations of one name: their devices interleave by type, name and id
		for _, st := range r.stations[:4] {
			if _, err := db.Exec(ctx, "UPDATE stations SET name = 'Same', updated_at = updated_at + 1 WHERE id = ?", st); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(ctx, "UPDATE devices SET name = ?, model = 'M2' WHERE id = ?", "A first", r.devices[5]); err != nil {
			t.Fatal(err)
		}
		r.s.Changed()
		check("after renames and an edit")
		for i := range 3 {
			r.moveDevice(t, rng)
			check(fmt.Sprint("after move ", i))
		}
		r.deleteStation(t, rng)
		check("after a deletion")
	})
}

// checkEachDevice checks that EachDevice visits the devices of the stations set, each
// once, with their rows as Devices reads them and the figures Latest and DeviceEnergy give.
func checkEachDevice(t *testing.T, s *State, set []int64, devs []*device.Device) {
	t.Helper()
	ctx := context.Background()
	ids := make([]int64, len(devs))
	for i, d := range devs {
		ids[i] = d.ID
	}
	latest, err := s.Latest(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	energy, err := s.DeviceEnergy(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[int64]*device.Device{}
	for _, d := range devs {
		rows[d.ID] = d
	}
	seen := map[int64]bool{}
	err = s.EachDevice(ctx, append(set, set...), func(x *DeviceFigures) {
		id := x.Row.ID
		l, has := latest[id]
		switch {
		case seen[id] || rows[id] != x.Row:
			t.Errorf("stations %v: device %d visited twice or not listed", set, id)
		case has != (x.Latest != nil) || has && *x.Latest != l:
			t.Errorf("stations %v: device %d latest %v, Latest %v", set, id, x.Latest, l)
		case x.TodayKWh != energy[id].TodayKWh || x.TotalKWh != energy[id].TotalKWh:
			t.Errorf("stations %v: device %d energy %v %v, DeviceEnergy %+v", set, id, x.TodayKWh, x.TotalKWh, energy[id])
		}
		seen[id] = true
	})
	if err != nil || len(seen) != len(devs) {
		t.Fatalf("stations %v: %d devices visited of %d (%v)", set, len(seen), len(devs), err)
	}
}
