package assistant

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Document is an uploaded file of the organisation and its indexing state.
type Document struct {
	ID          int64      `json:"id"`
	Name        string     `json:"name"`
	ContentType string     `json:"contentType"`
	Size        int64      `json:"size" doc:"bytes"`
	SHA256      string     `json:"sha256"`
	Status      string     `json:"status" doc:"queued, indexing, ready or failed"`
	Progress    float64    `json:"progress" doc:"0–1 while indexing"`
	Chunks      int        `json:"chunks" doc:"passages indexed"`
	Chars       int64      `json:"chars" doc:"characters of text extracted"`
	Error       string     `json:"error,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
	IndexedAt   *time.Time `json:"indexedAt,omitempty"`
	orgID       int64
	blobID      string
}

const docColumns = `id, org_id, name, content_type, size, sha256, blob_id, status, progress, chunks, chars, error, created_at, indexed_at`

func scanDoc(row interface{ Scan(...any) error }) (*Document, error) {
	var d Document
	var created int64
	var indexed sql.NullInt64
	if err := row.Scan(&d.ID, &d.orgID, &d.Name, &d.ContentType, &d.Size, &d.SHA256, &d.blobID, &d.Status,
		&d.Progress, &d.Chunks, &d.Chars, &d.Error, &created, &indexed); err != nil {
		return nil, err
	}
	d.CreatedAt = time.UnixMilli(created).UTC()
	if indexed.Valid {
		t := time.UnixMilli(indexed.Int64).UTC()
		d.IndexedAt = &t
	}
	return &d, nil
}

var errDuplicate = errors.New("duplicate document")

func insertDoc(ctx context.Context, db *store.DB, d *Document, by int64) (int64, error) {
	id, err := db.Insert(ctx, `INSERT INTO documents (org_id, name, content_type, size, sha256, blob_id, status, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)`, d.orgID, d.Name, d.ContentType, d.Size, d.SHA256, d.blobID, by, d.CreatedAt.UnixMilli())
	if store.IsUniqueViolation(err) {
		return 0, errDuplicate
	}
	return id, err
}

func getDoc(ctx context.Context, db *store.DB, orgID, id int64) (*Document, error) {
	return scanDoc(db.QueryRow(ctx, "SELECT "+docColumns+" FROM documents WHERE id = ? AND org_id = ?", id, orgID))
}

func docBySHA(ctx context.Context, db *store.DB, orgID int64, sha string) (*Document, error) {
	return scanDoc(db.QueryRow(ctx, "SELECT "+docColumns+" FROM documents WHERE org_id = ? AND sha256 = ?", orgID, sha))
}

func listDocs(ctx context.Context, db *store.DB, orgID int64, name string, page, size int) ([]*Document, int64, error) {
	where, args := "org_id = ?", []any{orgID}
	if name != "" {
		where += " AND LOWER(name) LIKE ?"
		args = append(args, "%"+likeEscape(name)+"%")
	}
	var total int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM documents WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("assistant: count documents: %w", err)
	}
	rows, err := db.Query(ctx, "SELECT "+docColumns+" FROM documents WHERE "+where+" ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
		append(args, size, (page-1)*size)...)
	if err != nil {
		return nil, 0, fmt.Errorf("assistant: list documents: %w", err)
	}
	defer rows.Close()
	out := []*Document{}
	for rows.Next() {
		d, err := scanDoc(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}

func likeEscape(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '%' || r == '_' || r == '\\' {
			continue
		}
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		out = append(out, r)
	}
	return string(out)
}

// Stats sums an organisation's document store.
type Stats struct {
	Documents   int64      `json:"documents"`
	Ready       int64      `json:"ready"`
	Pending     int64      `json:"pending" doc:"queued or indexing"`
	Failed      int64      `json:"failed"`
	Chunks      int64      `json:"chunks"`
	Bytes       int64      `json:"bytes" doc:"uploaded file bytes"`
	IndexBytes  int64      `json:"indexBytes" doc:"passage text and embeddings the index is built from"`
	LastIndexed *time.Time `json:"lastIndexed,omitempty"`
	Embeddings  bool       `json:"embeddings" doc:"whether dense embeddings rank with BM25 (an embeddings endpoint is configured)"`
}

func stats(ctx context.Context, db *store.DB, orgID int64) (Stats, error) {
	var s Stats
	var last sql.NullInt64
	err := db.QueryRow(ctx, `SELECT COUNT(*),
			COALESCE(SUM(CASE WHEN status = 'ready' THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN status IN ('queued', 'indexing') THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(chunks), 0), COALESCE(SUM(size), 0), MAX(indexed_at)
		FROM documents WHERE org_id = ?`, orgID).Scan(&s.Documents, &s.Ready, &s.Pending, &s.Failed, &s.Chunks, &s.Bytes, &last)
	if err != nil {
		return s, fmt.Errorf("assistant: stats: %w", err)
	}
	if last.Valid {
		t := time.UnixMilli(last.Int64).UTC()
		s.LastIndexed = &t
	}
	err = db.QueryRow(ctx, `SELECT COALESCE(SUM(LENGTH(body) + COALESCE(LENGTH(embedding), 0)), 0) FROM document_chunks WHERE org_id = ?`, orgID).Scan(&s.IndexBytes)
	return s, err
}
