package monitor

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// zonePlan is the buckets of a zone's calendar that fall in a viewer's period, and the
// viewer's bucket of each: the same for every request of the period, so worked out once
// (a month is about 33 local days per zone, each two time.Date calls and a conversion).
type zonePlan struct {
	starts []int64 // the zone's buckets (unix ms), in order
	keys   []int64 // the viewer's bucket of each (unix ms)
}

// planKey names a plan: the zone's calendar, the viewer's zone, the resolution (which
// names the period and so the key function), the viewer's period and the zone's current
// period (the key keeps the buckets of the station's own today, month or year).
type planKey struct {
	cal      *telemetry.Calendar
	loc      *time.Location
	res      telemetry.Resolution
	from, to int64
	current  int64
}

// maxPlans bounds the plans kept (a few kB each): when reached they are all dropped.
const maxPlans = 1024

var (
	plans     sync.Map // planKey → *zonePlan
	planCount atomic.Int64
)

// planOf returns the plan of cal's buckets of the period's resolution within [qFrom,
// qTo) whose viewer's bucket, key(start, cal's zone), is in the period's [from, to).
func planOf(cal *telemetry.Calendar, pp fleetPeriod, qFrom, qTo time.Time) *zonePlan {
	res, from, to, key := pp.res, pp.from, pp.to, pp.key
	k := planKey{cal: cal, loc: from.Location(), res: res, from: from.UnixMilli(), to: to.UnixMilli(), current: pp.current(cal.Loc)}
	if v, ok := plans.Load(k); ok {
		return v.(*zonePlan)
	}
	all, _ := bucketsOf(cal, res, qFrom.UnixMilli(), qTo.UnixMilli())
	p := &zonePlan{}
	for _, bs := range all {
		kt := key(time.UnixMilli(bs).UTC(), cal.Loc)
		if kt.Before(from) || !kt.Before(to) {
			continue
		}
		p.starts, p.keys = append(p.starts, bs), append(p.keys, kt.UnixMilli())
	}
	if planCount.Add(1) > maxPlans {
		plans.Clear()
		planCount.Store(1)
	}
	plans.Store(k, p)
	return p
}
