package report

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
)

// Record statuses.
const (
	StatusQueued  = "queued"
	StatusRunning = "running"
	StatusDone    = "done"
	StatusFailed  = "failed"
)

// Record is a report asked for (by a user or a schedule) and, once rendered, its file.
type Record struct {
	ID         int64      `json:"id"`
	TemplateID int64      `json:"templateId" doc:"0 when made without a template"`
	Name       string     `json:"name"`
	Params     Params     `json:"params"`
	Status     string     `json:"status" doc:"queued, running, done or failed"`
	Progress   float64    `json:"progress" doc:"0 to 1"`
	Error      string     `json:"error"`
	Scheduled  bool       `json:"scheduled"`
	FileName   string     `json:"fileName"`
	FileSize   int64      `json:"fileSize"`
	CreateTime time.Time  `json:"createTime"`
	StartTime  *time.Time `json:"startTime"`
	FinishTime *time.Time `json:"finishTime"`

	OrgID    int64  `json:"-"`
	UserID   int64  `json:"-"`
	BlobID   string `json:"-"`
	Attempts int    `json:"-"`
}

const recCols = `id, COALESCE(template_id, 0), name, params, status, progress, error, scheduled, file_name, file_size,
	created_at, started_at, finished_at, org_id, user_id, blob_id, attempts`

func scanRecord(row interface{ Scan(...any) error }) (*Record, error) {
	var r Record
	var params string
	var sched int
	var created, started, finished int64
	err := row.Scan(&r.ID, &r.TemplateID, &r.Name, &params, &r.Status, &r.Progress, &r.Error, &sched, &r.FileName, &r.FileSize,
		&created, &started, &finished, &r.OrgID, &r.UserID, &r.BlobID, &r.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("report: unable to read record: %w", err)
	}
	if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
		return nil, fmt.Errorf("report: record %d: %w", r.ID, err)
	}
	r.Scheduled = sched == 1
	r.CreateTime = time.UnixMilli(created).UTC()
	if started > 0 {
		t := time.UnixMilli(started).UTC()
		r.StartTime = &t
	}
	if finished > 0 {
		t := time.UnixMilli(finished).UTC()
		r.FinishTime = &t
	}
	return &r, nil
}

// Records keeps report records; each is also the job that renders it.
type Records struct {
	DB     *store.DB
	Outbox *notify.Outbox // the webhooks' report.ready (nil: none)
	Now    func() time.Time
}

func (s *Records) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Queue adds a record waiting to be rendered.
func (s *Records) Queue(ctx context.Context, orgID, userID, templateID int64, name string, p Params, scheduled bool) (int64, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return 0, err
	}
	var tpl any
	if templateID > 0 {
		tpl = templateID
	}
	sched := 0
	if scheduled {
		sched = 1
	}
	id, err := s.DB.Insert(ctx, `INSERT INTO report_records (org_id, user_id, template_id, name, params, status, scheduled, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, orgID, userID, tpl, name, string(b), StatusQueued, sched, s.now().UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("report: unable to queue: %w", err)
	}
	return id, nil
}

// Get returns a record of the user (a user sees only their own reports).
func (s *Records) Get(ctx context.Context, orgID, userID, id int64) (*Record, error) {
	return scanRecord(s.DB.QueryRow(ctx, "SELECT "+recCols+" FROM report_records WHERE id = ? AND org_id = ? AND user_id = ?", id, orgID, userID))
}

// List returns the user's records, newest first, and their total.
func (s *Records) List(ctx context.Context, orgID, userID int64, page, size int) ([]*Record, int64, error) {
	var w listing.Where
	w.Add("org_id = ? AND user_id = ?", orgID, userID)
	q := listing.Query{Columns: recCols, From: " FROM report_records ", Order: "id DESC"}
	return listing.Run(ctx, s.DB, q, &w, page, size, func(rows *sql.Rows) (*Record, error) { return scanRecord(rows) })
}

// Claim takes the oldest record that is queued or whose renderer stopped renewing its
// lease (a replica that died or restarted), for owner until lease from now. The UPDATE
// re-checks the condition, so of several replicas claiming at once only one wins.
func (s *Records) Claim(ctx context.Context, owner string, lease time.Duration) (*Record, error) {
	now := s.now().UnixMilli()
	for range 3 {
		var id int64
		err := s.DB.QueryRow(ctx, `SELECT id FROM report_records WHERE status = ? OR (status = ? AND lease_until < ?) ORDER BY id LIMIT 1`,
			StatusQueued, StatusRunning, now).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("report: unable to find work: %w", err)
		}
		res, err := s.DB.Exec(ctx, `UPDATE report_records SET status = ?, lease_owner = ?, lease_until = ?, attempts = attempts + 1,
			started_at = ?, progress = 0 WHERE id = ? AND (status = ? OR (status = ? AND lease_until < ?))`,
			StatusRunning, owner, now+lease.Milliseconds(), now, id, StatusQueued, StatusRunning, now)
		if err != nil {
			return nil, fmt.Errorf("report: unable to claim: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return scanRecord(s.DB.QueryRow(ctx, "SELECT "+recCols+" FROM report_records WHERE id = ?", id))
		}
	}
	return nil, nil
}

// Progress records how far a render is and renews its lease; false when the record is no
// longer the owner's (another replica took it over after the lease ran out).
func (s *Records) Progress(ctx context.Context, id int64, owner string, done float64, lease time.Duration) (bool, error) {
	res, err := s.DB.Exec(ctx, "UPDATE report_records SET progress = ?, lease_until = ? WHERE id = ? AND lease_owner = ? AND status = ?",
		done, s.now().Add(lease).UnixMilli(), id, owner, StatusRunning)
	if err != nil {
		return false, fmt.Errorf("report: unable to record progress: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Finish marks a record done with its file.
func (s *Records) Finish(ctx context.Context, id int64, owner, blobID, fileName string, size int64) (bool, error) {
	now := s.now().UnixMilli()
	var n int64
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE report_records SET status = ?, progress = 1, blob_id = ?, file_name = ?, file_size = ?, finished_at = ?,
			error = '' WHERE id = ? AND lease_owner = ? AND status = ?`, StatusDone, blobID, fileName, size, now, id, owner, StatusRunning)
		if err != nil {
			return err
		}
		if n, _ = res.RowsAffected(); n != 1 {
			return nil
		}
		// the webhooks' report.ready, in the same transaction
		var org int64
		var name string
		if err := tx.QueryRow(ctx, "SELECT org_id, name FROM report_records WHERE id = ?", id).Scan(&org, &name); err != nil {
			return err
		}
		format := strings.TrimPrefix(path.Ext(fileName), ".")
		return s.Outbox.Enqueue(ctx, tx, org, notify.ReportReady, id, func() (any, error) {
			return notify.Report{ID: id, Name: name, Format: format, At: now}, nil
		})
	})
	if err != nil {
		return false, fmt.Errorf("report: unable to finish: %w", err)
	}
	s.Outbox.Wrote()
	return n == 1, nil
}

// Fail gives a record back to the queue, or marks it failed after MaxAttempts.
func (s *Records) Fail(ctx context.Context, r *Record, owner string, cause error) error {
	status := StatusQueued
	if r.Attempts >= MaxAttempts {
		status = StatusFailed
	}
	_, err := s.DB.Exec(ctx, "UPDATE report_records SET status = ?, error = ?, finished_at = ?, lease_until = 0 WHERE id = ? AND lease_owner = ?",
		status, cause.Error(), s.now().UnixMilli(), r.ID, owner)
	if err != nil {
		return fmt.Errorf("report: unable to record failure: %w", err)
	}
	return nil
}

// MaxAttempts is how often a report is tried before it is marked failed.
const MaxAttempts = 3
