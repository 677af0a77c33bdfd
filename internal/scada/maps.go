package scada

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// maxMapBody bounds a map upload (500 registers fit in well under this).
const maxMapBody = 256 << 10

func (s *Service) addMap(r *http.Request) (any, error) {
	var in MapInput
	if err := httpapi.DecodeLimit(r, &in, maxMapBody); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	id, version, err := SaveMap(r.Context(), s.DB, p.OrgID, p.UserID, &in)
	switch {
	case errors.Is(err, errNotFound):
		return nil, httpapi.NotFound()
	case errors.Is(err, errNameTaken):
		return nil, httpapi.Conflict("scada_name_taken", in.Name)
	case err != nil:
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "scada.map.save", in.Name, fmt.Sprintf("version %d, %d registers", version, len(in.Registers)), httpapi.ClientAddr(r))
	s.linksChanged(r.Context()) // devices read with the map take the new version at their next poll
	return GetMap(r.Context(), s.DB, p.OrgID, id, 0)
}

func (s *Service) getMap(r *http.Request) (any, error) {
	var in MapRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.ID <= 0 {
		return nil, httpapi.InvalidField("id", "required")
	}
	if in.Version < 0 {
		return nil, httpapi.InvalidField("version", "out_of_range", 0, "∞")
	}
	d, err := GetMap(r.Context(), s.DB, httpapi.Caller(r).OrgID, in.ID, in.Version)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return d, nil
}

func (s *Service) deleteMap(r *http.Request) (any, error) {
	var in MapRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.ID <= 0 {
		return nil, httpapi.InvalidField("id", "required")
	}
	p := httpapi.Caller(r)
	d, err := GetMap(r.Context(), s.DB, p.OrgID, in.ID, 0)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	} else if err != nil {
		return nil, httpapi.Internal(err)
	}
	switch err := DeleteMap(r.Context(), s.DB, p.OrgID, in.ID); {
	case errors.Is(err, errMapInUse):
		return nil, httpapi.Conflict("scada_map_in_use", d.Devices)
	case errors.Is(err, errNotFound):
		return nil, httpapi.NotFound()
	case err != nil:
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "scada.map.delete", d.Name, fmt.Sprintf("version %d", d.Version), httpapi.ClientAddr(r))
	return d.MapSummary, nil
}

func (s *Service) listMaps(r *http.Request) (any, error) {
	q := httpapi.Query[MapListQuery](r)
	name, page, size := q.Name, q.Page, q.PageSize
	list, total, err := ListMaps(r.Context(), s.DB, httpapi.Caller(r).OrgID, name, page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[MapSummary]{List: list, Total: total, Page: page, PageSize: size}, nil
}

var unsafeFile = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// export answers the current version as a file that register/config/add takes back: in
// another organisation it creates the map, in this one it adds the next version.
func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	d, err := GetMap(r.Context(), s.DB, httpapi.Caller(r).OrgID, id, 0)
	if errors.Is(err, store.ErrNotFound) {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	} else if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	b, err := json.MarshalIndent(MapInput{Name: d.Name, Model: d.Model, Registers: d.List}, "", "  ")
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	name := unsafeFile.ReplaceAllString(d.Name, "_")
	w.Header().Set("Content-Type", "application/vnd.helio.regmap+json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.v%d.regmap.json"`, name, d.Version))
	_, _ = w.Write(append(b, '\n'))
}
