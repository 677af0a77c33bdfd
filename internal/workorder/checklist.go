package workorder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Checklist templates: an organisation's lists of what a crew does on site (items to tick,
// photos to take, readings with units), attached to an order as a copy (site.go).

// The kinds of a checklist item.
const (
	ItemCheck   = "check"   // ticked
	ItemPhoto   = "photo"   // an attachment of the order
	ItemReading = "reading" // a number, in Unit
)

// ItemKinds lists the kinds.
var ItemKinds = []string{ItemCheck, ItemPhoto, ItemReading}

// Bounds of templates.
const (
	MaxTemplates     = 100
	MaxChecklistItem = 50
)

var itemKeyRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// ChecklistItem is one item of a checklist.
type ChecklistItem struct {
	Key      string `json:"key" doc:"unique in its checklist: 1-40 letters, digits, - or _"`
	Label    string `json:"label" doc:"1-200 characters"`
	Kind     string `json:"kind" doc:"check (ticked), photo (an attachment of the order) or reading (a number)"`
	Unit     string `json:"unit,omitempty" doc:"a reading's unit, at most 20 characters"`
	Required bool   `json:"required" doc:"the order cannot be finished without it"`
}

// ChecklistTemplate is an organisation's checklist template.
type ChecklistTemplate struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Items     []ChecklistItem `json:"items"`
	CreatedAt int64           `json:"createdAt"`
	UpdatedAt int64           `json:"updatedAt"`
}

// ChecklistTemplateInput adds or changes a template.
type ChecklistTemplateInput struct {
	Name  string          `json:"name" validate:"required" doc:"1-100 characters"`
	Items []ChecklistItem `json:"items" validate:"required" doc:"1-50 items"`
}

// validItems checks a checklist's items.
func validItems(v *httpapi.Validator, items []ChecklistItem) {
	switch {
	case len(items) == 0:
		v.Add("items", "at_least_one")
	case len(items) > MaxChecklistItem:
		v.Add("items", "too_many", MaxChecklistItem)
	}
	seen := map[string]bool{}
	for i := range items {
		it := &items[i]
		f := "items." + strconv.Itoa(i)
		it.Key, it.Label, it.Unit = strings.TrimSpace(it.Key), strings.TrimSpace(it.Label), strings.TrimSpace(it.Unit)
		if !itemKeyRe.MatchString(it.Key) {
			v.Add(f+".key", "invalid_format")
		} else if seen[it.Key] {
			v.Add(f+".key", "wo_item_key_taken")
		}
		seen[it.Key] = true
		cleanText(v, f+".label", it.Label, 200, true)
		v.OneOf(f+".kind", it.Kind, ItemKinds...)
		v.MaxLen(f+".unit", it.Unit, 20)
		if it.Kind != ItemReading {
			it.Unit = ""
		}
	}
}

func scanTemplate(row interface{ Scan(...any) error }) (ChecklistTemplate, error) {
	var t ChecklistTemplate
	var items string
	if err := row.Scan(&t.ID, &t.Name, &items, &t.CreatedAt, &t.UpdatedAt); err != nil {
		return t, err
	}
	return t, json.Unmarshal([]byte(items), &t.Items)
}

// Templates lists an organisation's checklist templates by name.
func Templates(ctx context.Context, db *store.DB, orgID int64) ([]ChecklistTemplate, error) {
	rows, err := db.Query(ctx, "SELECT id, name, items, created_at, updated_at FROM checklist_templates WHERE org_id = ? ORDER BY name, id", orgID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to list checklist templates: %w", err)
	}
	defer rows.Close()
	out := []ChecklistTemplate{}
	for rows.Next() {
		t, err := scanTemplate(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// template reads one template of the organisation (another's: store.ErrNotFound).
func template(ctx context.Context, db *store.DB, orgID, id int64) (ChecklistTemplate, error) {
	t, err := scanTemplate(db.QueryRow(ctx, "SELECT id, name, items, created_at, updated_at FROM checklist_templates WHERE id = ? AND org_id = ?", id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return t, store.ErrNotFound
	}
	return t, err
}

// templateRoutes registers the templates' calls: every user reads them (to pick one for an
// order); administrators write them.
func (s *Service) templateRoutes(api *httpapi.API) {
	add := func(rt httpapi.Route) {
		rt.Tag = "workorder"
		if rt.Access == 0 {
			rt.Access = httpapi.Admin
		}
		api.Add(rt)
	}
	add(httpapi.Route{Method: "GET", Path: "/v2/checklist/template/list", Summary: "The organisation's checklist templates",
		Access: httpapi.Signed, Resp: []ChecklistTemplate{}, Handle: s.templates})
	add(httpapi.Route{Method: "POST", Path: "/v2/checklist/template/add", Summary: "Add a checklist template",
		Body: ChecklistTemplateInput{}, Resp: ChecklistTemplate{}, Handle: s.addTemplate})
	add(httpapi.Route{Method: "POST", Path: "/v2/checklist/template/edit/{id}", Summary: "Change a checklist template (orders keep the copy they have)",
		Body: ChecklistTemplateInput{}, Resp: ChecklistTemplate{}, Handle: s.editTemplate})
	add(httpapi.Route{Method: "POST", Path: "/v2/checklist/template/delete/{id}", Summary: "Delete a checklist template (orders keep the copy they have)",
		Handle: s.deleteTemplate})
}

func (s *Service) templates(r *http.Request) (any, error) {
	out, err := Templates(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func templateInput(r *http.Request) (ChecklistTemplateInput, string, error) {
	var in ChecklistTemplateInput
	if err := httpapi.Decode(r, &in); err != nil {
		return in, "", err
	}
	var v httpapi.Validator
	in.Name = cleanText(&v, "name", in.Name, 100, true)
	validItems(&v, in.Items)
	if err := v.Err(); err != nil {
		return in, "", err
	}
	b, err := json.Marshal(in.Items)
	return in, string(b), err
}

func templateFail(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case store.IsUniqueViolation(err):
		return httpapi.InvalidField("name", "wo_template_name_taken")
	}
	return httpapi.Internal(err)
}

func (s *Service) addTemplate(r *http.Request) (any, error) {
	in, items, err := templateInput(r)
	if err != nil {
		return nil, err
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM checklist_templates WHERE org_id = ?", p.OrgID).Scan(&n); err != nil {
		return nil, httpapi.Internal(err)
	}
	if n >= MaxTemplates {
		return nil, httpapi.Conflict("wo_too_many_templates", MaxTemplates)
	}
	now := s.now().UnixMilli()
	id, err := s.DB.Insert(ctx, "INSERT INTO checklist_templates (org_id, name, items, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
		p.OrgID, in.Name, items, now, now)
	if err != nil {
		return nil, templateFail(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "checklist.add", in.Name, "", httpapi.ClientAddr(r))
	return template(ctx, s.DB, p.OrgID, id)
}

func (s *Service) editTemplate(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	if _, err := template(ctx, s.DB, p.OrgID, id); err != nil {
		return nil, templateFail(err)
	}
	in, items, err := templateInput(r)
	if err != nil {
		return nil, err
	}
	if _, err := s.DB.Exec(ctx, "UPDATE checklist_templates SET name = ?, items = ?, updated_at = ? WHERE id = ? AND org_id = ?",
		in.Name, items, s.now().UnixMilli(), id, p.OrgID); err != nil {
		return nil, templateFail(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "checklist.edit", in.Name, "", httpapi.ClientAddr(r))
	return template(ctx, s.DB, p.OrgID, id)
}

func (s *Service) deleteTemplate(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	t, err := template(ctx, s.DB, p.OrgID, id)
	if err != nil {
		return nil, templateFail(err)
	}
	if _, err := s.DB.Exec(ctx, "DELETE FROM checklist_templates WHERE id = ? AND org_id = ?", id, p.OrgID); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "checklist.delete", t.Name, "", httpapi.ClientAddr(r))
	return nil, nil
}
