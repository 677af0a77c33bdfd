package monitor

import (
	"context"
	"math"
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
	until                   int64 // unix ns: when time alone changes the count (fleet state only)
}

// count adds one device, with its latest sample (nil: none yet) and the poller's
// communication states (comms).
func count(a *devCount, id int64, typ string, l *telemetry.Sample, now time.Time, comms map[int64]string) {
	a.total++
	comm := ""
	if len(comms) > 0 {
		comm = comms[id]
	}
	if l == nil || comm == device.CommConnecting {
		return
	}
	a.reported++
	if l.Time.After(a.lastSeen) {
		a.lastSeen = l.Time
	}
	if device.StateOf(l, comm, now) != device.StateOffline {
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
	cs := f.comms()
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
		var cur *devCount
		top := int64(-1)
		err := f.Fleet.Tallies(ctx, ids, true, now, cs, func(id int64, t *fleet.Tally) {
			if id != top { // a station's sub-stations come after it
				top, cur = id, at(id)
				cur.until = math.MaxInt64
			}
			cur.until = min(cur.until, t.Until)
			cur.total += t.Total
			cur.reported += t.Reported
			cur.online += t.Online
			cur.powerKW += t.PowerKW
			if t.LastSeen.After(cur.lastSeen) {
				cur.lastSeen = t.LastSeen
			}
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
			count(at(d.topID), d.id, d.typ, &l, now, cs.States)
		} else {
			count(at(d.topID), d.id, d.typ, nil, now, cs.States)
		}
	}
	return accs, nil
}
