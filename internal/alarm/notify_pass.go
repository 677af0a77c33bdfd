package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
)

// pendingAlarm is an alarm that may be due for notification.
type pendingAlarm struct {
	id, orgID, stationID int64
	level                int
	start, recovered     int64 // recovered 0 while occurring
	pending              bool  // its first pass is not written yet
	rule, devName, devSN string
	stationName          string
	occurred             int64  // unix ms: the time every screen shows of the alarm
	timezone             string // its station's
	msgKey               string
	args                 []any
}

// due is a user and the alarms they are to be notified of now.
type due struct {
	r      *recipient
	alarms []pendingAlarm
}

// notifyGrace is how long the sweep leaves a new alarm's first pass to the engine that
// opened it before doing it itself (after a crash).
const notifyGrace = time.Minute

// notify decides the notifications that are due at now for the given alarms (nil: every
// occurring alarm that can still be due, and the first passes left undone) and sends
// them. A user is notified of an alarm once: when it has been occurring for the delay of
// their frequency, if its level is one they chose, its station is one they may see,
// notifications are allowed, and they have been sent fewer than their daily limit today
// (their local day). An alarm past the daily limit is recorded as limited and never sent.
//
// Recipients come from memory (recipientsOf). Under the organisations' locks the pass
// decides and takes the message ids, announces one batch per alarm, lets this replica
// write the frames first (announce), and then writes the decisions and messages a few
// hundred rows per statement, clearing the alarms' notify_pending with them. It returns
// the users who were sent a message in-site.
func (e *Engine) notify(ctx context.Context, ids []int64, now time.Time) (map[int64]bool, error) {
	if e.opt.Messages == nil {
		return nil, nil
	}
	e.notifyMu.Lock()
	defer e.notifyMu.Unlock()
	nowMs := now.UnixMilli()
	alarms, err := e.dueAlarms(ctx, ids, nowMs)
	if err != nil {
		return nil, err
	}
	clearIDs := ids
	if ids == nil {
		for _, a := range alarms {
			if a.pending {
				clearIDs = append(clearIDs, a.id)
			}
		}
	}
	if len(alarms) == 0 && len(clearIDs) == 0 {
		return nil, nil
	}
	byOrg := map[int64][]pendingAlarm{}
	var orgs []int64
	for _, a := range alarms {
		if _, ok := byOrg[a.orgID]; !ok {
			orgs = append(orgs, a.orgID)
		}
		byOrg[a.orgID] = append(byOrg[a.orgID], a)
	}
	sort.Slice(orgs, func(i, j int) bool { return orgs[i] < orgs[j] }) // lock order
	var work []due
	window := e.opt.NotifyWindow.Milliseconds()
	for _, org := range orgs {
		users, err := e.recipientsOf(ctx, org, byOrg[org], now)
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			if u.settings.Allowed != 1 {
				continue
			}
			delay := Delay(u.settings.Frequency).Milliseconds()
			var mine []pendingAlarm
			for _, a := range byOrg[org] {
				dueAt := a.start + delay
				if !u.settings.has(u.settings.Levels, a.level) || nowMs < dueAt || nowMs-dueAt > window ||
					a.recovered != 0 && dueAt > a.recovered || !u.visible[a.stationID] {
					continue
				}
				mine = append(mine, a)
			}
			if len(mine) > 0 {
				work = append(work, due{u, mine})
			}
		}
	}
	sort.Slice(work, func(i, j int) bool { return work[i].r.p.UserID < work[j].r.p.UserID })
	var p passPlan
	split := e.db.Dialect != store.Postgres
	err = e.db.InTx(ctx, func(tx *store.Tx) error {
		p = passPlan{clear: clearIDs, at: nowMs}
		if tx.Dialect == store.Postgres {
			// Replicas deciding for one organisation take turns, so the limits hold.
			for _, org := range orgs {
				if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(7340004, CAST(? AS INTEGER))", org%2147483647); err != nil {
					return err
				}
			}
		}
		if len(work) > 0 {
			if err := e.decide(ctx, tx, alarms, work, ids != nil, now, &p); err != nil {
				return err
			}
		}
		if split {
			return nil
		}
		e.announce(ctx, &p)
		return e.write(ctx, tx, &p)
	})
	if err == nil && split {
		// SQLite: the ids are taken; the frames go out, and once they are written the rows
		// follow in a transaction of their own, so that neither the frames nor ingest wait
		// on the rows (one process decides; notifyMu keeps the passes in turn). A crash in
		// between leaves the alarms' notify_pending set: the sweep decides them again.
		e.announce(ctx, &p)
		err = e.db.InTx(ctx, func(tx *store.Tx) error { return e.write(ctx, tx, &p) })
	}
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to notify: %w", err)
	}
	out := p.out
	e.countSent(out.sent)
	if len(p.noticed) > 0 {
		e.opt.Messages.Announce(ctx, p.noticed)
	}
	if len(p.mails) > 0 {
		e.opt.Outbox.Wrote()
	}
	if e.opt.AppPush != nil {
		for _, m := range out.app {
			if err := e.opt.AppPush.Push(ctx, m.UserID, m); err != nil {
				slog.Warn("alarm: app push failed", "user", m.UserID, "err", err)
			}
		}
	}
	return out.receivers, nil
}

// passOut is what a notification pass did.
type passOut struct {
	sent      map[int64]methodCounts // notifications sent per user and method
	receivers map[int64]bool
	app       []message.Record
}

// passPlan is a pass decided: the rows to write and the batches to announce.
type passPlan struct {
	out     passOut
	decs    []decision
	batches []*message.Batch
	orgOf   map[int64]int64 // alarm → organisation
	clear   []int64         // alarms whose notify_pending the pass clears
	at      int64           // the decisions' time, unix ms
	// notices tell users whose daily limit the pass reached (limit.go); written with the
	// decisions, announced after.
	notices []message.New
	noticed []message.Record
	// mails are the alarm e-mails (method 3) and app pushes (method 2) decided, written to
	// the outbox with the decisions
	mails []mailOut
}

// mailOut is one alarm e-mail or app push to a user.
type mailOut struct {
	user    int64
	alarm   pendingAlarm
	channel string
}

// frameWait bounds how long a pass lets its frames go first before writing its rows.
const frameWait = 250 * time.Millisecond

// decide takes the pass's decisions inside its transaction and reserves the ids of the
// in-site messages, whose batches (one per alarm) it prepares.
func (e *Engine) decide(ctx context.Context, tx *store.Tx, alarms []pendingAlarm, work []due, opened bool, now time.Time, p *passPlan) error {
	done, err := decided(ctx, tx, alarms)
	if err != nil {
		return err
	}
	counts, err := e.dailyCounts(ctx, tx, work, now)
	if err != nil {
		return err
	}
	out := &p.out
	out.sent, out.receivers = map[int64]methodCounts{}, map[int64]bool{}
	// Decide in order; the in-site messages of one alarm make one batch.
	inSite := map[int64][]int64{} // alarm → users
	p.orgOf = map[int64]int64{}
	var order []int64
	templates := map[int64]message.New{}
	for _, w := range work {
		uid := w.r.p.UserID
		n := counts[uid]
		st := &w.r.settings
		heldBefore := -1 // the methods held back earlier today, read at the first held here
		for _, a := range w.alarms {
			if done[[2]int64{a.id, uid}] {
				continue
			}
			// Each method counts its own day against its own limit.
			var sentBits, heldBits int
			for _, m := range []int{MethodInSite, MethodAppPush, MethodEmail} {
				if !st.has(st.Methods, m) {
					continue
				}
				if n[m] >= st.Limit(m) {
					heldBits |= bit(m)
					continue
				}
				n[m]++
				sentBits |= bit(m)
			}
			outcome := "sent"
			if sentBits == 0 {
				outcome = "limited"
			}
			p.decs = append(p.decs, decision{user: uid, alarm: a.id, outcome: outcome, methods: sentBits, held: heldBits})
			notifiedTotal.Inc(outcome)
			if heldBits != 0 {
				if heldBefore < 0 {
					b, err := heldToday(ctx, tx, uid, w.r.loc, now)
					if err != nil {
						return err
					}
					heldBefore = b
				}
				// The first alarm a method holds back today tells the user, once.
				for _, m := range []int{MethodInSite, MethodAppPush, MethodEmail} {
					if heldBits&bit(m) != 0 && heldBefore&bit(m) == 0 {
						p.notices = append(p.notices, limitNotice(a.orgID, uid, *st, w.r.loc, m))
					}
				}
				heldBefore |= heldBits
			}
			if sentBits == 0 {
				continue
			}
			c := out.sent[uid]
			for m := range c {
				if sentBits&bit(m) != 0 {
					c[m]++
				}
			}
			out.sent[uid] = c
			if _, ok := templates[a.id]; !ok {
				templates[a.id] = e.alarmMessage(a)
				p.orgOf[a.id] = a.orgID
				order = append(order, a.id)
			}
			if sentBits&bit(MethodEmail) != 0 && e.opt.Outbox != nil {
				p.mails = append(p.mails, mailOut{uid, a, notify.ChannelEmail})
			}
			byApp := sentBits&bit(MethodAppPush) != 0
			if byApp && e.opt.Outbox != nil {
				p.mails = append(p.mails, mailOut{uid, a, notify.ChannelPush})
			}
			inSiteToo := sentBits&bit(MethodInSite) != 0
			if inSiteToo {
				inSite[a.id] = append(inSite[a.id], uid)
				out.receivers[uid] = true
			} else if byApp {
				t := templates[a.id]
				out.app = append(out.app, message.Record{UserID: uid, Kind: t.Kind, Type: message.TypeNotice, Title: t.Title,
					SubTitle: t.SubTitle, Content: t.Content, Priority: t.Priority, AlarmID: t.AlarmID, Created: now.UTC(), Updated: now.UTC()})
			}
			if byApp && inSiteToo {
				out.app = append(out.app, message.Record{UserID: uid, AlarmID: a.id}) // filled from its batch below
			}
		}
	}
	total := 0
	for _, us := range inSite {
		total += len(us)
	}
	ids, err := e.opt.Messages.ReserveIDs(ctx, tx, total)
	if err != nil {
		return err
	}
	stored := map[[2]int64]message.Record{}
	for _, aid := range order {
		users := inSite[aid]
		if len(users) == 0 {
			continue
		}
		b, err := message.NewBatch(templates[aid], users, ids[:len(users)], now)
		if err != nil {
			return err
		}
		ids = ids[len(users):]
		b.Opened = opened
		p.batches = append(p.batches, b)
		for i, u := range b.Users {
			r := b.Message
			r.UserID, r.ID = u, b.IDs[i]
			stored[[2]int64{u, aid}] = r
		}
	}
	for i, m := range out.app {
		if m.ID == 0 && m.Kind == "" {
			out.app[i] = stored[[2]int64{m.UserID, m.AlarmID}]
		}
	}
	return nil
}

// announce sends the pass's frames and waits, up to frameWait, until this replica has
// written them, so that the rows written next do not hold them up.
func (e *Engine) announce(ctx context.Context, p *passPlan) {
	ds := make([]*message.Delivery, 0, len(p.batches))
	for _, b := range p.batches {
		if d := e.opt.Messages.AnnounceBatch(ctx, b); d != nil {
			ds = append(ds, d)
		}
	}
	if len(ds) > 0 && !message.Wait(ctx, time.Now().Add(frameWait), ds...) {
		framesLateTotal.Inc()
	}
}

// write writes a pass's decisions and messages, a few hundred rows per statement, and
// clears its alarms' notify_pending.
func (e *Engine) write(ctx context.Context, tx *store.Tx, p *passPlan) error {
	if err := recordDecisions(ctx, tx, p.decs, p.at); err != nil {
		return err
	}
	for _, b := range p.batches {
		if err := e.opt.Messages.InsertBatch(ctx, tx, p.orgOf[b.Message.AlarmID], b); err != nil {
			return err
		}
	}
	if len(p.notices) > 0 {
		recs, err := e.opt.Messages.InsertMany(ctx, tx, p.notices)
		if err != nil {
			return err
		}
		p.noticed = recs
	}
	if len(p.mails) > 0 {
		rows := make([]notify.Row, len(p.mails))
		events := map[int64]json.RawMessage{} // an alarm's event once, for all its users
		for i, m := range p.mails {
			ev, ok := events[m.alarm.id]
			if !ok {
				b, err := json.Marshal(m.alarm.event())
				if err != nil {
					return err
				}
				ev = b
				events[m.alarm.id] = ev
			}
			rows[i] = notify.Row{OrgID: m.alarm.orgID, Channel: m.channel, Target: m.user, Event: notify.AlarmRaised, SubjectID: m.alarm.id, Data: ev}
		}
		if err := e.opt.Outbox.DirectMany(ctx, tx, rows); err != nil {
			return err
		}
	}
	for start := 0; start < len(p.clear); start += 500 {
		chunk := p.clear[start:min(start+500, len(p.clear))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		if _, err := tx.Exec(ctx, "UPDATE alarms SET notify_pending = 0 WHERE notify_pending = 1 AND id IN ("+
			placeholders(len(chunk))+")", args...); err != nil {
			return fmt.Errorf("alarm: unable to mark notified: %w", err)
		}
	}
	return nil
}
