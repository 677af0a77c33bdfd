package monitor

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// The compared stretches of the fleet summary (likeEnergies) from the fleet state. A
// stretch runs from the previous period's start to the same local time in it; all but
// its last, cut hour is kept per station until that hour or one of the station's past
// roll-ups changes (fleet.State.PastVersions: today's samples never do), so a summary
// costs a lookup per station and period rather than one per bucket of the stretch.

type stretchKey struct {
	id  int64
	res telemetry.Resolution
}

// stretchMemo is a station's stretch up to the hour that holds the stretch's end.
type stretchMemo struct {
	hour   int64   // start of that hour (unix ms)
	ver    uint64  // the station's past version it was read at
	whole  float64 // PV of the whole months and days before that hour's day
	hours  float64 // PV of that day's hours before that hour
	hourPV float64 // PV of that hour, whole (the stretch takes its share)
}

// zoneLikeEnergy is one period of likeEnergies, a zone at a time: the stretch, its parts
// and their buckets are worked out once per zone; each station's stretch is kept (above).
func (f *Figures) zoneLikeEnergy(ctx context.Context, zones []*zone, res telemetry.Resolution, now time.Time, first map[int64]int64) (map[int64]float64, error) {
	out := make(map[int64]float64, len(first))
	err := f.zoneStretches(ctx, zones, res, now, first, func(z *zone, ids []int64, memos []*stretchMemo) {
		share := stretchShare(z.cal, res, now)
		for i, id := range ids {
			out[id] = memos[i].at(share)
		}
	})
	return out, err
}

// zoneStretches calls fn, per zone, with the stations compared in it and their kept
// stretches for the period res at now.
func (f *Figures) zoneStretches(ctx context.Context, zones []*zone, res telemetry.Resolution, now time.Time, first map[int64]int64,
	fn func(z *zone, ids []int64, memos []*stretchMemo)) error {
	for _, z := range zones {
		w := LikeWindow(res, now, z.cal.Loc)
		var ids []int64
		for _, id := range z.ids {
			if fd, ok := first[id]; ok && fd <= w.From.UnixMilli() {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		hs, he := z.cal.Bucket(telemetry.Hour, w.To.UnixMilli())
		vers, err := f.Fleet.PastVersions(ctx, ids)
		if err != nil {
			return err
		}
		memos := make([]*stretchMemo, len(ids))
		var miss []int
		for i, id := range ids {
			if m, ok := f.stretches.Load(stretchKey{id, res}); ok {
				if m := m.(*stretchMemo); m.hour == hs && m.ver == vers[i] {
					memos[i] = m
					continue
				}
			}
			miss = append(miss, i)
		}
		if len(miss) > 0 {
			if err := f.readStretches(ctx, z, res, w.From, hs, he, ids, vers, miss, memos); err != nil {
				return err
			}
		}
		fn(z, ids, memos)
	}
	return nil
}

// stretchShare is the part of its last hour the stretch of period res at now takes in
// the calendar cal (as sumWindow takes a cut bucket pro rata).
func stretchShare(cal *telemetry.Calendar, res telemetry.Resolution, now time.Time) float64 {
	w := LikeWindow(res, now, cal.Loc)
	hs, he := cal.Bucket(telemetry.Hour, w.To.UnixMilli())
	bs, be := time.UnixMilli(hs), time.UnixMilli(he)
	return float64(w.To.Sub(bs)) / float64(be.Sub(bs))
}

// at is the stretch's PV when it takes share of its last hour.
func (m *stretchMemo) at(share float64) float64 { return m.whole + (m.hours + m.hourPV*share) }

// readStretches reads the stretches [from, hour) and the hour [hour, hourEnd) of the
// stations ids[miss] and keeps them.
func (f *Figures) readStretches(ctx context.Context, z *zone, res telemetry.Resolution, from time.Time, hour, hourEnd int64,
	ids []int64, vers []uint64, miss []int, memos []*stretchMemo) error {
	sub := make([]int64, len(miss))
	for j, i := range miss {
		sub[j] = ids[i]
	}
	months, days, hours := parts(z.cal, Window{From: from, To: maxTime(from, time.UnixMilli(hour))})
	sums := make([][]float64, 4)
	for k, part := range []struct {
		res telemetry.Resolution
		w   Window
	}{{telemetry.Month, months}, {telemetry.Day, days}, {telemetry.Hour, hours},
		{telemetry.Hour, Window{From: time.UnixMilli(hour), To: time.UnixMilli(hourEnd)}}} {
		got, err := f.partPV(ctx, z, sub, part.res, part.w)
		if err != nil {
			return err
		}
		sums[k] = got
	}
	for j, i := range miss {
		m := &stretchMemo{hour: hour, ver: vers[i], whole: sums[0][j] + sums[1][j], hours: sums[2][j], hourPV: sums[3][j]}
		memos[i] = m
		f.stretches.Store(stretchKey{ids[i], res}, m)
	}
	return nil
}

// partPV returns each station's PV over the window w of whole buckets of res: from the
// fleet state where it keeps them, else from the roll-ups.
func (f *Figures) partPV(ctx context.Context, z *zone, ids []int64, res telemetry.Resolution, w Window) ([]float64, error) {
	out := make([]float64, len(ids))
	if !w.To.After(w.From) {
		return out, nil
	}
	starts, _ := bucketsOf(z.cal, res, w.From.UnixMilli(), w.To.UnixMilli())
	ok, err := f.Fleet.EachBucket(ctx, ids, res, starts, func(i, _ int, fl *telemetry.Flows) {
		out[i] += fl.PVKWh
	})
	if err != nil || ok {
		return out, err
	}
	pts, err := f.Reader.StationEnergy(ctx, ids, res, w.From, w.To)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		out[i] = sumWindow(pts[id], w)
	}
	return out, nil
}
