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
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/notify"
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
	// Outbox receives the alarm events of the organisations' webhooks, in the transaction
	// of each change (optional).
	Outbox *notify.Outbox
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
			if err := e.recover(ctx, a, o.at, nowMs); err != nil {
				return opened, err
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

// recover closes the open alarm a at the instant at (with its event, when an outbox is set).
func (e *Engine) recover(ctx context.Context, a *openAlarm, at, nowMs int64) error {
	q := `UPDATE alarms SET status = 2, open_key = NULL, recovered_at = ?,
		last_alarm_at = CASE WHEN last_alarm_at < ? THEN ? ELSE last_alarm_at END, updated_at = ?
		WHERE id = ? AND open_key IS NOT NULL`
	var err error
	if e.opt.Outbox == nil {
		_, err = e.db.Exec(ctx, q, at, a.lastAt, a.lastAt, nowMs, a.id)
	} else {
		err = e.db.InTx(ctx, func(tx *store.Tx) error {
			res, err := tx.Exec(ctx, q, at, a.lastAt, a.lastAt, nowMs, a.id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // another replica recovered it: its event is written
			}
			var org int64
			if err := tx.QueryRow(ctx, "SELECT org_id FROM alarms WHERE id = ?", a.id).Scan(&org); err != nil {
				return err
			}
			return e.alarmEvent(ctx, tx, org, a.id, notify.AlarmRecovered)
		})
		if err == nil {
			e.opt.Outbox.Wrote()
		}
	}
	if err != nil {
		return fmt.Errorf("alarm: unable to recover: %w", err)
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
	q := `INSERT INTO alarms (org_id, station_id, device_id, device_sn, device_name, device_type,
		rule_key, alarm_type, level, status, deal_status, open_key, description, msg_key, msg_args, start_at, occurred_at,
		last_alarm_at, updated_at, notify_pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qargs := []any{o.dev.orgID, o.stationID, devID, o.devSN, o.devNam, o.devType, o.rule, r.Type, r.Level, o.key, desc, o.msgKey,
		string(args), o.start, nowMs, max(o.at, o.start), nowMs, pending}
	var id int64
	if e.opt.Outbox == nil {
		id, err = e.db.Insert(ctx, q, qargs...)
	} else {
		err = e.db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			if id, err = tx.Insert(ctx, q, qargs...); err != nil {
				return err
			}
			return e.alarmEvent(ctx, tx, o.dev.orgID, id, notify.AlarmRaised)
		})
		if err == nil {
			e.opt.Outbox.Wrote()
		}
	}
	if err != nil && !store.IsUniqueViolation(err) {
		return 0, "", fmt.Errorf("alarm: unable to open: %w", err)
	}
	return id, desc, err
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }
