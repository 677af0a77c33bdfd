package monitor

import (
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/telemetry"
)

// zone is the stations that share a calendar: their buckets start and end together, so
// a fleet-wide figure works each bucket's bounds and the viewer's bucket out once per
// zone rather than once per station.
type zone struct {
	cal *telemetry.Calendar
	sts []*station.Station
	ids []int64
}

// byZone groups stations by calendar, zones and stations in the order first seen.
func byZone(sts []*station.Station) []*zone {
	var out []*zone
	idx := map[*telemetry.Calendar]int{}
	for _, st := range sts {
		cal := telemetry.CalendarFor(st.Timezone)
		i, ok := idx[cal]
		if !ok {
			i = len(out)
			idx[cal] = i
			out = append(out, &zone{cal: cal})
		}
		z := out[i]
		z.sts, z.ids = append(z.sts, st), append(z.ids, st.ID)
	}
	return out
}

// bucketsOf returns the bounds of cal's buckets of res that start in [from, to) (unix ms).
func bucketsOf(cal *telemetry.Calendar, res telemetry.Resolution, from, to int64) (starts, ends []int64) {
	for t := from; t < to; {
		bs, be := cal.Bucket(res, t)
		if bs >= from {
			starts, ends = append(starts, bs), append(ends, be)
		}
		t = be
	}
	return starts, ends
}
