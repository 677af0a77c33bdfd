package analysis

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// compareDevices measures each device in its station's calendar.
func (s *Service) compareDevices(ctx context.Context, p *httpapi.Principal, c CompareConfig, per Period, res *CompareResult) error {
	for _, id := range dedupe(c.DeviceIDs) {
		d, err := device.Get(ctx, s.DB, p, id)
		if errors.Is(err, store.ErrNotFound) {
			return httpapi.InvalidField("deviceIds", "unknown_ids", joinIDs([]int64{id}))
		}
		if err != nil {
			return err
		}
		st, err := station.Get(ctx, s.DB, p, d.StationID)
		if err != nil {
			return err
		}
		kind := d.Type
		if kind == "meter" {
			kind = "meter:" + d.MeterPosition
		}
		ms, err := s.Measure.Device(ctx, d.ID, kind, st.Timezone, st.Country, per)
		if err != nil {
			return err
		}
		site := Site{CapacityKWp: d.ComponentCapacityKWp, PricePerKWh: st.PricePerKWh, SubsidyPerKWh: st.SubsidyPerKWh, Currency: st.Currency}
		res.add(d.Name, ms, site, c.Metric)
	}
	return nil
}

// CompareTemplateInput is a compare template to add or edit.
type CompareTemplateInput struct {
	// UID names the template on POST /v2/compare/template/edit (the spec's shape); the
	// path names it on …/edit/{uid}, and this field is then ignored.
	UID    int64         `json:"uid,omitempty" doc:"the template to change, on POST /v2/compare/template/edit"`
	Name   string        `json:"name" validate:"required"`
	Shared bool          `json:"shared" doc:"share with the organisation"`
	Config CompareConfig `json:"config" validate:"required"`
}

// Saved answers a template write with the template's id.
type Saved struct {
	ID int64 `json:"id"`
}

// CompareRoutes registers the /v2/compare calls.
func (s *Service) CompareRoutes(api *httpapi.API) {
	s.compares = &Templates[CompareConfig]{DB: s.DB, Table: "compare_templates"}
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/compare/list", Tag: "analysis",
		Summary: "Compare templates the caller may use: their own and those shared with the organisation",
		Access:  httpapi.Signed, Query: httpapi.Paging{}, Resp: httpapi.Page[Template[CompareConfig]]{}, Handle: s.compareList})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/compare/data/{uid}", Tag: "analysis",
		Summary: "Run a compare template: chart labels, one series per station, device or year, totals for the table",
		Access:  httpapi.Signed, Resp: CompareResult{}, Handle: s.compareData})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/compare/run", Tag: "analysis",
		Summary: "Run a comparison without saving it",
		Access:  httpapi.Signed, Body: CompareConfig{}, Resp: CompareResult{}, Handle: s.compareRun})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/compare/template/add", Tag: "analysis",
		Summary: "Save a compare template, private or shared with the organisation",
		Access:  httpapi.Signed, Body: CompareTemplateInput{}, Resp: Saved{}, Handle: s.compareAdd})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/compare/template/edit/{uid}", Tag: "analysis",
		Summary: "Change a compare template (its owner, or an administrator for a shared one)",
		Access:  httpapi.Signed, Body: CompareTemplateInput{}, Resp: Saved{}, Handle: s.compareEdit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/compare/template/edit", Tag: "analysis",
		Summary: "Change a compare template named by uid in the body (the same call as …/edit/{uid})",
		Access:  httpapi.Signed, Body: CompareTemplateInput{}, Resp: Saved{}, Handle: httpapi.IDInBody("uid", s.compareEdit)})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/compare/template/delete/{uid}", Tag: "analysis",
		Summary: "Delete a compare template (its owner, or an administrator for a shared one)",
		Access:  httpapi.Signed, Resp: Saved{}, Handle: s.compareDelete})
}

func (s *Service) compareList(r *http.Request) (any, error) {
	q := httpapi.Query[httpapi.Paging](r)
	page, size := q.Page, q.PageSize
	list, total, err := s.compares.List(r.Context(), httpapi.Caller(r), page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[*Template[CompareConfig]]{List: list, Total: total, Page: page, PageSize: size}, nil
}

// templateErr maps a template lookup failure.
// LookupErr is the answer for a record that could not be read: 404 for one not found (or
// not the caller's), the validation error as it is, else an internal error.
func LookupErr(err error) error {
	var he *httpapi.Error
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case errors.As(err, &he):
		return he
	}
	return httpapi.Internal(err)
}

// resultErr passes validation errors through and hides the rest.
func resultErr(err error) error {
	var he *httpapi.Error
	if errors.As(err, &he) {
		return he
	}
	return httpapi.Internal(err)
}

func (s *Service) compareData(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	t, err := s.compares.Get(r.Context(), httpapi.Caller(r), id)
	if err != nil {
		return nil, LookupErr(err)
	}
	res, err := s.Compare(r.Context(), httpapi.Caller(r), t.Config)
	if err != nil {
		return nil, resultErr(err)
	}
	return res, nil
}

func (s *Service) compareRun(r *http.Request) (any, error) {
	var c CompareConfig
	if err := httpapi.Decode(r, &c); err != nil {
		return nil, err
	}
	res, err := s.Compare(r.Context(), httpapi.Caller(r), c)
	if err != nil {
		return nil, resultErr(err)
	}
	return res, nil
}

// check validates a template input and its ids for the caller.
func (s *Service) checkCompare(r *http.Request, in *CompareTemplateInput) error {
	if err := httpapi.Decode(r, in); err != nil {
		return err
	}
	in.Name = strings.TrimSpace(in.Name)
	var v httpapi.Validator
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, 100)
	}
	if err := v.Err(); err != nil {
		return err
	}
	// running it proves every id is the caller's and the configuration complete
	if _, err := s.Compare(r.Context(), httpapi.Caller(r), in.Config); err != nil {
		return resultErr(err)
	}
	return nil
}

func (s *Service) compareAdd(r *http.Request) (any, error) {
	var in CompareTemplateInput
	if err := s.checkCompare(r, &in); err != nil {
		return nil, err
	}
	id, err := s.compares.Add(r.Context(), httpapi.Caller(r), in.Name, in.Shared, in.Config)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return Saved{ID: id}, nil
}

func (s *Service) compareEdit(r *http.Request) (any, error) {
	id, err := s.compares.WritableFromPath(r)
	if err != nil {
		return nil, err
	}
	var in CompareTemplateInput
	if err := s.checkCompare(r, &in); err != nil {
		return nil, err
	}
	if err := s.compares.Update(r.Context(), id, in.Name, in.Shared, in.Config); err != nil {
		return nil, httpapi.Internal(err)
	}
	return Saved{ID: id}, nil
}

func (s *Service) compareDelete(r *http.Request) (any, error) { return s.compares.DeleteFromPath(r) }
