package importer

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// prepare checks a slice's samples against the write path's own rules and drops every
// sample of a row any of whose samples fails (a row is stored whole or not at all). It runs
// on the reading side, before the rows after the slice are converted: a rejected row's
// per-interval energy is taken back out of its device's running counter here.
func (im *Importer) prepare(ctx context.Context, file string, batch []pending, counters map[int64]*[2]float64, rep *Report) ([]telemetry.Sample, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	samples := make([]telemetry.Sample, len(batch))
	for i := range batch {
		samples[i] = batch[i].s
	}
	reasons, err := im.Writer.ValidateHistory(ctx, samples)
	if err != nil {
		return nil, err
	}
	bad := map[int64]bool{}
	for i, r := range reasons {
		if r != "" && !bad[batch[i].row] {
			bad[batch[i].row] = true
			rep.reject(file, batch[i].row, r, "")
		}
	}
	// a rejected row's per-interval energy is taken back out of its device's running
	// counter: the later samples would carry it otherwise
	var back map[int64]*[2]float64
	keep := samples[:0]
	for i := range batch {
		p := &batch[i]
		if bad[p.row] {
			if p.delta != [2]float64{} {
				if back == nil {
					back = map[int64]*[2]float64{}
				}
				b := back[p.s.DeviceID]
				if b == nil {
					b = new([2]float64)
					back[p.s.DeviceID] = b
				}
				b[0] += p.delta[0]
				b[1] += p.delta[1]
			}
			continue
		}
		s := samples[i]
		if b := back[s.DeviceID]; b != nil {
			s.EnergyKWh -= b[0]
			s.Energy2KWh -= b[1]
		}
		keep = append(keep, s)
	}
	for dev, b := range back {
		if st := counters[dev]; st != nil {
			st[0] -= b[0]
			st[1] -= b[1]
		}
	}
	rep.Samples += int64(len(keep))
	return keep, nil
}

// store stores a prepared slice (dry: counts what would happen). It runs on the storing
// side, one slice at a time, in order.
func (im *Importer) store(ctx context.Context, keep []telemetry.Sample, tails *tailCache, raw time.Duration, rep *Report, dry bool) error {
	if len(keep) == 0 {
		return nil
	}
	var err error
	rawFrom := im.Writer.Options().Now().Add(-raw)
	if dry {
		for _, s := range keep {
			t, err := tails.get(ctx, s.DeviceID)
			if err != nil {
				return err
			}
			switch {
			case t.Time.IsZero() || s.Time.After(t.Time):
				rep.Stored++
				tails.tail[s.DeviceID] = s
			case !s.Time.Before(rawFrom):
				rep.Overlapping++
			default:
				rep.Skipped++
			}
		}
		return nil
	}
	ids := deviceIDs(keep)
	var before []telemetry.Sample
	err = im.exclusive(ctx, ids, func() error {
		// read under the lock: no write of these devices can come between this and the back-fill
		if err := tails.load(ctx, ids); err != nil {
			return err
		}
		// split in place: the slice is this call's own, and a sample is read before its
		// place is written
		after := keep[:0]
		for i := range keep {
			s := &keep[i]
			if t := tails.tail[s.DeviceID]; t.Time.IsZero() || s.Time.After(t.Time) {
				after = append(after, *s)
			} else {
				before = append(before, *s)
			}
		}
		if len(after) == 0 {
			return nil
		}
		res, err := im.Writer.BackfillQuiet(ctx, slices.Values([][]telemetry.Sample{after}))
		if err != nil {
			return err
		}
		rep.Stored += res.Accepted
		rep.Duplicates += res.Duplicates
		rep.Conflicts += res.Conflicts
		if res.Rejected > 0 {
			if rep.Reasons == nil {
				rep.Reasons = map[string]int64{}
			}
			rep.Reasons["write_path"] += res.Rejected
		}
		for _, s := range after {
			if t := tails.tail[s.DeviceID]; s.Time.After(t.Time) {
				tails.tail[s.DeviceID] = s
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	im.announce(false)
	// at or before a device's stored history: inside the raw window through Write (a late
	// sample: stored where the device has no reading at that instant, else a duplicate or a
	// conflict, the stored reading kept); older ones are in the roll-ups already
	var late []telemetry.Sample
	for _, s := range before {
		if s.Time.Before(rawFrom) {
			rep.Skipped++
		} else {
			late = append(late, s)
		}
	}
	for len(late) > 0 {
		n := min(len(late), 5000)
		res, err := im.Writer.Write(ctx, "import", late[:n])
		if err != nil {
			return err
		}
		rep.Stored += int64(res.Accepted)
		rep.Duplicates += int64(res.Duplicates)
		rep.Conflicts += int64(res.Conflicts)
		rep.Skipped += int64(res.Rejected) // too_old: the window moved on meanwhile
		late = late[n:]
	}
	return nil
}

func deviceIDs(s []telemetry.Sample) []int64 {
	seen := map[int64]bool{}
	var ids []int64
	for i := range s {
		if !seen[s[i].DeviceID] {
			seen[s[i].DeviceID] = true
			ids = append(ids, s[i].DeviceID)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// exclusive runs fn while no other write of the devices can run: the writes of this process
// wait (Writer.Exclusive), and on PostgreSQL the other replicas' writes of the devices and
// of their stations' day rows wait on the same advisory locks the write path takes per
// transaction, held here on a connection of its own for the slice.
func (im *Importer) exclusive(ctx context.Context, ids []int64, fn func() error) error {
	return im.Writer.Exclusive(func() error {
		if im.DB.Dialect != store.Postgres {
			return fn()
		}
		conn, err := im.DB.SQL.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock_all()") }()
		stations, err := stationsOf(ctx, im.DB, ids)
		if err != nil {
			return err
		}
		for _, l := range []struct {
			space int
			ids   []int64
		}{{7340002, ids}, {7340003, stations}} {
			keys := make([]int64, len(l.ids))
			for i, id := range l.ids {
				keys[i] = id % math.MaxInt32
			}
			sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
			for _, k := range keys {
				if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d, %d)", l.space, k)); err != nil {
					return fmt.Errorf("importer: unable to lock devices: %w", err)
				}
			}
		}
		return fn()
	})
}

// stationsOf answers the devices' stations and their ancestors (the day rows a write of
// the devices rewrites).
func stationsOf(ctx context.Context, db *store.DB, ids []int64) ([]int64, error) {
	parent := map[int64]int64{}
	rows, err := db.Query(ctx, "SELECT id, COALESCE(parent_id, 0) FROM stations")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id, p int64
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return nil, err
		}
		parent[id] = p
	}
	rows.Close()
	own, err := store.IDs(ctx, db, "SELECT DISTINCT station_id FROM devices WHERE id IN ("+idList(ids)+")")
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var out []int64
	for _, s := range own {
		for s != 0 && !seen[s] {
			seen[s] = true
			out = append(out, s)
			s = parent[s]
		}
	}
	return out, nil
}

func idList(ids []int64) string {
	b := make([]byte, 0, len(ids)*6)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", id)
	}
	return string(b)
}

// announce tells the write path's listeners to read the roll-ups again, at most every
// announceEvery while an import runs, and at its end (force).
func (im *Importer) announce(force bool) {
	im.mu.Lock()
	due := force || time.Since(im.announced) >= announceEvery
	if due {
		im.announced = time.Now()
	}
	im.mu.Unlock()
	if due {
		im.Writer.AnnounceReload()
	}
}

var announceEvery = 10 * time.Second
