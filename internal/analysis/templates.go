package analysis

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Template is a saved configuration (compare or report): a user's own, or shared with the
// organisation. Config is the kind's own JSON.
type Template[C any] struct {
	ID         int64     `json:"id"`
	Name       string    `json:"name"`
	Shared     bool      `json:"shared" doc:"visible to the whole organisation"`
	Mine       bool      `json:"mine" doc:"created by the caller (who may edit or delete it)"`
	Owner      string    `json:"owner"`
	Config     C         `json:"config"`
	CreateTime time.Time `json:"createTime"`
	UpdateTime time.Time `json:"updateTime"`

	OrgID  int64 `json:"-"`
	UserID int64 `json:"-"`
}

// Templates keeps templates in one table of the shape of compare_templates.
type Templates[C any] struct {
	DB    *store.DB
	Table string
	Now   func() time.Time
}

func (s *Templates[C]) now() int64 {
	if s.Now != nil {
		return s.Now().UnixMilli()
	}
	return time.Now().UnixMilli()
}

const tplCols = "t.id, t.name, t.shared, t.user_id, t.org_id, u.username, t.config, t.created_at, t.updated_at"

func (s *Templates[C]) scan(row interface{ Scan(...any) error }, caller int64) (*Template[C], error) {
	var t Template[C]
	var cfg string
	var created, updated int64
	var shared int
	err := row.Scan(&t.ID, &t.Name, &shared, &t.UserID, &t.OrgID, &t.Owner, &cfg, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: unable to read %s: %w", s.Table, err)
	}
	if err := json.Unmarshal([]byte(cfg), &t.Config); err != nil {
		return nil, fmt.Errorf("analysis: %s %d: %w", s.Table, t.ID, err)
	}
	t.Shared, t.Mine = shared == 1, t.UserID == caller
	t.CreateTime, t.UpdateTime = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return &t, nil
}

// visible is the condition for templates the caller may read: their own and shared ones.
const visible = "t.org_id = ? AND (t.user_id = ? OR t.shared = 1)"

// List returns the templates the caller may read, newest first, and their total.
func (s *Templates[C]) List(ctx context.Context, p *httpapi.Principal, page, size int) ([]*Template[C], int64, error) {
	var total int64
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM "+s.Table+" t WHERE "+visible, p.OrgID, p.UserID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("analysis: unable to count %s: %w", s.Table, err)
	}
	rows, err := s.DB.Query(ctx, "SELECT "+tplCols+" FROM "+s.Table+" t JOIN users u ON u.id = t.user_id WHERE "+visible+
		" ORDER BY t.updated_at DESC, t.id DESC LIMIT ? OFFSET ?", p.OrgID, p.UserID, size, (page-1)*size)
	if err != nil {
		return nil, 0, fmt.Errorf("analysis: unable to list %s: %w", s.Table, err)
	}
	defer rows.Close()
	out := []*Template[C]{}
	for rows.Next() {
		t, err := s.scan(rows, p.UserID)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, t)
	}
	return out, total, rows.Err()
}

// Get returns a template the caller may read, or store.ErrNotFound.
func (s *Templates[C]) Get(ctx context.Context, p *httpapi.Principal, id int64) (*Template[C], error) {
	return s.scan(s.DB.QueryRow(ctx, "SELECT "+tplCols+" FROM "+s.Table+" t JOIN users u ON u.id = t.user_id WHERE t.id = ? AND "+visible,
		id, p.OrgID, p.UserID), p.UserID)
}

// GetAny returns a template by id whatever its owner (background jobs).
func (s *Templates[C]) GetAny(ctx context.Context, id int64) (*Template[C], error) {
	return s.scan(s.DB.QueryRow(ctx, "SELECT "+tplCols+" FROM "+s.Table+" t JOIN users u ON u.id = t.user_id WHERE t.id = ?", id), 0)
}

// Writable returns a template the caller may change: their own, or a shared one when they
// are an administrator. Another's private template is store.ErrNotFound; a shared one a
// user may read but not change is httpapi.Forbidden.
func (s *Templates[C]) Writable(ctx context.Context, p *httpapi.Principal, id int64) (*Template[C], error) {
	t, err := s.Get(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if !t.Mine && !p.IsAdmin() {
		return nil, httpapi.Forbidden()
	}
	return t, nil
}

// Add stores a new template of the caller.
func (s *Templates[C]) Add(ctx context.Context, p *httpapi.Principal, name string, shared bool, cfg C) (int64, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return 0, err
	}
	now := s.now()
	id, err := s.DB.Insert(ctx, "INSERT INTO "+s.Table+" (org_id, user_id, shared, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		p.OrgID, p.UserID, flag(shared), name, string(b), now, now)
	if err != nil {
		return 0, fmt.Errorf("analysis: unable to add to %s: %w", s.Table, err)
	}
	return id, nil
}

// Update changes a template's name, sharing and configuration.
func (s *Templates[C]) Update(ctx context.Context, id int64, name string, shared bool, cfg C) error {
	b, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	_, err = s.DB.Exec(ctx, "UPDATE "+s.Table+" SET name = ?, shared = ?, config = ?, updated_at = ? WHERE id = ?",
		name, flag(shared), string(b), s.now(), id)
	if err != nil {
		return fmt.Errorf("analysis: unable to update %s: %w", s.Table, err)
	}
	return nil
}

// Delete removes a template.
func (s *Templates[C]) Delete(ctx context.Context, id int64) error {
	if _, err := s.DB.Exec(ctx, "DELETE FROM "+s.Table+" WHERE id = ?", id); err != nil {
		return fmt.Errorf("analysis: unable to delete from %s: %w", s.Table, err)
	}
	return nil
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WritableFromPath reads the template id of the path ({uid}) and checks that the caller may
// change that template (LookupErr's answers otherwise).
func (s *Templates[C]) WritableFromPath(r *http.Request) (int64, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return 0, err
	}
	if _, err := s.Writable(r.Context(), httpapi.Caller(r), id); err != nil {
		return 0, LookupErr(err)
	}
	return id, nil
}

// DeleteFromPath is a template kind's delete call: the path's template, if the caller may
// change it.
func (s *Templates[C]) DeleteFromPath(r *http.Request) (any, error) {
	id, err := s.WritableFromPath(r)
	if err != nil {
		return nil, err
	}
	if err := s.Delete(r.Context(), id); err != nil {
		return nil, httpapi.Internal(err)
	}
	return Saved{ID: id}, nil
}
