package telemetry

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// BackfillResult reports a back-fill.
type BackfillResult struct {
	Samples    int64         `json:"samples"`
	Accepted   int64         `json:"accepted"`
	Duplicates int64         `json:"duplicates"`
	Conflicts  int64         `json:"conflicts"`
	Rejected   int64         `json:"rejected"`
	RawRows    int64         `json:"rawRows"` // raw rows written (the retention window only)
	DayRows    int64         `json:"dayRows"` // device and station day roll-up rows written
	Elapsed    time.Duration `json:"elapsed"`
}

// backfillDevice is a device's in-memory tail during a back-fill.
type backfillDevice struct {
	dev     *deviceInfo
	tail    *rawRow
	days    []int64   // starts of the device's days still in the accumulator, ascending
	pending []*rawRow // this batch's samples of the device
}

// backfillFlushEvery is how many samples pass between hand-overs of complete days.
var backfillFlushEvery = 200_000

// deferred marks a back-fill sample handed to Write afterwards (counted there).
const deferred Outcome = 255

type backfillJob struct {
	raw  []*rawRow
	days *accum
	// tails is set on the last job: its transaction also writes the months and years and
	// the latest rows, so a back-fill whose samples fit one job commits all or nothing (an
	// import resumed after a crash must not add a slice's days twice)
	tails []*rawRow
	final bool
}

// Backfill loads history fast: it runs the samples through the same counter and bucket
// code as Write, keeps the roll-ups in memory, writes each device day once it is
// complete, and writes raw rows only for the raw retention window (older ones would be
// pruned anyway). Samples of a device must come in time order across the batches (any
// device interleaving); a sample at or before its device's previous one is written
// through Write afterwards if it is inside the raw window, else rejected as out_of_order.
// Backfill must not run at the same time as other writes for the same devices.
func (w *Writer) Backfill(ctx context.Context, batches iter.Seq[[]Sample]) (BackfillResult, error) {
	out, err := w.BackfillQuiet(ctx, batches)
	if err == nil {
		w.AnnounceReload()
	}
	return out, err
}

// AnnounceReload tells the listeners (OnChange) to read the roll-ups again: what a
// back-fill wrote reaches them no other way.
func (w *Writer) AnnounceReload() { w.emit(Change{Reload: true}) }

// BackfillQuiet is Backfill without AnnounceReload, for a caller that back-fills in slices
// while holding Exclusive (a listener's reload takes Exclusive too) and announces once it
// let go.
func (w *Writer) BackfillQuiet(ctx context.Context, batches iter.Seq[[]Sample]) (BackfillResult, error) {
	start := time.Now()
	var out BackfillResult
	// the roll-ups complete before the back-fill adds to them (it marks its devices'
	// samples rolled up)
	if err := w.ensureRecovered(ctx); err != nil {
		return out, err
	}
	if err := w.Flush(ctx); err != nil {
		return out, err
	}
	// the registry as stored now (read again only if devices or stations changed: the
	// importer back-fills in many slices, and a full read is seconds at 200,000 devices)
	if err := w.reg.sync(ctx); err != nil {
		return out, err
	}
	now := w.opt.Now().UnixMilli()
	rawFrom := now - w.opt.RawRetention.Milliseconds()

	// the stored tails of the devices the batches name, read as they first appear (not
	// every device's: the importer back-fills a large fleet in many small slices)
	tails := map[int64]*rawRow{}
	tailRead := map[int64]bool{}
	var unread []int64
	readTails := func(batch []Sample) error {
		unread = unread[:0]
		for i := range batch {
			if id := batch[i].DeviceID; !tailRead[id] {
				tailRead[id] = true
				unread = append(unread, id)
			}
		}
		if len(unread) == 0 {
			return nil
		}
		got, err := loadLatest(ctx, w.db, unread)
		maps.Copy(tails, got)
		return err
	}

	// Day rows are read back only when they may exist: the tables had rows before, or
	// this back-fill wrote the day already (a station day touched again).
	var empty bool
	if err := w.db.QueryRow(ctx, `SELECT CASE WHEN EXISTS (SELECT 1 FROM telemetry_device_rollups)
		OR EXISTS (SELECT 1 FROM telemetry_station_rollups) THEN 0 ELSE 1 END`).Scan(&empty); err != nil {
		return out, fmt.Errorf("telemetry: unable to read roll-ups: %w", err)
	}
	written := map[dayKey]bool{}
	stored := func(k dayKey) bool { return !empty || written[k] }

	// The database work runs beside the computation.
	jobs := make(chan backfillJob, 1)
	dbDone := make(chan error, 1)
	per := newPeriods()
	go func() {
		var err error
		for j := range jobs {
			if err != nil {
				continue // drain
			}
			// in key order, so that each device's rows land together in the table's b-tree
			sort.Slice(j.raw, func(a, b int) bool {
				if j.raw[a].DeviceID != j.raw[b].DeviceID {
					return j.raw[a].DeviceID < j.raw[b].DeviceID
				}
				return j.raw[a].T < j.raw[b].T
			})
			err = w.db.InTx(ctx, func(tx *store.Tx) error {
				if err := unsealFor(ctx, tx, now, j.raw); err != nil {
					return err
				}
				if err := insertRaw(ctx, tx, j.raw); err != nil {
					return err
				}
				if j.days != nil {
					n, err := mergeDays(ctx, tx, j.days, per, stored, now)
					out.DayRows += int64(n)
					for _, k := range j.days.order {
						written[k] = true
					}
					if err != nil {
						return err
					}
				}
				if j.final {
					if _, err := writePeriods(ctx, tx, per); err != nil {
						return err
					}
					return upsertLatest(ctx, tx, j.tails, now, true)
				}
				return nil
			})
			out.RawRows += int64(len(j.raw))
		}
		dbDone <- err
	}()
	fail := func(err error) (BackfillResult, error) {
		close(jobs)
		<-dbDone
		return out, err
	}

	acc := newAccum(w.opt.MaxGap.Milliseconds())
	devs := map[int64]*backfillDevice{}
	var late []Sample
	var raw []*rawRow
	seen := 0
	// flushDays hands the complete days to the database goroutine: a device's days once
	// none of its later samples can reach them, and station days once no device's can
	// (a station day flushed early and touched again is merged with the stored row).
	flushDays := func(force bool, final []*rawRow) {
		part := newAccum(acc.maxGap)
		global := int64(1 << 62)
		for _, bd := range devs {
			horizon := int64(1 << 62)
			if bd.tail != nil && !force {
				horizon = min(bd.tail.T, bd.tail.C1.RefT, bd.tail.C2.RefT)
			}
			global = min(global, horizon)
			n := 0
			for _, ds := range bd.days {
				k := dayKey{id: bd.dev.ID, start: ds}
				d := acc.days[k]
				if d == nil || d.end > horizon {
					break
				}
				delete(acc.days, k)
				part.days[k] = d
				part.order = append(part.order, k)
				n++
			}
			bd.days = bd.days[n:]
		}
		keep := acc.order[:0]
		for _, k := range acc.order {
			d, ok := acc.days[k]
			switch {
			case !ok:
			case k.kind != "" && d.end <= global:
				delete(acc.days, k)
				part.days[k] = d
				part.order = append(part.order, k)
			default:
				keep = append(keep, k)
			}
		}
		acc.order = keep
		if len(part.order) > 0 || len(raw) > 0 || final != nil {
			jobs <- backfillJob{raw: raw, days: part, tails: final, final: final != nil}
			raw = nil
		}
	}

	// Buffers reused from batch to batch; rows kept for the raw insert are copied into
	// slabs, which are never grown (so pointers into them stay valid).
	var rows []rawRow
	var slab []rawRow
	keepRow := func(r *rawRow) *rawRow {
		if len(slab) == cap(slab) {
			slab = make([]rawRow, 0, 4096)
		}
		slab = append(slab, *r)
		return &slab[len(slab)-1]
	}
	res := newResult(0)
	var order []*backfillDevice
	for batch := range batches {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := readTails(batch); err != nil {
			return fail(err)
		}
		out.Samples += int64(len(batch))
		res.Outcomes = slices.Grow(res.Outcomes[:0], len(batch))[:len(batch)]
		res.Reasons = slices.Grow(res.Reasons[:0], len(batch))[:len(batch)]
		clear(res.Outcomes)
		clear(res.Reasons)
		rows = slices.Grow(rows[:0], len(batch))[:len(batch)]
		order = order[:0]
		for i := range batch {
			s := &batch[i]
			bd := devs[s.DeviceID]
			if bd == nil {
				d, err := w.reg.device(ctx, s.DeviceID)
				if err != nil {
					return fail(err)
				}
				if d != nil {
					bd = &backfillDevice{dev: d, tail: tails[s.DeviceID]}
					devs[s.DeviceID] = bd
				}
			}
			var d *deviceInfo
			if bd != nil {
				d = bd.dev
			}
			if reason := w.check(d, s, now, true); reason != "" {
				res.set(i, Rejected, reason)
				continue
			}
			r := &rows[i]
			*r = rawRow{Sample: *s, T: s.Time.UnixMilli(), idx: i}
			r.Time = time.UnixMilli(r.T).UTC()
			if bd.tail != nil && r.T <= bd.tail.T {
				if r.T >= rawFrom {
					late = append(late, *s)
					res.set(i, deferred, "")
				} else {
					res.set(i, Rejected, ReasonOutOfOrder)
				}
				continue
			}
			if len(bd.pending) == 0 {
				order = append(order, bd)
			}
			bd.pending = append(bd.pending, r)
		}
		for _, bd := range order {
			news := bd.pending
			bd.pending = bd.pending[:0]
			if !slices.IsSortedFunc(news, func(a, b *rawRow) int { return cmp.Compare(a.T, b.T) }) {
				sort.SliceStable(news, func(i, j int) bool { return news[i].T < news[j].T })
			}
			mark := len(acc.order)
			o, err := runDevice(bd.dev, bd.tail, emptySource{}, uniq(news, &res), acc, &res)
			if err != nil {
				return fail(err)
			}
			for _, k := range acc.order[mark:] {
				if k.kind == "" {
					bd.days = append(bd.days, k.start)
				}
			}
			sort.Slice(bd.days, func(i, j int) bool { return bd.days[i] < bd.days[j] })
			if o.tail != nil {
				t := *o.tail
				bd.tail = &t
			}
			for _, r := range o.inserts {
				if r.T >= rawFrom {
					raw = append(raw, keepRow(r))
				}
			}
		}
		for i, o := range res.Outcomes {
			switch o {
			case Accepted:
				out.Accepted++
			case Duplicate:
				out.Duplicates++
			case Conflict:
				out.Conflicts++
			case Rejected:
				out.Rejected++
				rejectedTotal.Inc("backfill", res.Reasons[i])
			}
		}
		seen += len(batch)
		if seen >= backfillFlushEvery || len(raw) >= 100_000 {
			seen = 0
			flushDays(false, nil)
		}
	}
	tailRows := []*rawRow{}
	for _, bd := range devs {
		if bd.tail != nil {
			tailRows = append(tailRows, bd.tail)
		}
	}
	flushDays(true, tailRows)
	close(jobs)
	if err := <-dbDone; err != nil {
		return out, err
	}
	samplesTotal.Add(float64(out.Accepted), "backfill", "accepted")
	samplesTotal.Add(float64(out.Duplicates), "backfill", "duplicate")
	samplesTotal.Add(float64(out.Conflicts), "backfill", "conflict")
	samplesTotal.Add(float64(out.Rejected), "backfill", "rejected")
	for _, part := range chunks(late, 5000) {
		res, err := w.Write(ctx, "backfill", part)
		if err != nil {
			return out, err
		}
		out.Accepted += int64(res.Accepted)
		out.Duplicates += int64(res.Duplicates)
		out.Conflicts += int64(res.Conflicts)
		out.Rejected += int64(res.Rejected)
	}
	out.Elapsed = time.Since(start)
	return out, nil
}
