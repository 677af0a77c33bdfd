package alarm

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The sweep: offline alarms raised by silence (a device, or a whole collector, that stopped
// reporting) and the notifications that became due, on one replica at a time.

// Sweep judges silence at instant now: a device with no sample for the offline rule's
// minutes opens an offline alarm, or one alarm for its collector when every device behind
// the collector is silent. It then sends the notifications that have become due. Run it
// every minute (RunSweeper does).
func (e *Engine) Sweep(ctx context.Context, now time.Time) error {
	e.applyMu.Lock()
	if err := e.loadOpen(ctx); err != nil {
		e.applyMu.Unlock()
		return err
	}
	if e.devs == nil || stale(e.devsLoaded, now) {
		if err := e.loadDevices(ctx); err != nil {
			e.applyMu.Unlock()
			return err
		}
	}
	list, err := e.silence(ctx, now)
	if err != nil {
		e.applyMu.Unlock()
		return err
	}
	opened, err := e.apply(ctx, list, now)
	e.applyMu.Unlock()
	if err != nil {
		return err
	}
	e.openedChanged(ctx, opened, nil) // the notification pass below covers them
	_, err = e.notify(ctx, nil, now)
	return err
}

// silence builds the offline verdicts from the devices' latest samples.
func (e *Engine) silence(ctx context.Context, now time.Time) ([]obs, error) {
	rows, err := e.db.Query(ctx, "SELECT device_id, ts, status FROM telemetry_latest")
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read latest samples: %w", err)
	}
	type seen struct {
		d      *devInfo
		ts     int64
		status int
	}
	var all []seen
	for rows.Next() {
		var id, ts int64
		var status int
		if err := rows.Scan(&id, &ts, &status); err != nil {
			rows.Close()
			return nil, err
		}
		if d := e.devs[id]; d != nil {
			all = append(all, seen{d, ts, status})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	nowMs := now.UnixMilli()
	limit := map[int64]int64{}
	for _, s := range all {
		if _, ok := limit[s.d.orgID]; !ok {
			rules, err := e.rules.get(ctx, s.d.orgID)
			if err != nil {
				return nil, err
			}
			limit[s.d.orgID] = int64(rules[RuleOffline].P("minutes") * 60000)
		}
	}
	type group struct {
		members  []seen
		freshest int64
	}
	groups := map[string]*group{}
	var order []string
	var out []obs
	for _, s := range all {
		if s.d.collector == "" {
			continue
		}
		k := collectorKey(s.d.orgID, s.d.collector)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		g.members = append(g.members, s)
		g.freshest = max(g.freshest, s.ts)
	}
	sort.Strings(order)
	for _, k := range order {
		g := groups[k]
		first := g.members[0]
		for _, m := range g.members[1:] {
			if m.d.id < first.d.id {
				first = m
			}
		}
		lim := limit[first.d.orgID]
		if nowMs-g.freshest > lim {
			out = append(out, obs{rule: RuleOffline, key: k, cond: condTrue, at: nowMs, start: g.freshest, dev: first.d,
				stationID: first.d.stationID, devType: "collector", devSN: first.d.collector, devNam: first.d.collector,
				msgKey: "alarm_desc_collector_offline", args: []any{first.d.collector, len(g.members), int(lim / 60000)}})
		} else {
			out = append(out, obs{rule: RuleOffline, key: k, cond: condFalse, at: g.freshest, dev: first.d, anyDevice: true})
		}
	}
	for _, s := range all {
		lim := limit[s.d.orgID]
		key := deviceKey(RuleOffline, s.d.id)
		ref := nowMs
		if g := groups[collectorKey(s.d.orgID, s.d.collector)]; g != nil && s.d.collector != "" {
			// Behind a collector a device is offline only while the collector delivers
			// for its other devices: when all go quiet together it is the collector.
			if nowMs-g.freshest > lim {
				continue
			}
			ref = g.freshest
		}
		switch {
		case s.status == telemetry.StatusCommsLost:
			// judged from the samples by Observe
		case ref-s.ts > lim && nowMs-s.ts > lim:
			out = append(out, obs{rule: RuleOffline, key: key, cond: condTrue, at: nowMs, start: s.ts, dev: s.d,
				stationID: s.d.stationID, devType: s.d.typ, devSN: s.d.sn, devNam: s.d.name,
				msgKey: "alarm_desc_offline", args: []any{int(lim / 60000)}})
		case nowMs-s.ts <= lim:
			out = append(out, obs{rule: RuleOffline, key: key, cond: condFalse, at: s.ts, dev: s.d, anyDevice: true})
		}
	}
	return out, nil
}

func deviceKey(rule string, id int64) string { return rule + ":d" + strconv.FormatInt(id, 10) }

func stationKey(rule string, id int64) string {
	return rule + ":s" + strconv.FormatInt(id, 10)
}

func collectorKey(org int64, sn string) string {
	return RuleOffline + ":c" + strconv.FormatInt(org, 10) + ":" + sn
}

// RunSweeper calls Sweep every interval (default one minute) until ctx ends. On
// PostgreSQL only the replica holding the sweep lock sweeps.
func (e *Engine) RunSweeper(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = time.Minute
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := e.sweepOnce(ctx); err != nil && ctx.Err() == nil {
			slog.Error("alarm sweep failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepLockKey is the PostgreSQL advisory lock that makes the sweep a singleton.
const sweepLockKey = 7340005

func (e *Engine) sweepOnce(ctx context.Context) error {
	if e.db.Dialect != store.Postgres {
		return e.Sweep(ctx, e.now())
	}
	conn, err := e.db.SQL.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", sweepLockKey).Scan(&got); err != nil {
		return err
	}
	if !got {
		return nil
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", sweepLockKey)
	return e.Sweep(ctx, e.now())
}
