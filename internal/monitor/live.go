package monitor

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/telemetry"
)

// devCount is what a station's live figures count of its devices (its own and its
// sub-stations').
type devCount struct {
	total, online, reported int
	powerKW                 float64
	lastSeen                time.Time
}

// count adds one device, with its latest sample (nil: none yet).
func (f *Figures) count(a *devCount, id int64, typ string, l *telemetry.Sample, now time.Time) {
	a.total++
	comm := ""
	if f.Comm != nil {
		comm = f.Comm(id)
	}
	if l == nil || comm == "connecting" {
		return
	}
	a.reported++
	if l.Time.After(a.lastSeen) {
		a.lastSeen = l.Time
	}
	if device.State(l, now) != device.StateOffline && comm != "offline" {
		a.online++
		if typ == "inverter" {
			a.powerKW += l.PowerKW
		}
	}
}

// deviceCounts counts the devices of each listed station: from the fleet state in one
// pass over its entries, else from the device list and the latest samples.
func (f *Figures) deviceCounts(ctx context.Context, ids []int64) (map[int64]*devCount, error) {
	now := f.now()
	accs := make(map[int64]*devCount, len(ids))
	at := func(top int64) *devCount {
		a := accs[top]
		if a == nil {
			a = &devCount{}
			accs[top] = a
		}
		return a
	}
	if f.Fleet != nil {
		err := f.Fleet.EachUnder(ctx, ids, func(m *fleet.Member, l *telemetry.Sample) {
			f.count(at(m.TopID), m.ID, m.Type, l, now)
		})
		return accs, err
	}
	devs, err := f.devicesUnder(ctx, ids)
	if err != nil {
		return nil, err
	}
	devIDs := make([]int64, 0, len(devs))
	for _, d := range devs {
		devIDs = append(devIDs, d.id)
	}
	latest, err := f.latest(ctx, devIDs)
	if err != nil {
		return nil, err
	}
	for _, d := range devs {
		if l, ok := latest[d.id]; ok {
			f.count(at(d.topID), d.id, d.typ, &l, now)
		} else {
			f.count(at(d.topID), d.id, d.typ, nil, now)
		}
	}
	return accs, nil
}
