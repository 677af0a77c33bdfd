package telemetry

// Running a device's new samples through its stored sequence: counter states, segments,
// and the rows to insert or update.

// rowSource yields a device's stored raw rows in time order.
type rowSource interface{ next() *rawRow }

type emptySource struct{}

func (emptySource) next() *rawRow { return nil }

type sourceErr interface{ error() error }

func (p *rawPager) error() error { return p.err }

type runOutput struct {
	inserts, updates []*rawRow
	tail             *rawRow // the device's new last row, when it changed
	events           eventCounts
}

// runDevice merges a device's new samples (sorted, one per instant) into its stored
// sequence: from anchor (the stored row before the first new sample, nil when none) it
// walks the stored rows (src) and the new ones in time order, recomputing the counter
// state, taking back the segments that changed and adding the new ones, until nothing
// new is left and the recomputed state matches the stored one.
func runDevice(dev *deviceInfo, anchor *rawRow, src rowSource, news []*rawRow, into *accum, res *Result) (runOutput, error) {
	var out runOutput
	acc := newAccum(into.maxGap)
	defer into.absorb(dev, acc)
	tgs := acc.targets(dev)
	mid := dev.cal.Midnight
	step := func(p *rawRow, x *rawRow) (CounterState, CounterState, CounterStep, CounterStep) {
		c1, s1 := StepCounter(p.C1, x.EnergyKWh, x.T, dev.BoundKW, mid)
		c2, s2 := StepCounter(p.C2, x.Energy2KWh, x.T, dev.BoundKW, mid)
		return c1, c2, s1, s2
	}
	prev, dbPrev := anchor, anchor
	prevChanged := false
	e := src.next()
	i := 0
	for {
		if i == len(news) && (!prevChanged || e == nil) {
			break
		}
		if e != nil && (i == len(news) || e.T < news[i].T) {
			old := *e
			switch {
			case !prevChanged:
				// nothing before e changed: it stays as stored
			case dbPrev == nil && !e.First:
				// e's predecessor was pruned: its segment cannot be taken back, so it stays
			default:
				if dbPrev != nil {
					_, _, o1, o2 := step(dbPrev, e)
					acc.addSegment(tgs, dev.KWp, dbPrev, e, o1, o2, -1)
				}
				c1, c2, s1, s2 := step(prev, e)
				acc.addSegment(tgs, dev.KWp, prev, e, s1, s2, 1)
				e.C1, e.C2, e.First = c1, c2, false
				if changed := e.C1 != old.C1 || e.C2 != old.C2 || old.First; changed {
					out.updates = append(out.updates, e)
					prev, dbPrev, prevChanged = e, &old, true
					e = src.next()
					continue
				}
			}
			prev, dbPrev, prevChanged = e, &old, false
			e = src.next()
			continue
		}
		n := news[i]
		i++
		if e != nil && e.T == n.T {
			markRepeat(res, n.idx, &e.Sample, &n.Sample)
			continue
		}
		if prev == nil {
			n.C1 = CounterState{Ref: n.EnergyKWh, RefT: n.T}
			n.C2 = CounterState{Ref: n.Energy2KWh, RefT: n.T}
			n.First = true
		} else {
			c1, c2, s1, s2 := step(prev, n)
			n.C1, n.C2 = c1, c2
			acc.addSegment(tgs, dev.KWp, prev, n, s1, s2, 1)
			out.events.count(s1.Event)
			out.events.count(s2.Event)
		}
		acc.addSample(tgs, n)
		out.inserts = append(out.inserts, n)
		res.set(n.idx, Accepted, "")
		prev, prevChanged = n, true
	}
	if se, ok := src.(sourceErr); ok && se.error() != nil {
		return out, se.error()
	}
	if e == nil && prevChanged {
		out.tail = prev
	}
	return out, nil
}
