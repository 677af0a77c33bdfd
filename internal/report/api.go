package report

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves the /v2/report calls.
type Service struct {
	DB      *store.DB
	Records *Records
	Blobs   blob.Store
	// Worker is woken when a record is queued (nil: it polls).
	Worker *Worker
	Now    func() time.Time

	templates *analysis.Templates[TemplateConfig]
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) kick() {
	if s.Worker != nil {
		s.Worker.Kick()
	}
}

// TemplateInput is a report template to add or edit.
type TemplateInput struct {
	// UID names the template on POST /v2/report/template/edit (the spec's shape); the path
	// names it on …/edit/{uid}, and this field is then ignored.
	UID    int64          `json:"uid,omitempty" doc:"the template to change, on POST /v2/report/template/edit"`
	Name   string         `json:"name" validate:"required"`
	Shared bool           `json:"shared" doc:"share with the organisation"`
	Config TemplateConfig `json:"config" validate:"required"`
}

// RecordInput asks for a report now.
type RecordInput struct {
	TemplateID int64  `json:"templateId" doc:"the template it comes from (0: none)"`
	Params     Params `json:"params"`
}

// Choice is an id and a name.
type Choice struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Parameters are the choices of the report form.
type Parameters struct {
	SelectionModes []string `json:"selectionModes"`
	Templates      []string `json:"templates"`
	Periods        []string `json:"periods"`
	Languages      []string `json:"languages"`
	Formats        []string `json:"formats"`
	Frequencies    []string `json:"frequencies"`
	Metrics        []struct {
		Key  string `json:"key"`
		Unit string `json:"unit"`
	} `json:"metrics"`
	Stations []Choice `json:"stations"`
	Tags     []Choice `json:"tags"`
}

// Routes registers the /v2/report calls.
func (s *Service) Routes(api *httpapi.API) {
	s.templates = &analysis.Templates[TemplateConfig]{DB: s.DB, Table: "report_templates", Now: s.Now}
	add := func(method, path, summary string, access httpapi.Access, body, resp any, h func(*http.Request) (any, error)) {
		api.Add(httpapi.Route{Method: method, Path: path, Tag: "report", Summary: summary, Access: access, Body: body, Resp: resp, Handle: h})
	}
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/report/template/list", Tag: "report", Access: httpapi.Signed,
		Summary: "Report templates the caller may use: their own and those shared with the organisation",
		Query:   httpapi.Paging{}, Resp: httpapi.Page[analysis.Template[TemplateConfig]]{}, Handle: s.templateList})
	add("GET", "/v2/report/template/parameter/list", "The report form's choices, the caller's stations and tags", httpapi.Signed, nil, Parameters{}, s.parameters)
	add("POST", "/v2/report/template/add", "Save a report template (with an optional daily, weekly or monthly schedule)", httpapi.Signed, TemplateInput{}, analysis.Saved{}, s.templateAdd)
	add("POST", "/v2/report/template/edit/{uid}", "Change a report template (its owner, or an administrator for a shared one)", httpapi.Signed, TemplateInput{}, analysis.Saved{}, s.templateEdit)
	add("POST", "/v2/report/template/edit", "Change a report template named by uid in the body (the same call as …/edit/{uid})", httpapi.Signed, TemplateInput{}, analysis.Saved{}, httpapi.IDInBody("uid", s.templateEdit))
	add("POST", "/v2/report/template/delete/{uid}", "Delete a report template (its owner, or an administrator for a shared one)", httpapi.Signed, nil, analysis.Saved{}, s.templateDelete)
	add("POST", "/v2/report/template/run/{uid}", "Run a template's schedule now: the report arrives in the caller's message centre", httpapi.Signed, nil, analysis.Saved{}, s.templateRun)
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/report/record/list", Tag: "report", Access: httpapi.Signed,
		Summary: "The caller's reports, newest first, with their rendering progress",
		Query:   httpapi.Paging{}, Resp: httpapi.Page[Record]{}, Handle: s.recordList})
	add("GET", "/v2/report/record/detail/get/{uid}", "One of the caller's reports", httpapi.Signed, nil, Record{}, s.recordDetail)
	add("POST", "/v2/report/record/add", "Ask for a report: it is rendered in the background (see its progress in the record list)", httpapi.Signed, RecordInput{}, analysis.Saved{}, s.recordAdd)
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/report/record/download/{uid}", Tag: "report", Access: httpapi.Signed,
		Summary: "Download one of the caller's rendered reports", RawTypes: ReportTypes, Raw: s.download})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/report/file/{token}", Tag: "report", Access: httpapi.Public,
		Summary: "Download a scheduled report through the link of its message, until the link expires", RawTypes: ReportTypes, Raw: s.fileByLink})
}

func (s *Service) templateList(r *http.Request) (any, error) {
	q := httpapi.Query[httpapi.Paging](r)
	page, size := q.Page, q.PageSize
	list, total, err := s.templates.List(r.Context(), httpapi.Caller(r), page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[*analysis.Template[TemplateConfig]]{List: list, Total: total, Page: page, PageSize: size}, nil
}

func (s *Service) parameters(r *http.Request) (any, error) {
	ctx, p := r.Context(), httpapi.Caller(r)
	out := Parameters{SelectionModes: SelectionModes, Templates: Layouts, Periods: analysis.PeriodKinds, Languages: Languages,
		Formats: Formats, Frequencies: Frequencies, Stations: []Choice{}, Tags: []Choice{}}
	for _, m := range analysis.Metrics {
		out.Metrics = append(out.Metrics, struct {
			Key  string `json:"key"`
			Unit string `json:"unit"`
		}{m.Key, m.Unit})
	}
	sts, err := analysis.Stations(ctx, s.DB, p, nil)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for _, st := range sts {
		out.Stations = append(out.Stations, Choice{ID: st.ID, Name: st.Name})
	}
	rows, err := s.DB.Query(ctx, "SELECT id, name FROM station_tags WHERE org_id = ? ORDER BY name", p.OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c Choice
		if err := rows.Scan(&c.ID, &c.Name); err != nil {
			return nil, httpapi.Internal(err)
		}
		out.Tags = append(out.Tags, c)
	}
	return out, rows.Err()
}

// checkIDs proves the stations and tag of p are the caller's (a 400 naming the field).
func (s *Service) checkIDs(ctx context.Context, pr *httpapi.Principal, p *Params) error {
	switch p.SelectionMode {
	case "stations":
		if _, err := analysis.Stations(ctx, s.DB, pr, p.StationIDs); errors.Is(err, store.ErrNotFound) {
			return httpapi.InvalidField("stationIds", "unknown_ids", idList(p.StationIDs))
		} else if err != nil {
			return httpapi.Internal(err)
		}
	case "tag":
		var n int
		if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM station_tags WHERE id = ? AND org_id = ?", p.TagID, pr.OrgID).Scan(&n); err != nil {
			return httpapi.Internal(err)
		}
		if n == 0 {
			return httpapi.InvalidField("tagId", "unknown_ids", fmt.Sprint(p.TagID))
		}
	}
	return nil
}

func idList(ids []int64) string {
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		parts = append(parts, fmt.Sprint(id))
	}
	return strings.Join(parts, ", ")
}

func (s *Service) checkTemplate(r *http.Request, in *TemplateInput) error {
	if err := httpapi.Decode(r, in); err != nil {
		return err
	}
	in.Name = strings.TrimSpace(in.Name)
	var v httpapi.Validator
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, 100)
	}
	if in.Config.Schedule.Frequency != "" && in.Config.Schedule.Frequency != "none" && in.Config.Schedule.Timezone == "" {
		// a schedule that names no zone keeps the organisation's
		zone, err := org.Timezone(r.Context(), s.DB, httpapi.Caller(r).OrgID)
		if err != nil {
			return httpapi.Internal(err)
		}
		in.Config.Schedule.Timezone = zone
	}
	in.Config.Schedule.validate(&v)
	in.Config.Params.validate(&v, in.Config.Schedule.Frequency != "none")
	if err := v.Err(); err != nil {
		return err
	}
	return s.checkIDs(r.Context(), httpapi.Caller(r), &in.Config.Params)
}

// setNextRun stores when the template's schedule next runs.
func (s *Service) setNextRun(ctx context.Context, id int64, sch Schedule) error {
	var next any
	if t := NextRun(sch, s.now()); !t.IsZero() {
		next = t.UnixMilli()
	}
	_, err := s.DB.Exec(ctx, "UPDATE report_templates SET next_run_at = ? WHERE id = ?", next, id)
	return err
}

func (s *Service) templateAdd(r *http.Request) (any, error) {
	var in TemplateInput
	if err := s.checkTemplate(r, &in); err != nil {
		return nil, err
	}
	id, err := s.templates.Add(r.Context(), httpapi.Caller(r), in.Name, in.Shared, in.Config)
	if err == nil {
		err = s.setNextRun(r.Context(), id, in.Config.Schedule)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return analysis.Saved{ID: id}, nil
}

func (s *Service) templateEdit(r *http.Request) (any, error) {
	id, err := s.templates.WritableFromPath(r)
	if err != nil {
		return nil, err
	}
	var in TemplateInput
	if err := s.checkTemplate(r, &in); err != nil {
		return nil, err
	}
	err = s.templates.Update(r.Context(), id, in.Name, in.Shared, in.Config)
	if err == nil {
		err = s.setNextRun(r.Context(), id, in.Config.Schedule)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return analysis.Saved{ID: id}, nil
}

func (s *Service) templateDelete(r *http.Request) (any, error) { return s.templates.DeleteFromPath(r) }

// templateRun makes the template's next scheduled report now, for the caller: with a
// schedule it reports on the schedule's previous period, without one on the saved period.
func (s *Service) templateRun(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	t, err := s.templates.Get(r.Context(), p, id)
	if err != nil {
		return nil, analysis.LookupErr(err)
	}
	cfg := t.Config
	if cfg.Schedule.Frequency == "none" || cfg.Schedule.Frequency == "" {
		if _, err := analysis.ParsePeriod(cfg.Params.Period, cfg.Params.Date, cfg.Params.From, cfg.Params.To); err != nil {
			return nil, err
		}
		rid, err := s.Records.Queue(r.Context(), p.OrgID, p.UserID, t.ID, t.Name, cfg.Params, true)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		s.kick()
		return analysis.Saved{ID: rid}, nil
	}
	rid, err := s.queueRun(r.Context(), p.OrgID, p.UserID, t.ID, t.Name, cfg, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return analysis.Saved{ID: rid}, nil
}

func (s *Service) recordList(r *http.Request) (any, error) {
	q := httpapi.Query[httpapi.Paging](r)
	page, size := q.Page, q.PageSize
	p := httpapi.Caller(r)
	list, total, err := s.Records.List(r.Context(), p.OrgID, p.UserID, page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[*Record]{List: list, Total: total, Page: page, PageSize: size}, nil
}

func (s *Service) recordDetail(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	rec, err := s.Records.Get(r.Context(), p.OrgID, p.UserID, id)
	if err != nil {
		return nil, analysis.LookupErr(err)
	}
	return rec, nil
}

func (s *Service) recordAdd(r *http.Request) (any, error) {
	var in RecordInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Params.validate(&v, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := s.checkIDs(r.Context(), p, &in.Params); err != nil {
		return nil, err
	}
	name := in.Params.FileName
	if in.TemplateID != 0 {
		t, err := s.templates.Get(r.Context(), p, in.TemplateID)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) || in.TemplateID < 0 {
				return nil, httpapi.InvalidField("templateId", "unknown_ids", fmt.Sprint(in.TemplateID))
			}
			return nil, httpapi.Internal(err)
		}
		if name == "" {
			name = t.Name
		}
	}
	if name == "" {
		per, _ := analysis.ParsePeriod(in.Params.Period, in.Params.Date, in.Params.From, in.Params.To)
		name = strings.TrimSuffix(FileName(in.Params, per), "."+in.Params.Format)
	}
	id, err := s.Records.Queue(r.Context(), p.OrgID, p.UserID, in.TemplateID, name, in.Params, false)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.kick()
	return analysis.Saved{ID: id}, nil
}

func (s *Service) download(w http.ResponseWriter, r *http.Request) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	p := httpapi.Caller(r)
	rec, err := s.Records.Get(r.Context(), p.OrgID, p.UserID, id)
	if err != nil {
		httpapi.Fail(w, r, analysis.LookupErr(err))
		return
	}
	s.send(w, r, rec)
}

func (s *Service) fileByLink(w http.ResponseWriter, r *http.Request) {
	rec, err := s.Records.ByLink(r.Context(), r.PathValue("token"))
	if err != nil {
		if errors.Is(err, errNoLink) || errors.Is(err, store.ErrNotFound) {
			httpapi.Fail(w, r, httpapi.NotFound())
			return
		}
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	s.send(w, r, rec)
}

func (s *Service) send(w http.ResponseWriter, r *http.Request, rec *Record) {
	if rec.Status != StatusDone || rec.BlobID == "" {
		httpapi.Fail(w, r, httpapi.Conflict("report_not_ready"))
		return
	}
	meta, data, err := s.Blobs.Get(r.Context(), rec.OrgID, rec.BlobID)
	if err != nil {
		httpapi.Fail(w, r, analysis.LookupErr(err))
		return
	}
	w.Header().Set("Content-Type", meta.ContentType)
	w.Header().Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(meta.Name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data)
}

// ReportTypes are the media types a rendered report is served as (CSV, XLSX or PDF).
var ReportTypes = []string{httpapi.MediaCSV, httpapi.MediaXLSX, httpapi.MediaPDF}
