// Package alarm is the alarm engine and the /v2/warn calls: it watches the telemetry
// write path (Observe) and the silence of devices (Sweep) against per-organisation
// rules, opens one alarm per fault and recovers it when the condition clears, notifies
// users as their notification settings say, and serves the alarm lists, figures, deals
// and export. docs/alarms.md describes the rules and the notification semantics.
package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

var (
	openedTotal    = metrics.Default.NewCounter("helio_alarms_opened_total", "Alarms opened, by rule.", "rule")
	recoveredTotal = metrics.Default.NewCounter("helio_alarms_recovered_total", "Alarms recovered, by rule.", "rule")
	notifiedTotal  = metrics.Default.NewCounter("helio_alarm_notifications_total", "Alarm notifications decided, by outcome.", "outcome")
)

// AppPusher hands an alarm message to a mobile app push gateway (notification method
// 2). Helio ships none; without one, method 2 is recorded but nothing leaves the server.
type AppPusher interface {
	Push(ctx context.Context, userID int64, m message.Record) error
}

// Options configure an Engine.
type Options struct {
	// Now is the clock (default time.Now). Every decision is taken on it.
	Now func() time.Time
	// Messages stores the alarm messages (nil: nobody is notified).
	Messages *message.Store
	// AppPush receives the messages of users who chose app push (optional).
	AppPush AppPusher
	// NotifyWindow: an alarm whose notification became due longer ago than this is not
	// notified any more (default 24 h), so that a new user or a settings change does not
	// bring a flood of old alarms.
	NotifyWindow time.Duration
	// AsyncNotify runs the notification work of alarms opened by Observe on the engine's
	// own goroutine instead of the caller's (the write path's): Observe returns once the
	// alarms are stored. Settle waits for it.
	AsyncNotify bool
	// OnRecovered is told the alarms that recovered in one evaluation (optional; work
	// orders opened from them say so).
	OnRecovered func(ctx context.Context, alarmIDs []int64)
	// OnChange is told each alarm change once it is committed: an alarm opened or
	// recovered by the engine, or dealt through the API (optional; the fleet state keeps
	// the occurring alarms by it). The engine's changes come in the order of their
	// commits, with its lock held: it must not call back into the engine.
	OnChange func(Change)
}

// Engine raises and recovers alarms. Its methods are safe for concurrent use.
type Engine struct {
	db    *store.DB
	opt   Options
	rules *ruleCache

	// applyMu serialises evaluation and transitions within the process; the unique
	// open_key keeps replicas from opening the same alarm twice.
	applyMu    sync.Mutex
	devs       map[int64]*devInfo
	devsLoaded time.Time
	open       map[string]*openAlarm
	openLoaded time.Time
	lastEval   map[int64]int64
	grid       map[int64]*gridNominal
	async      notifier

	// notifyMu runs the notification passes one at a time; daily is theirs (the
	// notifications sent per user today, SQLite only).
	notifyMu sync.Mutex
	daily    map[int64]dayCount
	recipMu  sync.Mutex
	recips   map[int64]*orgRecipients
	// recipChanges counts Changed calls (recipients.go)
	recipChanges atomic.Uint64
}

// NewEngine returns an engine on a migrated database.
func NewEngine(db *store.DB, opt Options) *Engine {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.NotifyWindow <= 0 {
		opt.NotifyWindow = 24 * time.Hour
	}
	return &Engine{db: db, opt: opt, rules: &ruleCache{db: db, now: opt.Now, m: map[int64]ruleEntry{}},
		lastEval: map[int64]int64{}, grid: map[int64]*gridNominal{}}
}

func (e *Engine) now() time.Time { return e.opt.Now() }

// cacheTTL bounds how stale the device list and the set of open alarms may be (another
// replica's changes are seen within it).
const cacheTTL = 30 * time.Second

// devInfo is what the rules need to know about a device.
type devInfo struct {
	id, orgID, stationID, parentID int64
	typ, sn, name, collector       string
	kwp, ratedKW                   float64
	strings                        int
	lat, lng                       float64
}

func (e *Engine) loadDevices(ctx context.Context) error {
	rows, err := e.db.Query(ctx, `SELECT d.id, d.org_id, d.station_id, COALESCE(d.parent_id, 0), d.type, d.sn, d.name,
		d.collector_sn, d.component_capacity_kwp, d.rated_power_kw, d.strings_enabled, s.lat, s.lng
		FROM devices d JOIN stations s ON s.id = d.station_id`)
	if err != nil {
		return fmt.Errorf("alarm: unable to load devices: %w", err)
	}
	defer rows.Close()
	m := map[int64]*devInfo{}
	for rows.Next() {
		d := &devInfo{}
		if err := rows.Scan(&d.id, &d.orgID, &d.stationID, &d.parentID, &d.typ, &d.sn, &d.name, &d.collector,
			&d.kwp, &d.ratedKW, &d.strings, &d.lat, &d.lng); err != nil {
			return err
		}
		m[d.id] = d
	}
	if err := rows.Err(); err != nil {
		return err
	}
	e.devs, e.devsLoaded = m, e.now()
	return nil
}

func stale(loaded, now time.Time) bool {
	return loaded.IsZero() || now.Sub(loaded) >= cacheTTL || now.Before(loaded)
}

// openAlarm is an occurring alarm as the engine tracks it.
type openAlarm struct {
	id        int64
	deviceID  int64
	stationID int64
	startAt   int64
	lastAt    int64
	dirty     bool
}

func (e *Engine) loadOpen(ctx context.Context) error {
	rows, err := e.db.Query(ctx, "SELECT id, open_key, COALESCE(device_id, 0), station_id, start_at, last_alarm_at FROM alarms WHERE open_key IS NOT NULL")
	if err != nil {
		return fmt.Errorf("alarm: unable to load open alarms: %w", err)
	}
	defer rows.Close()
	m := map[string]*openAlarm{}
	for rows.Next() {
		a := &openAlarm{}
		var key string
		if err := rows.Scan(&a.id, &key, &a.deviceID, &a.stationID, &a.startAt, &a.lastAt); err != nil {
			return err
		}
		m[key] = a
	}
	if err := rows.Err(); err != nil {
		return err
	}
	e.open, e.openLoaded = m, e.now()
	return nil
}

// Conditions an observation reports.
const (
	condFalse = iota // the condition is clear: an open alarm recovers
	condTrue         // the condition holds: an alarm opens or carries on
)

// obs is one rule's verdict on one subject at one instant.
type obs struct {
	rule  string
	key   string // the alarm's open key: rule and subject
	cond  int
	at    int64 // when the verdict holds (unix ms)
	start int64 // when the condition began (for a new alarm)
	seq   int
	// dev is the device the verdict comes from; anyDevice lets a clear verdict from any
	// device recover the alarm (otherwise only the device that raised it can).
	dev       *devInfo
	anyDevice bool
	// Only for a new alarm.
	stationID              int64
	devType, devSN, devNam string
	msgKey                 string
	args                   []any
}

// Observe evaluates committed samples (DeviceID and Time set) against the rules. Call it
// after every committed batch of the live write path with the accepted samples. Samples
// of a device no newer than the last one evaluated are skipped.
func (e *Engine) Observe(ctx context.Context, samples []telemetry.Sample) error {
	if len(samples) == 0 {
		return nil
	}
	sorted := make([]*telemetry.Sample, len(samples))
	for i := range samples {
		sorted[i] = &samples[i]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Time.Before(sorted[j].Time) })

	e.applyMu.Lock()
	now := e.now()
	if err := e.refresh(ctx, now); err != nil {
		e.applyMu.Unlock()
		return err
	}
	e.bootstrapGrids(ctx, sorted)
	reloaded := false
	var list []obs
	for _, s := range sorted {
		d := e.devs[s.DeviceID]
		if d == nil && !reloaded {
			reloaded = true
			if err := e.loadDevices(ctx); err != nil {
				e.applyMu.Unlock()
				return err
			}
			d = e.devs[s.DeviceID]
		}
		if d == nil {
			continue
		}
		t := s.Time.UnixMilli()
		if last, ok := e.lastEval[d.id]; ok && t <= last {
			continue
		}
		e.lastEval[d.id] = t
		rules, err := e.rules.get(ctx, d.orgID)
		if err != nil {
			e.applyMu.Unlock()
			return err
		}
		out, err := e.evaluate(ctx, d, s, rules)
		if err != nil {
			e.applyMu.Unlock()
			return err
		}
		list = append(list, out...)
	}
	opened, err := e.apply(ctx, list, now)
	e.applyMu.Unlock()
	if err != nil {
		return err
	}
	if len(opened) > 0 {
		if e.opt.AsyncNotify {
			e.notifyLater(opened, now)
			return nil
		}
		return e.notifyOpened(ctx, opened, now)
	}
	return nil
}

// refresh reloads the device list and the open alarms when they are older than cacheTTL.
func (e *Engine) refresh(ctx context.Context, now time.Time) error {
	if e.devs == nil || stale(e.devsLoaded, now) {
		if err := e.loadDevices(ctx); err != nil {
			return err
		}
	}
	if e.open == nil || stale(e.openLoaded, now) {
		return e.loadOpen(ctx)
	}
	return nil
}

// apply turns verdicts into transitions and returns the ids of the alarms opened.
func (e *Engine) apply(ctx context.Context, list []obs, now time.Time) ([]int64, error) {
	for i := range list {
		list[i].seq = i
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].at < list[j].at })
	var opened, recovered []int64
	defer func() {
		if len(recovered) > 0 && e.opt.OnRecovered != nil {
			e.opt.OnRecovered(ctx, recovered)
		}
	}()
	nowMs := now.UnixMilli()
	for i := range list {
		o := &list[i]
		a := e.open[o.key]
		switch o.cond {
		case condTrue:
			if a != nil {
				if o.at > a.lastAt {
					a.lastAt, a.dirty = o.at, true
				}
				continue
			}
			rules, err := e.rules.get(ctx, o.dev.orgID)
			if err != nil {
				return opened, err
			}
			r := rules[o.rule]
			if r == nil || !r.Enabled {
				continue
			}
			id, desc, err := e.insert(ctx, o, r, nowMs)
			if store.IsUniqueViolation(err) {
				// Another replica opened it first: carry on with theirs.
				if err := e.loadOpen(ctx); err != nil {
					return opened, err
				}
				continue
			}
			if err != nil {
				return opened, err
			}
			e.open[o.key] = &openAlarm{id: id, deviceID: o.dev.id, stationID: o.stationID, startAt: o.start, lastAt: o.at}
			e.changed(Change{Kind: Opened, ID: id, StationID: o.stationID, StartAt: o.start, Description: desc})
			opened = append(opened, id)
			openedTotal.Inc(o.rule)
		case condFalse:
			if a == nil || (!o.anyDevice && a.deviceID != o.dev.id) {
				continue
			}
			// A clear verdict must be newer than the last time the condition held (for
			// silence: newer than the last sample heard before it).
			if ref := a.lastAt; o.rule == RuleOffline && o.at <= a.startAt || o.rule != RuleOffline && o.at <= ref {
				continue
			}
			if _, err := e.db.Exec(ctx, `UPDATE alarms SET status = 2, open_key = NULL, recovered_at = ?,
				last_alarm_at = CASE WHEN last_alarm_at < ? THEN ? ELSE last_alarm_at END, updated_at = ?
				WHERE id = ? AND open_key IS NOT NULL`, o.at, a.lastAt, a.lastAt, nowMs, a.id); err != nil {
				return opened, fmt.Errorf("alarm: unable to recover: %w", err)
			}
			delete(e.open, o.key)
			e.changed(Change{Kind: Recovered, ID: a.id, StationID: a.stationID, StartAt: a.startAt})
			recoveredTotal.Inc(o.rule)
			recovered = append(recovered, a.id)
		}
	}
	if err := e.writeLastSeen(ctx, nowMs); err != nil {
		return opened, err
	}
	return opened, nil
}

// lastSeenRows bounds the alarms of one last-seen UPDATE.
const lastSeenRows = 500

// writeLastSeen stores the new last-seen instants of the open alarms observed again,
// a statement per lastSeenRows alarms (a sweep with the whole fleet offline observes
// every open alarm again: one statement each cost it a commit each).
func (e *Engine) writeLastSeen(ctx context.Context, nowMs int64) error {
	var dirty []*openAlarm
	for _, a := range e.open {
		if a.dirty {
			dirty = append(dirty, a)
		}
	}
	for start := 0; start < len(dirty); start += lastSeenRows {
		chunk := dirty[start:min(start+lastSeenRows, len(dirty))]
		args := make([]any, 0, 1+2*len(chunk))
		args = append(args, nowMs)
		for _, a := range chunk {
			args = append(args, a.id, a.lastAt)
		}
		if _, err := e.db.Exec(ctx, `UPDATE alarms SET last_alarm_at = v.column2, updated_at = CAST(? AS BIGINT)
			FROM (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))`+strings.Repeat(", (?, ?)", len(chunk)-1)+`) AS v
			WHERE alarms.id = v.column1 AND alarms.last_alarm_at < v.column2 AND alarms.open_key IS NOT NULL`, args...); err != nil {
			return fmt.Errorf("alarm: unable to update: %w", err)
		}
		for _, a := range chunk {
			a.dirty = false
		}
	}
	return nil
}

func (e *Engine) insert(ctx context.Context, o *obs, r *Rule, nowMs int64) (int64, string, error) {
	args, err := json.Marshal(o.args)
	if err != nil {
		return 0, "", err
	}
	if o.args == nil {
		args = []byte("[]")
	}
	desc := httpapi.T("en-US", o.msgKey, o.args...)
	pending := 0
	if e.opt.Messages != nil {
		pending = 1 // until its first notification pass is written
	}
	var devID any
	if o.dev != nil && o.dev.id != 0 {
		devID = o.dev.id
	}
	id, err := e.db.Insert(ctx, `INSERT INTO alarms (org_id, station_id, device_id, device_sn, device_name, device_type,
		rule_key, alarm_type, level, status, deal_status, open_key, description, msg_key, msg_args, start_at, occurred_at,
		last_alarm_at, updated_at, notify_pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.dev.orgID, o.stationID, devID, o.devSN, o.devNam, o.devType, o.rule, r.Type, r.Level, o.key, desc, o.msgKey,
		string(args), o.start, nowMs, max(o.at, o.start), nowMs, pending)
	if err != nil && !store.IsUniqueViolation(err) {
		return 0, "", fmt.Errorf("alarm: unable to open: %w", err)
	}
	return id, desc, err
}

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

// ActiveByStation reports, for each given station with an occurring alarm (its own or a
// sub-station's), the description of the latest one. It fits monitor.Figures.Alarms; the
// caller has already filtered the stations by authority.
func (e *Engine) ActiveByStation(ctx context.Context, stationIDs []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(stationIDs) == 0 {
		return out, nil
	}
	listed := map[int64]bool{}
	args := make([]any, 0, 2*len(stationIDs))
	for _, id := range stationIDs {
		listed[id] = true
		args = append(args, id)
	}
	args = append(args, args...)
	ph := placeholders(len(stationIDs))
	rows, err := e.db.Query(ctx, `SELECT a.station_id, COALESCE(s.parent_id, 0), a.description, a.start_at, a.id
		FROM alarms a JOIN stations s ON s.id = a.station_id
		WHERE a.status = 1 AND (a.station_id IN (`+ph+`) OR s.parent_id IN (`+ph+`))`, args...)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read occurring alarms: %w", err)
	}
	defer rows.Close()
	type best struct{ start, id int64 }
	latest := map[int64]best{}
	put := func(st int64, desc string, b best) {
		if cur, ok := latest[st]; !ok || b.start > cur.start || b.start == cur.start && b.id > cur.id {
			latest[st] = b
			out[st] = desc
		}
	}
	for rows.Next() {
		var st, parent, start, id int64
		var desc string
		if err := rows.Scan(&st, &parent, &desc, &start, &id); err != nil {
			return nil, err
		}
		if listed[st] {
			put(st, desc, best{start, id})
		}
		if parent != 0 && listed[parent] {
			put(parent, desc, best{start, id})
		}
	}
	return out, rows.Err()
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }
