package cloud

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Connection states, as the administrator sees them.
const (
	StateNew      = "new"      // no device confirmed yet: nothing to sync
	StateBackfill = "backfill" // history is being loaded
	StateLive     = "live"     // caught up, following
	StateQuota    = "quota"    // the day's calls are spent; resumes the next day
	StateRetrying = "retrying" // the vendor failed (5xx, network); backing off
	StateRefused  = "refused"  // the vendor refused the credentials: new ones are needed
)

// Connection is an organisation's link to a vendor cloud. Its credentials are never part
// of it: they stay sealed in the database and are opened only to make calls.
type Connection struct {
	ID          int64     `json:"id"`
	Vendor      string    `json:"vendor"`
	Name        string    `json:"name"`
	State       string    `json:"state" doc:"new, backfill, live, quota, retrying or refused"`
	LastError   string    `json:"lastError" doc:"the last failure, empty once a sync succeeds"`
	DailyBudget int       `json:"dailyBudget" doc:"calls a day Helio allows itself with this key"`
	QuotaUsed   int       `json:"quotaUsed" doc:"calls made today (UTC day)"`
	NextSync    time.Time `json:"nextSync"`
	LastSync    time.Time `json:"lastSync" doc:"zero: never"`
	Devices     int       `json:"devices" doc:"devices synced through it"`
	CreateTime  time.Time `json:"createTime"`

	OrgID    int64  `json:"-"`
	QuotaDay string `json:"-"`
	Failures int    `json:"-"`
	sealed   string
}

const connColumns = `c.id, c.org_id, c.vendor, c.name, c.sealed_credentials, c.state, c.last_error, c.daily_budget,
	c.quota_day, c.quota_used, c.failures, c.next_sync_at, c.last_sync_at, c.created_at,
	(SELECT COUNT(*) FROM cloud_cursors k WHERE k.connection_id = c.id)`

func scanConn(row interface{ Scan(...any) error }, today string) (*Connection, error) {
	var c Connection
	var next, last, created int64
	err := row.Scan(&c.ID, &c.OrgID, &c.Vendor, &c.Name, &c.sealed, &c.State, &c.LastError, &c.DailyBudget,
		&c.QuotaDay, &c.QuotaUsed, &c.Failures, &next, &last, &created, &c.Devices)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("cloud: unable to read a connection: %w", err)
	}
	if c.QuotaDay != today {
		c.QuotaUsed = 0 // a new day: yesterday's count is spent
	}
	c.NextSync, c.CreateTime = time.UnixMilli(next).UTC(), time.UnixMilli(created).UTC()
	if last > 0 {
		c.LastSync = time.UnixMilli(last).UTC()
	}
	return &c, nil
}

// quotaDay names the day a call counts against: the vendors count per day, taken in UTC.
func quotaDay(t time.Time) string { return t.UTC().Format("2006-01-02") }

// bound ties sealed credentials to their organisation.
func bound(orgID int64) string { return "org:" + strconv.FormatInt(orgID, 10) }

// Store keeps connections and cursors.
type Store struct {
	DB     *store.DB
	Sealer *Sealer
	Now    func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Create stores a new connection with its credentials sealed.
func (s *Store) Create(ctx context.Context, orgID int64, vendor, name, credentials string, budget int) (*Connection, error) {
	sealed, err := s.Sealer.Seal(credentials, bound(orgID))
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	id, err := s.DB.Insert(ctx, `INSERT INTO cloud_connections (org_id, vendor, name, sealed_credentials, state, daily_budget,
		next_sync_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		orgID, vendor, name, sealed, StateNew, budget, now, now, now)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("cloud: unable to store the connection: %w", err)
	}
	return s.Get(ctx, orgID, id)
}

// ErrNameTaken: the organisation has a connection of that name.
var ErrNameTaken = errors.New("cloud: a connection of that name exists")

// Update changes name and budget, and the credentials when given (non-empty). New
// credentials clear a refusal: the connection syncs again at once.
func (s *Store) Update(ctx context.Context, orgID, id int64, name, credentials string, budget int) (*Connection, error) {
	c, err := s.Get(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	sealed, state, lastErr, next := c.sealed, c.State, c.LastError, c.NextSync.UnixMilli()
	if credentials != "" {
		if sealed, err = s.Sealer.Seal(credentials, bound(orgID)); err != nil {
			return nil, err
		}
		if state == StateRefused || state == StateRetrying {
			state, lastErr, next = StateBackfill, "", s.now().UnixMilli()
		}
	}
	_, err = s.DB.Exec(ctx, `UPDATE cloud_connections SET name = ?, sealed_credentials = ?, daily_budget = ?, state = ?,
		last_error = ?, failures = 0, next_sync_at = ?, updated_at = ? WHERE id = ? AND org_id = ?`,
		name, sealed, budget, state, lastErr, next, s.now().UnixMilli(), id, orgID)
	if store.IsUniqueViolation(err) {
		return nil, ErrNameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("cloud: unable to update the connection: %w", err)
	}
	return s.Get(ctx, orgID, id)
}

// Delete removes a connection and its cursors (the devices and their data stay).
func (s *Store) Delete(ctx context.Context, orgID, id int64) error {
	res, err := s.DB.Exec(ctx, "DELETE FROM cloud_connections WHERE id = ? AND org_id = ?", id, orgID)
	if err != nil {
		return fmt.Errorf("cloud: unable to delete the connection: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// Get loads one connection of the organisation.
func (s *Store) Get(ctx context.Context, orgID, id int64) (*Connection, error) {
	return scanConn(s.DB.QueryRow(ctx, "SELECT "+connColumns+" FROM cloud_connections c WHERE c.id = ? AND c.org_id = ?", id, orgID),
		quotaDay(s.now()))
}

// List returns the organisation's connections by name.
func (s *Store) List(ctx context.Context, orgID int64) ([]*Connection, error) {
	return s.query(ctx, "SELECT "+connColumns+" FROM cloud_connections c WHERE c.org_id = ? ORDER BY c.name, c.id", orgID)
}

// due returns every organisation's connections whose next sync has come.
func (s *Store) due(ctx context.Context) ([]*Connection, error) {
	return s.query(ctx, "SELECT "+connColumns+` FROM cloud_connections c WHERE c.next_sync_at <= ? AND c.state <> ?
		ORDER BY c.next_sync_at, c.id`, s.now().UnixMilli(), StateRefused)
}

func (s *Store) query(ctx context.Context, q string, args ...any) ([]*Connection, error) {
	rows, err := s.DB.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("cloud: unable to list connections: %w", err)
	}
	defer rows.Close()
	out := []*Connection{}
	today := quotaDay(s.now())
	for rows.Next() {
		c, err := scanConn(rows, today)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// credentials opens the connection's credentials.
func (s *Store) credentials(c *Connection) (string, error) {
	return s.Sealer.Open(c.sealed, bound(c.OrgID))
}

// OpenCredentials opens the connection's credentials for the server's own use (the demo
// hands a rotated token back to its stand-in); no call answers them to a client.
func (s *Store) OpenCredentials(c *Connection) (string, error) { return s.credentials(c) }

// saveCredentials seals new credentials into the connection without touching its state: a
// vendor rotated its token mid-sync.
func (s *Store) saveCredentials(ctx context.Context, c *Connection, credentials string) error {
	sealed, err := s.Sealer.Seal(credentials, bound(c.OrgID))
	if err != nil {
		return err
	}
	if _, err := s.DB.Exec(ctx, "UPDATE cloud_connections SET sealed_credentials = ?, updated_at = ? WHERE id = ? AND org_id = ?",
		sealed, s.now().UnixMilli(), c.ID, c.OrgID); err != nil {
		return fmt.Errorf("cloud: unable to store the rotated credentials: %w", err)
	}
	c.sealed = sealed
	return nil
}

// spend counts one call against the connection's budget for today, in the database so
// that every replica and restart sees it; ErrQuota when the budget is spent.
func (s *Store) spend(ctx context.Context, id int64) error {
	day := quotaDay(s.now())
	res, err := s.DB.Exec(ctx, `UPDATE cloud_connections
		SET quota_used = CASE WHEN quota_day = ? THEN quota_used + 1 ELSE 1 END, quota_day = ?
		WHERE id = ? AND (quota_day <> ? OR quota_used < daily_budget)`, day, day, id, day)
	if err != nil {
		return fmt.Errorf("cloud: unable to count a call: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrQuota
	}
	return nil
}

// used is today's count of calls.
func (s *Store) used(ctx context.Context, id int64) (int, error) {
	var day string
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT quota_day, quota_used FROM cloud_connections WHERE id = ?", id).Scan(&day, &n); err != nil {
		return 0, fmt.Errorf("cloud: unable to read the quota: %w", err)
	}
	if day != quotaDay(s.now()) {
		return 0, nil
	}
	return n, nil
}

// setState records the outcome of a sync.
func (s *Store) setState(ctx context.Context, id int64, state, lastErr string, failures int, next time.Time, synced bool) error {
	q := "UPDATE cloud_connections SET state = ?, last_error = ?, failures = ?, next_sync_at = ?, updated_at = ?"
	now := s.now().UnixMilli()
	args := []any{state, lastErr, failures, next.UnixMilli(), now}
	if synced {
		q += ", last_sync_at = ?"
		args = append(args, now)
	}
	_, err := s.DB.Exec(ctx, q+" WHERE id = ?", append(args, id)...)
	if err != nil {
		return fmt.Errorf("cloud: unable to record the sync: %w", err)
	}
	return nil
}

// SyncNow makes the connection due at once (a refused one stays refused until new
// credentials are given).
func (s *Store) SyncNow(ctx context.Context, orgID, id int64) (*Connection, error) {
	if _, err := s.DB.Exec(ctx, "UPDATE cloud_connections SET next_sync_at = ? WHERE id = ? AND org_id = ?",
		s.now().UnixMilli(), id, orgID); err != nil {
		return nil, fmt.Errorf("cloud: unable to schedule a sync: %w", err)
	}
	return s.Get(ctx, orgID, id)
}
