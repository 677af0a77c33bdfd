package station

import (
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// TagColors are the Arco palette names a tag may use.
var TagColors = []string{"red", "orangered", "orange", "gold", "lime", "green", "cyan", "blue", "arcoblue", "purple", "pinkpurple", "magenta", "gray"}

// TagInput is the body of the tag add and edit calls.
type TagInput struct {
	Name  string `json:"name" validate:"required"`
	Color string `json:"color"`
}

// TagWithCount is a tag and how many visible stations carry it.
type TagWithCount struct {
	Tag
	Stations int `json:"stations"`
}

func (s *Service) tagRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/tag/list", Tag: "site", Summary: "The organisation's station tags",
		Access: httpapi.Signed, Resp: []TagWithCount{}, Handle: s.listTags})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/tag/add", Tag: "site", Summary: "Create a station tag (admin)",
		Access: httpapi.Admin, Body: TagInput{}, Resp: Tag{}, Handle: s.addTag})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/tag/edit/{id}", Tag: "site", Summary: "Rename or recolour a station tag (admin)",
		Access: httpapi.Admin, Body: TagInput{}, Resp: Tag{}, Handle: s.editTag})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/tag/delete/{id}", Tag: "site", Summary: "Delete a station tag (admin)",
		Access: httpapi.Admin, Handle: s.deleteTag})
}

func (in *TagInput) validate() error {
	in.Name = strings.TrimSpace(in.Name)
	var v httpapi.Validator
	v.Required("name", in.Name)
	v.MaxLen("name", in.Name, 30)
	if in.Color == "" {
		in.Color = "arcoblue"
	}
	v.OneOf("color", in.Color, TagColors...)
	return v.Err()
}

func (s *Service) listTags(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	where, args := Scope(p)
	rows, err := s.DB.Query(r.Context(), `SELECT t.id, t.name, t.color,
		(SELECT COUNT(DISTINCT COALESCE(s.parent_id, s.id)) FROM station_tag_links l JOIN stations s ON s.id = l.station_id
			WHERE l.tag_id = t.id AND `+where+`)
		FROM station_tags t WHERE t.org_id = ? ORDER BY t.name`, append(args, p.OrgID)...)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	defer rows.Close()
	out := []TagWithCount{}
	for rows.Next() {
		var t TagWithCount
		if err := rows.Scan(&t.ID, &t.Name, &t.Color, &t.Stations); err != nil {
			return nil, httpapi.Internal(err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *Service) addTag(r *http.Request) (any, error) {
	var in TagInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	id, err := s.DB.Insert(r.Context(), "INSERT INTO station_tags (org_id, name, color, created_at) VALUES (?, ?, ?, ?)",
		p.OrgID, in.Name, in.Color, time.Now().UnixMilli())
	if store.IsUniqueViolation(err) {
		return nil, &httpapi.Error{Status: 409, Code: 409, Key: "duplicate", Fields: map[string]httpapi.Msg{"name": {Key: "duplicate"}}}
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "tag.add", strconv.FormatInt(id, 10), in.Name, httpapi.ClientAddr(r))
	return Tag{ID: id, Name: in.Name, Color: in.Color}, nil
}

func (s *Service) tagOf(r *http.Request) (int64, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return 0, err
	}
	var n int64
	err = s.DB.QueryRow(r.Context(), "SELECT id FROM station_tags WHERE id = ? AND org_id = ?", id, httpapi.Caller(r).OrgID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, httpapi.NotFound()
	}
	if err != nil {
		return 0, httpapi.Internal(err)
	}
	return id, nil
}

func (s *Service) editTag(r *http.Request) (any, error) {
	id, err := s.tagOf(r)
	if err != nil {
		return nil, err
	}
	var in TagInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	_, err = s.DB.Exec(r.Context(), "UPDATE station_tags SET name = ?, color = ? WHERE id = ?", in.Name, in.Color, id)
	if store.IsUniqueViolation(err) {
		return nil, &httpapi.Error{Status: 409, Code: 409, Key: "duplicate", Fields: map[string]httpapi.Msg{"name": {Key: "duplicate"}}}
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "tag.edit", strconv.FormatInt(id, 10), in.Name, httpapi.ClientAddr(r))
	return Tag{ID: id, Name: in.Name, Color: in.Color}, nil
}

func (s *Service) deleteTag(r *http.Request) (any, error) {
	id, err := s.tagOf(r)
	if err != nil {
		return nil, err
	}
	err = s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		if _, err := tx.Exec(r.Context(), "DELETE FROM station_tag_links WHERE tag_id = ?", id); err != nil {
			return err
		}
		_, err := tx.Exec(r.Context(), "DELETE FROM station_tags WHERE id = ?", id)
		return err
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "tag.delete", strconv.FormatInt(id, 10), "", httpapi.ClientAddr(r))
	return nil, nil
}
