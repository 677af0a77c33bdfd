package report

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
)

// Worker renders queued reports in the background. Any number of replicas may run one:
// a record is claimed with a lease the renderer renews as it progresses, so a report is
// rendered once, and one whose renderer stopped (a restart, a crash) is taken up again
// when its lease runs out.
type Worker struct {
	Records  *Records
	Builder  *Builder
	Blobs    blob.Store
	Messages *message.Store
	// Owner names this replica in leases (default: a random id).
	Owner string
	// Lease is how long a claim holds without renewal (default 30 s).
	Lease time.Duration
	// LinkTTL is how long a scheduled report's download link works (default 7 days).
	LinkTTL time.Duration
	// Poll is how often the queue is looked at (default 2 s); Kick wakes it sooner.
	Poll time.Duration

	kick chan struct{}
}

func (w *Worker) defaults() {
	if w.Owner == "" {
		w.Owner = randomHex(8)
	}
	if w.Lease <= 0 {
		w.Lease = 30 * time.Second
	}
	if w.LinkTTL <= 0 {
		w.LinkTTL = 7 * 24 * time.Hour
	}
	if w.Poll <= 0 {
		w.Poll = 2 * time.Second
	}
	if w.kick == nil {
		w.kick = make(chan struct{}, 1)
	}
}

// Kick wakes the worker (a record was queued).
func (w *Worker) Kick() {
	if w.kick == nil {
		return
	}
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run renders reports until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	for {
		for {
			did, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				slog.Error("report rendering failed", "err", err)
			}
			if !did || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.kick:
		}
	}
}

// RunOnce renders one waiting report, if any; it reports whether it found one.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	w.defaults()
	rec, err := w.Records.Claim(ctx, w.Owner, w.Lease)
	if err != nil || rec == nil {
		return false, err
	}
	if err := w.render(ctx, rec); err != nil {
		if ctx.Err() != nil {
			return true, ctx.Err() // shutting down: the lease runs out and another run takes it up
		}
		if ferr := w.Records.Fail(ctx, rec, w.Owner, err); ferr != nil {
			return true, ferr
		}
		if rec.Attempts >= MaxAttempts && rec.Scheduled {
			w.notify(ctx, rec, message.Text{Key: "rpt.msg.failed", Args: []any{rec.Name}}, message.Text{Key: err.Error()})
		}
		return true, err
	}
	return true, nil
}

func (w *Worker) render(ctx context.Context, rec *Record) error {
	p, err := principalOf(ctx, w.Records, rec.UserID)
	if err != nil {
		return err
	}
	per, err := analysis.ParsePeriod(rec.Params.Period, rec.Params.Date, rec.Params.From, rec.Params.To)
	if err != nil {
		return fmt.Errorf("report: period: %w", err)
	}
	progress := func(done float64) {
		if _, err := w.Records.Progress(ctx, rec.ID, w.Owner, done, w.Lease); err != nil {
			slog.Warn("report progress not recorded", "record", rec.ID, "err", err)
		}
	}
	d, err := w.Builder.Build(ctx, p, rec.Params, per, func(f float64) { progress(0.05 + 0.75*f) })
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	ctype := ""
	switch rec.Params.Format {
	case "xlsx":
		ctype, err = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", WriteXLSX(&buf, d)
	case "pdf":
		ctype, err = "application/pdf", WritePDF(&buf, d)
	default:
		ctype, err = "text/csv; charset=utf-8", WriteCSV(&buf, d)
	}
	if err != nil {
		return err
	}
	progress(0.9)
	name := FileName(rec.Params, per)
	meta, err := w.Blobs.Put(ctx, blob.Meta{OrgID: rec.OrgID, Kind: "report", Name: name, ContentType: ctype}, buf.Bytes())
	if err != nil {
		return err
	}
	ok, err := w.Records.Finish(ctx, rec.ID, w.Owner, meta.ID, name, meta.Size)
	if err != nil || !ok {
		_ = w.Blobs.Delete(ctx, rec.OrgID, meta.ID) // another replica took the record over
		return err
	}
	if rec.Scheduled {
		token, expires, err := w.Records.Link(ctx, rec.ID, w.LinkTTL)
		if err != nil {
			return err
		}
		w.notify(ctx, rec, message.Text{Key: "rpt.msg.title", Args: []any{rec.Name}},
			message.Text{Key: "rpt.msg.content", Args: []any{name, expires.Format("2006-01-02 15:04"), "/v2/report/file/" + token}})
	}
	return nil
}

func (w *Worker) notify(ctx context.Context, rec *Record, title, content message.Text) {
	if w.Messages == nil {
		return
	}
	_, err := w.Messages.Create(ctx, message.New{UserID: rec.UserID, OrgID: rec.OrgID, Kind: message.KindSystem,
		Type: message.TypeNotice, Title: title, Content: content, RefID: rec.ID})
	if err != nil {
		slog.Error("report message not sent", "record", rec.ID, "err", err)
	}
}

// FileName is the report's file name: the one asked for, else report-<first>[_<last>],
// with the format's extension.
func FileName(p Params, per analysis.Period) string {
	base := p.FileName
	if base == "" {
		base = "report-" + per.First
		if per.Last != per.First {
			base += "_" + per.Last
		}
	}
	return base + "." + p.Format
}

// principalOf is the record owner as the station authority sees them now.
func principalOf(ctx context.Context, s *Records, userID int64) (*httpapi.Principal, error) {
	p := &httpapi.Principal{UserID: userID}
	var status int
	err := s.DB.QueryRow(ctx, "SELECT org_id, COALESCE(dept_id, 0), username, role, station_authority, status FROM users WHERE id = ?", userID).
		Scan(&p.OrgID, &p.DeptID, &p.Username, &p.Role, &p.StationAuthority, &status)
	if err != nil {
		return nil, fmt.Errorf("report: owner %d: %w", userID, err)
	}
	if status != 1 {
		return nil, errors.New("report: the owner's account is disabled")
	}
	return p, nil
}

// Link makes a download link for a record that works until it expires; only the token's
// hash is kept.
func (s *Records) Link(ctx context.Context, recordID int64, ttl time.Duration) (string, time.Time, error) {
	token := randomHex(24)
	expires := s.now().Add(ttl).UTC()
	_, err := s.DB.Exec(ctx, "INSERT INTO report_links (token_hash, record_id, expires_at) VALUES (?, ?, ?)",
		hashToken(token), recordID, expires.UnixMilli())
	if err != nil {
		return "", time.Time{}, fmt.Errorf("report: unable to make a link: %w", err)
	}
	return token, expires, nil
}

// ByLink returns the record a live link names, or store.ErrNotFound.
func (s *Records) ByLink(ctx context.Context, token string) (*Record, error) {
	if len(token) != 48 || strings.Trim(token, "0123456789abcdef") != "" {
		return nil, errNoLink
	}
	return scanRecord(s.DB.QueryRow(ctx, "SELECT "+recCols+` FROM report_records WHERE status = ? AND id =
		(SELECT record_id FROM report_links WHERE token_hash = ? AND expires_at > ?)`, StatusDone, hashToken(token), s.now().UnixMilli()))
}

var errNoLink = errors.New("report: no such link")

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
