package notify

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Webhook is an organisation's receiver of events. Its secret is answered only when it is
// made (adding, or rotating it).
type Webhook struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	URL       string    `json:"url"`
	Format    string    `json:"format" doc:"helio, teams or slack"`
	Events    []string  `json:"events"`
	Language  string    `json:"language" doc:"the language of the deliveries' texts"`
	Enabled   bool      `json:"enabled"`
	Secret    string    `json:"secret,omitempty" doc:"the signing secret: only in the answer that made it"`
	CreatedAt time.Time `json:"createTime"`
	// The last delivery's outcome: "" (none yet), pending, sent or failed.
	LastState string    `json:"lastState"`
	LastAt    time.Time `json:"lastTime"`
	Pending   int       `json:"pending" doc:"deliveries waiting for an attempt"`
}

// WebhookInput adds or edits a webhook.
type WebhookInput struct {
	Name         string   `json:"name" validate:"required"`
	URL          string   `json:"url" validate:"required" doc:"http or https"`
	Format       string   `json:"format" validate:"required" doc:"helio, teams or slack"`
	Events       []string `json:"events" validate:"required" doc:"at least one of alarm.raised, alarm.recovered, alarm.dealt, workorder.created, workorder.transitioned, report.ready"`
	Language     string   `json:"language" validate:"required"`
	Enabled      bool     `json:"enabled"`
	RotateSecret bool     `json:"rotateSecret" doc:"on an edit: make a new signing secret (answered once)"`
}

// ErrNameTaken: another webhook of the organisation has the name.
var ErrNameTaken = errors.New("notify: a webhook of this name exists")

// MaxWebhooks bounds an organisation's webhooks (each event is a delivery to each).
const MaxWebhooks = 50

// ErrTooMany: the organisation has MaxWebhooks webhooks.
var ErrTooMany = errors.New("notify: too many webhooks")

func validateInput(in *WebhookInput) error {
	var v httpapi.Validator
	in.Name, in.URL = strings.TrimSpace(in.Name), strings.TrimSpace(in.URL)
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, 100)
	}
	if v.Required("url", in.URL) {
		v.MaxLen("url", in.URL, 2000)
		if u, err := url.Parse(in.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			v.Add("url", "webhook_url_invalid")
		}
	}
	if v.Required("format", in.Format) {
		v.OneOf("format", in.Format, Formats...)
	}
	if v.Required("language", in.Language) {
		v.OneOf("language", in.Language, httpapi.Locales...)
	}
	if len(in.Events) == 0 {
		v.Add("events", "required")
	}
	for _, e := range in.Events {
		if !slices.Contains(Events, e) {
			v.Add("events", "one_of", strings.Join(Events, ", "))
			break
		}
	}
	return v.Err()
}

// eventsColumn writes the events as stored: in Events' order, commas around each.
func eventsColumn(list []string) string {
	var out []string
	for _, e := range Events {
		if slices.Contains(list, e) {
			out = append(out, e)
		}
	}
	return "," + strings.Join(out, ",") + ","
}

func newSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

// Store keeps the webhooks.
type Store struct {
	DB  *store.DB
	Now func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

const webhookColumns = `w.id, w.name, w.url, w.format, w.events, w.language, w.enabled, w.created_at,
	COALESCE((SELECT o.state FROM notify_outbox o WHERE o.channel = 'webhook' AND o.target_id = w.id ORDER BY o.id DESC LIMIT 1), ''),
	COALESCE((SELECT MAX(a.at) FROM notify_attempts a JOIN notify_outbox o ON o.id = a.outbox_id WHERE o.channel = 'webhook' AND o.target_id = w.id), 0),
	(SELECT COUNT(*) FROM notify_outbox o WHERE o.channel = 'webhook' AND o.target_id = w.id AND o.state = 'pending')`

type scanner interface{ Scan(dest ...any) error }

func scanWebhook(row scanner) (*Webhook, error) {
	var w Webhook
	var events string
	var enabled int
	var created, last int64
	if err := row.Scan(&w.ID, &w.Name, &w.URL, &w.Format, &events, &w.Language, &enabled, &created, &w.LastState, &last, &w.Pending); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, store.ErrNotFound
		}
		return nil, fmt.Errorf("notify: unable to read a webhook: %w", err)
	}
	w.Events = []string{}
	for _, e := range strings.Split(strings.Trim(events, ","), ",") {
		if e != "" {
			w.Events = append(w.Events, e)
		}
	}
	w.Enabled = enabled == 1
	w.CreatedAt = time.UnixMilli(created).UTC()
	if last != 0 {
		w.LastAt = time.UnixMilli(last).UTC()
	}
	return &w, nil
}

// List returns the organisation's webhooks by name.
func (s *Store) List(ctx context.Context, orgID int64) ([]*Webhook, error) {
	rows, err := s.DB.Query(ctx, "SELECT "+webhookColumns+" FROM webhooks w WHERE w.org_id = ? ORDER BY w.name, w.id", orgID)
	if err != nil {
		return nil, fmt.Errorf("notify: unable to list webhooks: %w", err)
	}
	defer rows.Close()
	out := []*Webhook{}
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// Get loads one webhook of the organisation (another's: store.ErrNotFound).
func (s *Store) Get(ctx context.Context, orgID, id int64) (*Webhook, error) {
	return scanWebhook(s.DB.QueryRow(ctx, "SELECT "+webhookColumns+" FROM webhooks w WHERE w.id = ? AND w.org_id = ?", id, orgID))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Create adds a webhook with a new secret (in the answer).
func (s *Store) Create(ctx context.Context, orgID int64, in WebhookInput) (*Webhook, error) {
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM webhooks WHERE org_id = ?", orgID).Scan(&n); err != nil {
		return nil, fmt.Errorf("notify: unable to count webhooks: %w", err)
	}
	if n >= MaxWebhooks {
		return nil, ErrTooMany
	}
	now := s.now().UnixMilli()
	secret := newSecret()
	id, err := s.DB.Insert(ctx, `INSERT INTO webhooks (org_id, name, url, format, events, language, secret, enabled, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, orgID, in.Name, in.URL, in.Format, eventsColumn(in.Events), in.Language, secret, boolInt(in.Enabled), now, now)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("notify: unable to add a webhook: %w", err)
	}
	w, err := s.Get(ctx, orgID, id)
	if err == nil {
		w.Secret = secret
	}
	return w, err
}

// Update changes a webhook (a new secret, in the answer, when asked).
func (s *Store) Update(ctx context.Context, orgID, id int64, in WebhookInput) (*Webhook, error) {
	now := s.now().UnixMilli()
	secret := ""
	if in.RotateSecret {
		secret = newSecret()
	}
	res, err := s.DB.Exec(ctx, `UPDATE webhooks SET name = ?, url = ?, format = ?, events = ?, language = ?, enabled = ?,
		secret = CASE WHEN ? = '' THEN secret ELSE ? END, updated_at = ? WHERE id = ? AND org_id = ?`,
		in.Name, in.URL, in.Format, eventsColumn(in.Events), in.Language, boolInt(in.Enabled), secret, secret, now, id, orgID)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("notify: unable to edit a webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, store.ErrNotFound
	}
	w, err := s.Get(ctx, orgID, id)
	if err == nil {
		w.Secret = secret
	}
	return w, err
}

// Delete removes a webhook and its deliveries (sent or not) with their log.
func (s *Store) Delete(ctx context.Context, orgID, id int64) error {
	return s.DB.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.Exec(ctx, "DELETE FROM webhooks WHERE id = ? AND org_id = ?", id, orgID)
		if err != nil {
			return fmt.Errorf("notify: unable to delete a webhook: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrNotFound
		}
		if _, err := tx.Exec(ctx, `DELETE FROM notify_attempts WHERE outbox_id IN
			(SELECT id FROM notify_outbox WHERE channel = 'webhook' AND target_id = ? AND org_id = ?)`, id, orgID); err != nil {
			return fmt.Errorf("notify: unable to delete a webhook's log: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM notify_outbox WHERE channel = 'webhook' AND target_id = ? AND org_id = ?", id, orgID); err != nil {
			return fmt.Errorf("notify: unable to delete a webhook's deliveries: %w", err)
		}
		return nil
	})
}

// Attempt is one try of a delivery, as the delivery log shows it.
type Attempt struct {
	DeliveryID string    `json:"deliveryId" doc:"the receiver's idempotency key (X-Helio-Delivery): the same on every attempt"`
	Event      string    `json:"event"`
	State      string    `json:"state" doc:"the delivery's: pending, sent or failed"`
	Attempt    int       `json:"attempt"`
	At         time.Time `json:"time"`
	Status     int       `json:"status" doc:"the receiver's HTTP status, 0 when none came"`
	DurationMs int       `json:"durationMs"`
	Error      string    `json:"error"`
	NextAt     time.Time `json:"nextTime" doc:"the next attempt of a pending delivery"`
}

// Log returns the webhook's latest attempts, newest first (at most limit), and its
// deliveries not tried yet.
func (s *Store) Log(ctx context.Context, orgID, id int64, limit int) ([]Attempt, error) {
	rows, err := s.DB.Query(ctx, `SELECT o.id, o.event, o.state, COALESCE(a.attempt, 0), COALESCE(a.at, o.created_at), COALESCE(a.status, 0),
		COALESCE(a.duration_ms, 0), COALESCE(a.error, ''), o.next_at
		FROM notify_outbox o LEFT JOIN notify_attempts a ON a.outbox_id = o.id
		WHERE o.channel = 'webhook' AND o.target_id = ? AND o.org_id = ?
		ORDER BY o.id DESC, a.attempt DESC LIMIT ?`, id, orgID, limit)
	if err != nil {
		return nil, fmt.Errorf("notify: unable to read the delivery log: %w", err)
	}
	defer rows.Close()
	out := []Attempt{}
	for rows.Next() {
		var a Attempt
		var oid, at, next int64
		if err := rows.Scan(&oid, &a.Event, &a.State, &a.Attempt, &at, &a.Status, &a.DurationMs, &a.Error, &next); err != nil {
			return nil, err
		}
		a.DeliveryID, a.At = DeliveryID(oid), time.UnixMilli(at).UTC()
		if a.State == "pending" {
			a.NextAt = time.UnixMilli(next).UTC()
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
