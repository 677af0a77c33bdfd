package cloud

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Worker syncs every organisation's due connections. One runs per cluster: the server
// starts it under store.RunExclusive, so on PostgreSQL the replica holding the lock syncs
// and the others wait to take over.
type Worker struct {
	Store   *Store
	Writer  *telemetry.Writer
	Vendors map[string]Vendor
	// BaseURLs overrides a vendor's API address (tests point it at a stand-in).
	BaseURLs map[string]string
	HTTP     *http.Client
	// RawRetention is the writer's raw window: older history goes through Backfill.
	RawRetention time.Duration
	// Poll is how often due connections are looked for (default 30 s).
	Poll time.Duration
}

// The sync's timing rules.
const (
	// MinInterval is the shortest time between two live rounds of a connection: readings
	// come every 5 minutes and the vendor's site power every 15.
	MinInterval = 15 * time.Minute
	// settle is how long after an instant the vendor's data for it is taken as complete,
	// so a back-fill window that ended before it moves the cursor even without readings.
	settle = time.Hour
	// maxBackoff bounds the wait after repeated vendor failures.
	maxBackoff = 6 * time.Hour
)

func (w *Worker) now() time.Time { return w.Store.now() }

// Run syncs due connections until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	poll := w.Poll
	if poll <= 0 {
		poll = 30 * time.Second
	}
	for {
		if err := w.RunOnce(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("cloud sync failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(poll):
		}
	}
}

// RunOnce syncs each due connection once.
func (w *Worker) RunOnce(ctx context.Context) error {
	due, err := w.Store.due(ctx)
	if err != nil {
		return err
	}
	for _, c := range due {
		if err := w.Sync(ctx, c); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			slog.Warn("cloud sync of a connection failed", "connection", c.ID, "err", err)
		}
	}
	return nil
}

// Interval is the time between live rounds that cost n calls each on a daily budget (a call
// per device, plus what the connector spends besides: RoundCost). While history is still loading the live rounds keep to half the
// budget so the back-fill has the other half.
func Interval(budget, n int, backfilling bool) time.Duration {
	if n == 0 || budget <= 0 {
		return 24 * time.Hour
	}
	share := budget
	if backfilling {
		share = max(budget/2, 1)
	}
	iv := 24 * time.Hour * time.Duration(n) / time.Duration(share)
	return max(iv, MinInterval)
}

// RoundCost is implemented by a connector whose round costs more than its data calls
// (FusionSolar logs in first): RoundCalls answers the calls a round of n data calls makes.
type RoundCost interface {
	RoundCalls(dataCalls int) int
}

// roundCalls is the calls a live round of the cursors costs with conn: a data call per
// group of devices one call serves (Batcher), plus what the connector spends besides.
func roundCalls(conn Connector, cursors []Cursor) int {
	n := len(groups(cursors, batcherOf(conn).BatchSize()))
	if rc, ok := conn.(RoundCost); ok {
		return rc.RoundCalls(n)
	}
	return n
}

// reserve is the calls today's remaining live rounds need; the back-fill leaves them.
func reserve(now time.Time, iv time.Duration, n int) int {
	midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	rounds := int((midnight.Sub(now) + iv - 1) / iv)
	return rounds * n
}

// Sync runs one round of a connection: each device's readings from its cursor to now,
// history first where it is behind, as far as the budget allows.
func (w *Worker) Sync(ctx context.Context, c *Connection) error {
	v, ok := w.Vendors[c.Vendor]
	if !ok {
		return w.Store.setState(ctx, c.ID, StateRetrying, "unknown vendor "+c.Vendor, c.Failures, w.now().Add(maxBackoff), false)
	}
	creds, err := w.Store.credentials(c)
	if err != nil {
		// no key, or another key than sealed them: the operator's to fix (a restart with the
		// right --secret-key), so tried again later rather than given up
		return w.Store.setState(ctx, c.ID, StateRetrying, err.Error(), c.Failures, w.now().Add(maxBackoff), false)
	}
	cursors, err := w.Store.cursors(ctx, c.ID)
	if err != nil {
		return err
	}
	if len(cursors) == 0 {
		return w.Store.setState(ctx, c.ID, StateNew, "", 0, w.now().Add(24*time.Hour), false)
	}
	conn := v.New(creds, w.deps(ctx, c))
	behind, err := w.syncDevices(ctx, c, conn, cursors)
	now := w.now()
	switch {
	case err == nil:
		state := StateLive
		if behind {
			state = StateBackfill
		}
		return w.Store.setState(ctx, c.ID, state, "", 0, now.Add(Interval(c.DailyBudget, roundCalls(conn, cursors), behind)), true)
	case errors.Is(err, ErrQuota):
		// nothing is lost: the cursors stand where the last write left them
		midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		return w.Store.setState(ctx, c.ID, StateQuota, "the day's calls are spent; sync resumes after 00:00 UTC", 0, midnight, true)
	case errors.Is(err, ErrRefused):
		return w.Store.setState(ctx, c.ID, StateRefused, "the vendor refused the credentials: give new ones", c.Failures, now, false)
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		var temp *TemporaryError
		msg := err.Error()
		if errors.As(err, &temp) {
			msg = temp.Error()
		}
		fails := c.Failures + 1
		wait := min(time.Minute<<min(fails, 12), maxBackoff)
		if serr := w.Store.setState(ctx, c.ID, StateRetrying, msg, fails, now.Add(wait), false); serr != nil {
			return serr
		}
		return err
	}
}

// syncDevices walks each group of devices (one data call's worth: a device, or a site's
// devices for a Batcher) forward from its oldest cursor; behind reports a device still
// loading history when the round ended.
func (w *Worker) syncDevices(ctx context.Context, c *Connection, conn Connector, cursors []Cursor) (behind bool, err error) {
	starts := map[string]time.Time{} // a site's first day, asked once a round
	perRound := roundCalls(conn, cursors)
	iv := Interval(c.DailyBudget, perRound, true)
	batch := batcherOf(conn)
	for i := range cursors {
		cur := &cursors[i]
		if cur.SyncedTo.UnixMilli() > 0 {
			continue
		}
		// never synced: from the site's first day
		start, ok := starts[cur.SiteID]
		if !ok {
			if start, err = conn.DataStart(ctx, cur.SiteID, zone(cur.TimeZone)); err != nil {
				return true, err
			}
			starts[cur.SiteID] = start
		}
		cur.SyncedTo = start.Add(-time.Millisecond)
		if err := w.Store.advance(ctx, c.ID, cur.DeviceID, cur.SyncedTo); err != nil {
			return true, err
		}
	}
	for _, g := range groups(cursors, batch.BatchSize()) {
		loc := zone(g[0].TimeZone)
		for {
			now := w.now()
			from := earliest(g)
			if now.Sub(from) < time.Minute {
				break // nothing newer can be there yet: spare the call
			}
			to := from.Add(conn.MaxSpan())
			live := !to.Before(now)
			if live {
				to = now
			} else {
				used, err := w.Store.used(ctx, c.ID)
				if err != nil {
					return true, err
				}
				if used+1+reserve(now, iv, perRound) > c.DailyBudget {
					behind = true // the rest of today's budget is for the live rounds
					break
				}
			}
			if err := w.window(ctx, c.ID, batch, g, loc, from, to, now); err != nil {
				return true, err
			}
			if live {
				break
			}
		}
	}
	return behind, nil
}

func zone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// window fetches and writes one range (from, to] of a group's devices and moves each
// device's cursor. A cursor moves only after the write has committed, so a restart asks for
// the range again and the write path counts what was already stored as duplicates.
func (w *Worker) window(ctx context.Context, connID int64, b Batcher, g []Cursor, loc *time.Location, from, to, now time.Time) error {
	keys := make([]string, len(g))
	for i, cur := range g {
		keys[i] = cur.Serial
	}
	got, err := b.DevicesData(ctx, g[0].SiteID, keys, loc, from, to)
	if err != nil {
		return err
	}
	var samples []telemetry.Sample
	next := make([]time.Time, len(g))
	for i, cur := range g {
		next[i] = cur.SyncedTo
		for _, s := range got[cur.Serial] {
			if s.Time.After(cur.SyncedTo) { // a device ahead of the group has these
				s.DeviceID = cur.DeviceID
				samples = append(samples, s)
				next[i] = s.Time
			}
		}
		if to.Before(now.Add(-settle)) && to.After(next[i]) {
			next[i] = to // the vendor's data for the whole range is in: a gap stays a gap
		}
	}
	slices.SortStableFunc(samples, func(a, b telemetry.Sample) int { return a.Time.Compare(b.Time) })
	if err := w.write(ctx, samples, now); err != nil {
		return err
	}
	for i := range g {
		if next[i].After(g[i].SyncedTo) {
			if err := w.Store.advance(ctx, connID, g[i].DeviceID, next[i]); err != nil {
				return err
			}
			g[i].SyncedTo = next[i]
		}
	}
	return nil
}

// write stores readings: those older than the raw window through Backfill (history for the
// roll-ups; the sync is the only writer of its devices, as Backfill requires), the rest
// through Write. Rejected readings (out of range) are logged and passed over.
func (w *Worker) write(ctx context.Context, samples []telemetry.Sample, now time.Time) error {
	raw := w.RawRetention
	if raw <= 0 {
		raw = telemetry.DefaultRawRetention
	}
	edge := now.Add(-raw + time.Hour) // an hour inside the window, so Write never calls one too_old
	i := 0
	for i < len(samples) && samples[i].Time.Before(edge) {
		i++
	}
	if i > 0 {
		old := samples[:i]
		res, err := w.Writer.Backfill(ctx, func(yield func([]telemetry.Sample) bool) { yield(old) })
		if err != nil {
			return fmt.Errorf("cloud: back-fill: %w", err)
		}
		if res.Rejected > 0 {
			slog.Info("cloud sync: history readings rejected", "device", old[0].DeviceID, "rejected", res.Rejected)
		}
	}
	if i < len(samples) {
		res, err := w.Writer.Write(ctx, "cloud", samples[i:])
		if err != nil {
			return fmt.Errorf("cloud: write: %w", err)
		}
		if res.Rejected > 0 {
			slog.Info("cloud sync: readings rejected", "device", samples[i].DeviceID, "rejected", res.Rejected)
		}
	}
	return nil
}

// deps is what the connection's connector is built with: its calls counted against the
// connection's budget, rotated credentials sealed back into the connection.
func (w *Worker) deps(ctx context.Context, c *Connection) Deps {
	return Deps{
		BaseURL: w.BaseURLs[c.Vendor],
		HTTP:    w.HTTP,
		Count:   func() error { return w.Store.spend(ctx, c.ID) },
		Save: func(ctx context.Context, credentials string) error {
			return w.Store.saveCredentials(ctx, c, credentials)
		},
		EnergyBefore: func(ctx context.Context, serial string, t time.Time) (float64, error) {
			return w.energyBefore(ctx, c.ID, serial, t)
		},
	}
}

// energyBefore is the stored lifetime counter of the connection's device of a serial
// number just before t (0: no such device, or no readings yet).
func (w *Worker) energyBefore(ctx context.Context, connID int64, serial string, t time.Time) (float64, error) {
	var dev int64
	err := w.Store.DB.QueryRow(ctx, "SELECT device_id FROM cloud_cursors WHERE connection_id = ? AND serial = ?", connID, serial).Scan(&dev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("cloud: unable to find device %s: %w", serial, err)
	}
	rd := telemetry.NewReader(w.Store.DB, telemetry.Options{Now: w.now, RawRetention: w.RawRetention})
	latest, err := rd.Latest(ctx, []int64{dev})
	if err != nil {
		return 0, fmt.Errorf("cloud: unable to read device %s's latest reading: %w", serial, err)
	}
	c, err := rd.CountersBefore(ctx, dev, latest[dev], t)
	if err != nil {
		return 0, fmt.Errorf("cloud: unable to read device %s's counter: %w", serial, err)
	}
	return c[0], nil
}
