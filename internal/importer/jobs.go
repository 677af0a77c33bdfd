package importer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Job states.
const (
	StateQueued    = "queued"
	StateRunning   = "running"
	StatePaused    = "paused"
	StateDone      = "done"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
)

// Job is an import (or a dry run) as the console follows it.
type Job struct {
	ID       int64     `json:"id"`
	Dry      bool      `json:"dry" doc:"a dry run: counts only, stores nothing"`
	State    string    `json:"state" doc:"queued, running, paused, done, failed or cancelled"`
	Progress float64   `json:"progress" doc:"0 to 1: the share of the files' bytes read"`
	Files    []FileRef `json:"files"`
	Report   Report    `json:"report"`
	Error    string    `json:"error"`
	Created  time.Time `json:"createdAt"`
	Updated  time.Time `json:"updatedAt"`
}

// ErrState is an action the job's state does not allow (resume a running job).
var ErrState = errors.New("importer: not possible in the job's state")

// errStopped ends a run whose job was paused or cancelled meanwhile, or whose lease was lost.
var errStopped = errors.New("importer: job stopped")

// CreateJob queues a plan (its files must be the organisation's: ErrNotFound).
func CreateJob(ctx context.Context, db *store.DB, userID int64, p Plan) (Job, error) {
	var total int64
	for i, ref := range p.Files {
		f, err := GetFile(ctx, db, p.OrgID, ref.ID)
		if err != nil {
			return Job{}, err
		}
		p.Files[i].Name = f.Name
		total += f.Size
	}
	plan, _ := json.Marshal(p)
	now := time.Now().UnixMilli()
	id, err := db.Insert(ctx, `INSERT INTO import_jobs (org_id, state, plan, total_bytes, checkpoint, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, '{}', ?, ?, ?)`, p.OrgID, StateQueued, string(plan), total, userID, now, now)
	if err != nil {
		return Job{}, err
	}
	return GetJob(ctx, db, p.OrgID, id)
}

// GetJob answers the organisation's job (ErrNotFound for another's).
func GetJob(ctx context.Context, db *store.DB, orgID, id int64) (Job, error) {
	jobs, err := queryJobs(ctx, db, "WHERE org_id = ? AND id = ?", orgID, id)
	if err != nil {
		return Job{}, err
	}
	if len(jobs) == 0 {
		return Job{}, ErrNotFound
	}
	return jobs[0], nil
}

// ListJobs answers the organisation's latest jobs, newest first.
func ListJobs(ctx context.Context, db *store.DB, orgID int64) ([]Job, error) {
	return queryJobs(ctx, db, "WHERE org_id = ? ORDER BY id DESC LIMIT 100", orgID)
}

func queryJobs(ctx context.Context, db *store.DB, where string, args ...any) ([]Job, error) {
	rows, err := db.Query(ctx, "SELECT id, state, plan, total_bytes, checkpoint, error, created_at, updated_at FROM import_jobs "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Job{}
	for rows.Next() {
		var j Job
		var plan, cp string
		var total, created, updated int64
		if err := rows.Scan(&j.ID, &j.State, &plan, &total, &cp, &j.Error, &created, &updated); err != nil {
			return nil, err
		}
		var p Plan
		var c Checkpoint
		_ = json.Unmarshal([]byte(plan), &p)
		_ = json.Unmarshal([]byte(cp), &c)
		j.Dry, j.Files, j.Report = p.Dry, p.Files, c.Report
		if j.Report.Reasons == nil {
			j.Report.Reasons = map[string]int64{}
		}
		if j.Report.Rejects == nil {
			j.Report.Rejects = []Reject{}
		}
		switch {
		case j.State == StateDone:
			j.Progress = 1
		case total > 0:
			j.Progress = min(1, float64(c.Bytes+c.FileBytes)/float64(total))
		}
		j.Created, j.Updated = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
		out = append(out, j)
	}
	return out, rows.Err()
}

// Act pauses, resumes or cancels the organisation's job. A running job stops after the
// slice it is in (committed, and in its checkpoint).
func Act(ctx context.Context, db *store.DB, orgID, id int64, action string) (Job, error) {
	from, to := map[string][]string{
		"pause":  {StateQueued, StateRunning},
		"resume": {StatePaused},
		"cancel": {StateQueued, StateRunning, StatePaused},
	}[action], map[string]string{"pause": StatePaused, "resume": StateQueued, "cancel": StateCancelled}[action]
	if _, err := GetJob(ctx, db, orgID, id); err != nil {
		return Job{}, err
	}
	res, err := db.Exec(ctx, "UPDATE import_jobs SET state = ?, updated_at = ? WHERE org_id = ? AND id = ? AND state IN (?, ?, ?)",
		to, time.Now().UnixMilli(), orgID, id, from[0], from[len(from)-1], from[min(1, len(from)-1)])
	if err != nil {
		return Job{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Job{}, ErrState
	}
	if action == "resume" {
		// a paused job's runner has let go (or lets go after its slice: its next save finds
		// another owner): any replica may take the job at once
		if _, err := db.Exec(ctx, "UPDATE import_jobs SET lease_owner = '', lease_until = 0 WHERE id = ? AND state = ?", id, StateQueued); err != nil {
			return Job{}, err
		}
	}
	return GetJob(ctx, db, orgID, id)
}

// Runner runs queued jobs. Every replica runs one; a job is taken by one replica through
// its lease (a row update only one replica can win), renewed at every slice: a replica
// that stops or dies loses it within Lease, and another (or the same after a restart)
// goes on from the job's checkpoint.
type Runner struct {
	Importer *Importer
	Lease    time.Duration // default 1 minute
	Poll     time.Duration // default 2 seconds
	owner    string
}

func (r *Runner) init() {
	if r.owner == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		r.owner = hex.EncodeToString(b)
	}
	if r.Lease <= 0 {
		r.Lease = time.Minute
	}
	if r.Poll <= 0 {
		r.Poll = 2 * time.Second
	}
}

// Run takes and runs jobs until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	r.init()
	for ctx.Err() == nil {
		ran, err := r.RunOne(ctx)
		if err != nil && ctx.Err() == nil {
			slog.Warn("import job", "err", err)
		}
		if !ran {
			select {
			case <-ctx.Done():
			case <-time.After(r.Poll):
			}
		}
	}
}

// RunOne takes one job whose lease is free and runs it until it ends, is paused or
// cancelled, or ctx ends; ran is false when there was none.
func (r *Runner) RunOne(ctx context.Context) (ran bool, err error) {
	r.init()
	db := r.Importer.DB
	now := time.Now().UnixMilli()
	ids, err := store.IDs(ctx, db, "SELECT id FROM import_jobs WHERE state IN (?, ?) AND lease_until < ? ORDER BY id LIMIT 5",
		StateQueued, StateRunning, now)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		res, err := db.Exec(ctx, `UPDATE import_jobs SET state = ?, lease_owner = ?, lease_until = ?, updated_at = ?
			WHERE id = ? AND state IN (?, ?) AND lease_until < ?`, StateRunning, r.owner, now+r.Lease.Milliseconds(), now, id,
			StateQueued, StateRunning, now)
		if err != nil {
			return false, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return true, r.run(ctx, id)
		}
	}
	return false, nil
}

func (r *Runner) run(ctx context.Context, id int64) error {
	db := r.Importer.DB
	var orgID int64
	var plan, cps string
	if err := db.QueryRow(ctx, "SELECT org_id, plan, checkpoint FROM import_jobs WHERE id = ?", id).Scan(&orgID, &plan, &cps); err != nil {
		return err
	}
	var p Plan
	var cp Checkpoint
	if err := json.Unmarshal([]byte(plan), &p); err != nil {
		return r.finish(ctx, id, StateFailed, cp, err)
	}
	_ = json.Unmarshal([]byte(cps), &cp)
	// save records the checkpoint while this runner holds the lease, whatever the state (a
	// slice committed before a pause is in it), then stops the run if the job was paused or
	// cancelled meanwhile
	save := func(c Checkpoint) error {
		b, _ := json.Marshal(c)
		now := time.Now().UnixMilli()
		res, err := db.Exec(ctx, `UPDATE import_jobs SET checkpoint = ?, updated_at = ?, lease_until = ?
			WHERE id = ? AND lease_owner = ?`, string(b), now, now+r.Lease.Milliseconds(), id, r.owner)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errStopped // the lease is another's
		}
		var state string
		if err := db.QueryRow(ctx, "SELECT state FROM import_jobs WHERE id = ?", id).Scan(&state); err != nil {
			return err
		}
		if state != StateRunning {
			return errStopped
		}
		return nil
	}
	cp, err := r.Importer.Run(ctx, p, DBOpener(db, orgID), cp, p.Dry, save)
	switch {
	case errors.Is(err, errStopped):
		return nil
	case ctx.Err() != nil:
		return nil // stopping: the lease runs out and the job goes on from its checkpoint
	case err != nil:
		return r.finish(ctx, id, StateFailed, cp, err)
	}
	return r.finish(ctx, id, StateDone, cp, nil)
}

func (r *Runner) finish(ctx context.Context, id int64, state string, cp Checkpoint, cause error) error {
	b, _ := json.Marshal(cp)
	msg := ""
	if cause != nil {
		msg = cause.Error()
		var fe *FieldError
		if errors.As(cause, &fe) {
			msg = fmt.Sprintf("%s: %s", fe.Field, fe.Reason)
		}
	}
	_, err := r.Importer.DB.Exec(ctx, `UPDATE import_jobs SET state = ?, checkpoint = ?, error = ?, lease_owner = '', lease_until = 0, updated_at = ?
		WHERE id = ? AND lease_owner = ? AND state = ?`, state, string(b), msg, time.Now().UnixMilli(), id, r.owner, StateRunning)
	return err
}
