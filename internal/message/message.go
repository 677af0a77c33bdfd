// Package message is the message centre: the alarm, work-order and system messages a
// user receives, their read state, the unread and unprocessed-alarm counters, and the
// events that tell live connections (package push) about new messages.
package message

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Kinds of message (SPEC.md section 3: alarm, work order, system), sent as messageType.
const (
	KindAlarm     = "alarm"
	KindWorkOrder = "workorder"
	KindSystem    = "system"
)

// Kinds lists the message kinds.
var Kinds = []string{KindAlarm, KindWorkOrder, KindSystem}

// Display types of a message (SPEC.md section 3: message, notice or todo).
const (
	TypeMessage = "message"
	TypeNotice  = "notice"
	TypeTodo    = "todo"
)

// Read states.
const (
	Unread = 0
	Read   = 1
)

// Process statuses a message can carry (SPEC.md section 4, message statuses).
var ProcessStatuses = []string{"pending", "pending_accept", "processing", "pending_verify",
	"pending_evaluate", "rejected", "finished", "revoked", "processed"}

// Text is a message key with its arguments, translated when the message is read, or
// plain text (a Key that is not in the catalogue is shown as it is).
type Text struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
}

// Plain is text shown as it is.
func Plain(s string) Text { return Text{Key: s} }

// In renders the text for a locale.
func (t Text) In(locale string) string {
	if t.Key == "" {
		return ""
	}
	if !httpapi.HasMessage(t.Key) {
		return t.Key
	}
	return httpapi.T(locale, t.Key, t.Args...)
}

// New is a message to create for one user.
type New struct {
	UserID   int64
	OrgID    int64
	Kind     string // KindAlarm, KindWorkOrder or KindSystem
	Type     string // TypeMessage, TypeNotice or TypeTodo (default by kind)
	Title    Text
	SubTitle Text
	Content  Text
	Avatar   string
	Priority int // 1 low, 2 normal, 3 urgent, 4 very urgent (default 2)
	// ProcessStatus is one of ProcessStatuses or "".
	ProcessStatus string
	TimeoutStatus int
	// AlarmID links an alarm message to its alarm; RefID names the work order (or other
	// object) a message is about.
	AlarmID int64
	RefID   int64
	// EventAt is the instant the message is about (an alarm's occurrence; zero: the
	// message's own time), and Zone the IANA zone its reader sees it in (the station's).
	EventAt time.Time
	Zone    string
}

// Record is a stored message in its language-neutral form. It travels on the event bus
// and is rendered per reader with Render.
type Record struct {
	ID            int64     `json:"id"`
	UserID        int64     `json:"userId"`
	Kind          string    `json:"kind"`
	Type          string    `json:"type"`
	Title         Text      `json:"title"`
	SubTitle      Text      `json:"subTitle"`
	Content       Text      `json:"content"`
	Avatar        string    `json:"avatar"`
	Status        int       `json:"status"`
	Priority      int       `json:"priority"`
	ProcessStatus string    `json:"processStatus"`
	TimeoutStatus int       `json:"timeoutStatus"`
	AlarmID       int64     `json:"alarmId"`
	RefID         int64     `json:"refId"`
	Created       time.Time `json:"created"`
	Updated       time.Time `json:"updated"`
	// EventAt is the instant the message is about (zero: none), Zone the zone it is
	// shown in ("": the reader's).
	EventAt time.Time `json:"eventAt"`
	Zone    string    `json:"zone,omitempty"`
}

// Message is a message as the console shows it (SPEC.md section 3).
type Message struct {
	ID            int64     `json:"id"`
	Type          string    `json:"type" doc:"message, notice or todo"`
	Title         string    `json:"title"`
	SubTitle      string    `json:"subTitle"`
	Avatar        string    `json:"avatar"`
	Content       string    `json:"content"`
	Time          time.Time `json:"time"`
	MessageType   string    `json:"messageType" doc:"alarm, workorder or system"`
	Status        int       `json:"status" doc:"0 unread, 1 read"`
	Priority      int       `json:"priority" doc:"1 low, 2 normal, 3 urgent, 4 very urgent"`
	UpdateTime    time.Time `json:"updateTime"`
	TimeoutStatus int       `json:"timeoutStatus" doc:"0 not timed out, 1 timed out"`
	ProcessStatus string    `json:"processStatus" doc:"pending, pending_accept, processing, pending_verify, pending_evaluate, rejected, finished, revoked, processed, or empty"`
	AlarmID       int64     `json:"alarmId" doc:"the alarm an alarm message is about (0 otherwise)"`
	RefID         int64     `json:"refId" doc:"the work order or other object the message is about (0 otherwise)"`
	// EventTime is when what the message is about happened (an alarm's occurrence), shown
	// in Timezone (the station's) as every screen shows it; absent: the message's time.
	EventTime *time.Time `json:"eventTime,omitempty" doc:"when what the message is about happened (an alarm's occurrence)"`
	Timezone  string     `json:"timezone" doc:"IANA zone of the station the message is about (empty: none)"`
}

// Render gives the message in a locale.
func (r *Record) Render(locale string) Message {
	m := Message{
		ID: r.ID, Type: r.Type, Title: r.Title.In(locale), SubTitle: r.SubTitle.In(locale), Avatar: r.Avatar,
		Content: r.Content.In(locale), Time: r.Created, MessageType: r.Kind, Status: r.Status, Priority: r.Priority,
		UpdateTime: r.Updated, TimeoutStatus: r.TimeoutStatus, ProcessStatus: r.ProcessStatus, AlarmID: r.AlarmID, RefID: r.RefID,
	}
	if !r.EventAt.IsZero() {
		at := r.EventAt
		m.EventTime = &at
	}
	m.Timezone = r.Zone
	return m
}

// Event tells every replica's live connections about new messages or changed counters.
type Event struct {
	// Messages are new messages (each for its UserID).
	Messages []Record `json:"messages,omitempty"`
	// CountsOf lists users whose counters changed for another reason (messages read, an
	// alarm processed).
	CountsOf []int64 `json:"countsOf,omitempty"`
	// Live lists organisations whose stations' live figures changed (samples committed):
	// their connections get a "live" frame and read the figures again.
	Live []int64 `json:"live,omitempty"`
	// Orders lists organisations whose work orders changed (opened, moved, assigned): their
	// connections get an "orders" frame and read their orders and alarms again.
	Orders []int64 `json:"orders,omitempty"`
	// Batch is one message to many users (rendered once per locale).
	Batch *Batch `json:"batch,omitempty"`
}

// Publisher carries events to the live connections of every replica (push.Hub).
type Publisher interface {
	Publish(ctx context.Context, ev Event) error
}

// Store keeps messages.
type Store struct {
	DB *store.DB
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Pub is told about new messages and changed counters (nil: nobody is).
	Pub Publisher
	// Pending counts each user's unprocessed alarms in the user's station authority; when
	// set it is the unprocessedAlarm counter (nil: alarm messages not yet processed).
	Pending func(ctx context.Context, userIDs []int64) (map[int64]int, error)
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ErrInvalid is returned by Insert for a message with an unknown kind, type or status.
var ErrInvalid = errors.New("message: invalid message")

func defaultType(kind string) string {
	switch kind {
	case KindAlarm:
		return TypeNotice
	case KindWorkOrder:
		return TypeTodo
	}
	return TypeMessage
}

type storedArgs struct {
	Title    []any `json:"title,omitempty"`
	SubTitle []any `json:"subTitle,omitempty"`
	Content  []any `json:"content,omitempty"`
	// At (unix ms) and Zone are Record.EventAt and Record.Zone.
	At   int64  `json:"at,omitempty"`
	Zone string `json:"zone,omitempty"`
}

// stored is what of r is kept in the args column.
func stored(title, subTitle, content []any, at time.Time, zone string) storedArgs {
	a := storedArgs{Title: title, SubTitle: subTitle, Content: content, Zone: zone}
	if !at.IsZero() {
		a.At = at.UnixMilli()
	}
	return a
}

// Insert stores one message inside a transaction and returns it. Call Announce with it
// after the commit.
func (s *Store) Insert(ctx context.Context, tx *store.Tx, n New) (Record, error) {
	recs, err := s.InsertMany(ctx, tx, []New{n})
	if err != nil {
		return Record{}, err
	}
	return recs[0], nil
}

// insertColumns is the column list of a message row, and the number of its values.
const (
	insertColumns = `user_id, org_id, kind, type, title, sub_title, avatar, content, args, status, priority,
		process_status, timeout_status, alarm_id, ref_id, created_at, updated_at`
	insertArity = 17
)

// InsertMany stores messages inside a transaction with a few multi-row statements and
// returns them in the given order. Call Announce with them after the commit.
func (s *Store) InsertMany(ctx context.Context, tx *store.Tx, news []New) ([]Record, error) {
	out := make([]Record, len(news))
	now := s.now().UTC().Truncate(time.Millisecond)
	type key struct {
		user, alarm, ref int64
		kind, title      string
	}
	for start := 0; start < len(news); {
		// A chunk holds rows that RETURNING can tell apart (and stays well under the
		// drivers' parameter limits).
		seen := map[key]int{}
		end := start
		var vals []string
		var args []any
		for end < len(news) && end-start < 200 {
			n := &news[end]
			if n.Type == "" {
				n.Type = defaultType(n.Kind)
			}
			if n.Priority == 0 {
				n.Priority = 2
			}
			if !n.valid() {
				return nil, ErrInvalid
			}
			k := key{n.UserID, n.AlarmID, n.RefID, n.Kind, n.Title.Key}
			if _, dup := seen[k]; dup {
				break
			}
			seen[k] = end
			a, err := json.Marshal(stored(n.Title.Args, n.SubTitle.Args, n.Content.Args, n.EventAt, n.Zone))
			if err != nil {
				return nil, fmt.Errorf("message: unable to encode arguments: %w", err)
			}
			var alarm any
			if n.AlarmID != 0 {
				alarm = n.AlarmID
			}
			vals = append(vals, "(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, n.UserID, n.OrgID, n.Kind, n.Type, n.Title.Key, n.SubTitle.Key, n.Avatar, n.Content.Key,
				string(a), n.Priority, n.ProcessStatus, n.TimeoutStatus, alarm, n.RefID, now.UnixMilli(), now.UnixMilli())
			end++
		}
		rows, err := tx.Query(ctx, "INSERT INTO messages ("+insertColumns+") VALUES "+strings.Join(vals, ", ")+
			" RETURNING id, user_id, COALESCE(alarm_id, 0), ref_id, kind, title", args...)
		if err != nil {
			return nil, fmt.Errorf("message: unable to insert: %w", err)
		}
		got := 0
		for rows.Next() {
			var id int64
			var k key
			if err := rows.Scan(&id, &k.user, &k.alarm, &k.ref, &k.kind, &k.title); err != nil {
				rows.Close()
				return nil, err
			}
			i, ok := seen[k]
			if !ok {
				rows.Close()
				return nil, fmt.Errorf("message: unexpected row returned")
			}
			n := &news[i]
			out[i] = Record{ID: id, UserID: n.UserID, Kind: n.Kind, Type: n.Type, Title: n.Title, SubTitle: n.SubTitle,
				Content: n.Content, Avatar: n.Avatar, Priority: n.Priority, ProcessStatus: n.ProcessStatus,
				TimeoutStatus: n.TimeoutStatus, AlarmID: n.AlarmID, RefID: n.RefID, Created: now, Updated: now,
				EventAt: eventAt(n.EventAt), Zone: n.Zone}
			got++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if got != end-start {
			return nil, fmt.Errorf("message: %d of %d rows returned", got, end-start)
		}
		start = end
	}
	return out, nil
}

func (n *New) valid() bool {
	return contains(Kinds, n.Kind) && contains([]string{TypeMessage, TypeNotice, TypeTodo}, n.Type) &&
		n.Priority >= 1 && n.Priority <= 4 && (n.ProcessStatus == "" || contains(ProcessStatuses, n.ProcessStatus)) &&
		n.UserID > 0 && n.OrgID > 0 && n.Title.Key != ""
}

// Create stores messages in one transaction and announces them.
func (s *Store) Create(ctx context.Context, msgs ...New) ([]Record, error) {
	var out []Record
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		var err error
		out, err = s.InsertMany(ctx, tx, msgs)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Announce(ctx, out)
	return out, nil
}

// Announce publishes new messages to the live connections (errors are logged by the
// publisher; a message is stored whether or not anyone was connected).
func (s *Store) Announce(ctx context.Context, recs []Record) {
	if s.Pub == nil || len(recs) == 0 {
		return
	}
	_ = s.Pub.Publish(ctx, Event{Messages: recs})
}

// CountsChanged tells the users' live connections to refresh their counters.
func (s *Store) CountsChanged(ctx context.Context, userIDs []int64) {
	if s.Pub == nil || len(userIDs) == 0 {
		return
	}
	_ = s.Pub.Publish(ctx, Event{CountsOf: userIDs})
}

// SessionStart returns when the session with the given token hash began.
func (s *Store) SessionStart(ctx context.Context, tokenHash string) (time.Time, error) {
	var ms int64
	err := s.DB.QueryRow(ctx, "SELECT created_at FROM sessions WHERE token_hash = ?", tokenHash).Scan(&ms)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, store.ErrNotFound
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("message: unable to read the session: %w", err)
	}
	return time.UnixMilli(ms).UTC(), nil
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
