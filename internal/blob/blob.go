// Package blob keeps uploaded files (avatars, attachments, rendered reports, documents) behind
// one small interface. The default store keeps them in the database, so several replicas serve
// the same bytes without a shared disk; another backend (an S3-compatible bucket) fits the same
// interface.
package blob

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// ErrNotFound is returned for an id the store does not hold (or holds for another
// organisation).
var ErrNotFound = errors.New("blob: not found")

// Meta describes a stored file.
type Meta struct {
	ID          string
	OrgID       int64
	Kind        string // what the file is for: "avatar", "attachment", "report", …
	Name        string // the file name shown for download
	ContentType string
	Size        int64
	SHA256      string // hex digest of the content
	CreatedAt   time.Time
}

// Store keeps files. Get and Delete take the organisation so that one organisation can never
// read or remove another's file, whatever id it sends.
type Store interface {
	Put(ctx context.Context, m Meta, data []byte) (Meta, error)
	Get(ctx context.Context, orgID int64, id string) (Meta, []byte, error)
	Delete(ctx context.Context, orgID int64, id string) error
}

// DB is the database-backed Store.
type DB struct {
	db  *store.DB
	now func() time.Time
}

// NewDB returns a Store kept in the blobs table.
func NewDB(db *store.DB) *DB { return &DB{db: db, now: time.Now} }

// NewID returns a random 32-character hex id.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Put stores data under a new id (m.ID is ignored) and returns the completed Meta.
func (s *DB) Put(ctx context.Context, m Meta, data []byte) (Meta, error) {
	m.ID = NewID()
	return s.put(ctx, m, data)
}

// PutNamed stores data under the id given (a content address); storing an id that is
// already there keeps the first and answers its Meta with ok false.
func (s *DB) PutNamed(ctx context.Context, m Meta, data []byte) (Meta, bool, error) {
	if len(m.ID) == 0 || len(m.ID) > 32 {
		return Meta{}, false, fmt.Errorf("blob: an id of 1-32 characters is needed, not %q", m.ID)
	}
	out, err := s.put(ctx, m, data)
	if store.IsUniqueViolation(err) {
		return m, false, nil
	}
	return out, err == nil, err
}

// GetPublic returns a file of the given kind whatever its organisation: for files served
// without a session under an unguessable content address (station covers).
func (s *DB) GetPublic(ctx context.Context, kind, id string) (Meta, []byte, error) {
	var orgID int64
	err := s.db.QueryRow(ctx, "SELECT org_id FROM blobs WHERE id = ? AND kind = ?", id, kind).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return Meta{}, nil, ErrNotFound
	}
	if err != nil {
		return Meta{}, nil, fmt.Errorf("blob: read %s: %w", id, err)
	}
	return s.Get(ctx, orgID, id)
}

func (s *DB) put(ctx context.Context, m Meta, data []byte) (Meta, error) {
	sum := sha256.Sum256(data)
	m.Size = int64(len(data))
	m.SHA256 = hex.EncodeToString(sum[:])
	m.CreatedAt = s.now().UTC()
	if m.ContentType == "" {
		m.ContentType = "application/octet-stream"
	}
	_, err := s.db.Exec(ctx, `INSERT INTO blobs (id, org_id, kind, name, content_type, size, sha256, created_at, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.OrgID, m.Kind, m.Name, m.ContentType, m.Size, m.SHA256, m.CreatedAt.UnixMilli(), data)
	if err != nil {
		return Meta{}, fmt.Errorf("blob: store %s: %w", m.Kind, err)
	}
	return m, nil
}

// Get returns a file of the organisation, or ErrNotFound.
func (s *DB) Get(ctx context.Context, orgID int64, id string) (Meta, []byte, error) {
	var m Meta
	var created int64
	var data []byte
	err := s.db.QueryRow(ctx, `SELECT id, org_id, kind, name, content_type, size, sha256, created_at, data
		FROM blobs WHERE id = ? AND org_id = ?`, id, orgID).
		Scan(&m.ID, &m.OrgID, &m.Kind, &m.Name, &m.ContentType, &m.Size, &m.SHA256, &created, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return Meta{}, nil, ErrNotFound
	}
	if err != nil {
		return Meta{}, nil, fmt.Errorf("blob: read %s: %w", id, err)
	}
	m.CreatedAt = time.UnixMilli(created).UTC()
	return m, data, nil
}

// Delete removes a file of the organisation; deleting a missing one answers ErrNotFound.
func (s *DB) Delete(ctx context.Context, orgID int64, id string) error {
	res, err := s.db.Exec(ctx, `DELETE FROM blobs WHERE id = ? AND org_id = ?`, id, orgID)
	if err != nil {
		return fmt.Errorf("blob: delete %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
