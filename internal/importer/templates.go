package importer

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Template is a saved mapping for a vendor's export format.
type Template struct {
	ID      int64  `json:"id" doc:"0 for the templates shipped with Helio"`
	Name    string `json:"name"`
	Vendor  string `json:"vendor"`
	BuiltIn bool   `json:"builtIn"`
	// Key names a shipped template in the console's texts (historyImport.builtIn.<key>).
	Key     string  `json:"key,omitempty" doc:"a shipped template's key: the console shows its name in the reader's language"`
	Mapping Mapping `json:"mapping"`
	// Source says where a shipped template's layout is documented.
	Source  string    `json:"source,omitempty"`
	Created time.Time `json:"createdAt"`
}

// ErrDuplicate is a template name the organisation already uses.
var ErrDuplicate = errors.New("importer: a template of this name exists")

// ListTemplates answers the shipped templates, then the organisation's by name.
func ListTemplates(ctx context.Context, db *store.DB, orgID int64) ([]Template, error) {
	out := append([]Template{}, Vendors...)
	rows, err := db.Query(ctx, "SELECT id, name, vendor, mapping, created_at FROM import_templates WHERE org_id = ? ORDER BY name", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var t Template
		var m string
		var at int64
		if err := rows.Scan(&t.ID, &t.Name, &t.Vendor, &m, &at); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(m), &t.Mapping)
		t.Created = time.UnixMilli(at).UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}

// SaveTemplate adds (ID 0) or replaces the organisation's template.
func SaveTemplate(ctx context.Context, db *store.DB, orgID int64, t *Template) error {
	t.Name, t.Vendor = strings.TrimSpace(t.Name), strings.TrimSpace(t.Vendor)
	m, _ := json.Marshal(t.Mapping)
	var taken int64
	err := db.QueryRow(ctx, "SELECT COUNT(*) FROM import_templates WHERE org_id = ? AND name = ? AND id <> ?", orgID, t.Name, t.ID).Scan(&taken)
	if err != nil {
		return err
	}
	if taken > 0 {
		return ErrDuplicate
	}
	now := time.Now()
	if t.ID == 0 {
		t.ID, err = db.Insert(ctx, "INSERT INTO import_templates (org_id, name, vendor, mapping, created_at) VALUES (?, ?, ?, ?, ?)",
			orgID, t.Name, t.Vendor, string(m), now.UnixMilli())
		t.Created = now.UTC().Truncate(time.Millisecond)
		return err
	}
	res, err := db.Exec(ctx, "UPDATE import_templates SET name = ?, vendor = ?, mapping = ? WHERE id = ? AND org_id = ?",
		t.Name, t.Vendor, string(m), t.ID, orgID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteTemplate removes the organisation's template.
func DeleteTemplate(ctx context.Context, db *store.DB, orgID, id int64) error {
	res, err := db.Exec(ctx, "DELETE FROM import_templates WHERE id = ? AND org_id = ?", id, orgID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Fits reports whether a mapping's columns are all in a header (a template that fits a
// file is proposed for it).
func (m *Mapping) Fits(header []string) bool {
	have := map[string]bool{}
	for _, h := range header {
		have[strings.TrimSpace(h)] = true
	}
	if !have[m.TimeColumn] || m.DeviceColumn != "" && !have[m.DeviceColumn] {
		return false
	}
	for _, c := range m.Columns {
		if !have[c.Name] {
			return false
		}
	}
	return true
}
