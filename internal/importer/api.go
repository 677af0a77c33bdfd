package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves the import calls (administrators only: an import writes history).
type Service struct {
	DB       *store.DB
	Importer *Importer
}

// FileQuery names an uploaded file.
type FileQuery struct {
	Name string `query:"name" validate:"required" maxLen:"255" doc:"the file's name (.csv, .txt or .xlsx)"`
}

// Check holds the name to the file types an import reads.
func (q *FileQuery) Check(v *httpapi.Validator) {
	ext := strings.ToLower(filepath.Ext(q.Name))
	if q.Name != "" && (ext != ".csv" && ext != ".txt" && ext != ".xlsx" || strings.ContainsAny(q.Name, "/\\\x00")) {
		v.Add("name", "import_file_type")
	}
}

// FileID names a file.
type FileID struct {
	FileID int64 `json:"fileId" validate:"required"`
}

// TemplateID names a template.
type TemplateID struct {
	TemplateID int64 `json:"templateId" validate:"required"`
}

// JobID names a job.
type JobID struct {
	JobID int64 `json:"jobId" validate:"required"`
}

// TemplateSave adds (templateId 0) or replaces a template.
type TemplateSave struct {
	TemplateID int64   `json:"templateId"`
	Name       string  `json:"name" validate:"required"`
	Vendor     string  `json:"vendor"`
	Mapping    Mapping `json:"mapping" validate:"required"`
}

// JobFile is a file of an import, with its device when the mapping has no device column.
type JobFile struct {
	FileID int64  `json:"fileId" validate:"required"`
	Device string `json:"device" doc:"the file's device (serial number or name, as mapping.match says)"`
}

// JobRequest is a dry run or an import.
type JobRequest struct {
	Files   []JobFile `json:"files" validate:"required"`
	Mapping Mapping   `json:"mapping" validate:"required"`
}

// Preview is what the first rows of a file tell.
type Preview struct {
	File      File     `json:"file"`
	Detection          // columns, time format, rows, suggested mapping
	Templates []string `json:"templates" doc:"the names of the templates that fit the file's header"`
	// Applied names the shipped template whose mapping is suggested: a vendor's layout is
	// known exactly, so it wins over what the columns' names suggest.
	Applied    string `json:"applied" doc:"the shipped template the suggested mapping comes from, or empty"`
	AppliedKey string `json:"appliedKey" doc:"that template's key (Template.key), or empty"`
}

// Routes registers the import calls.
func (s *Service) Routes(api *httpapi.API) {
	add := func(method, path, summary string, body, resp any, h func(*http.Request) (any, error)) {
		api.Add(httpapi.Route{Method: method, Path: path, Tag: "import", Summary: summary, Access: httpapi.Admin, Body: body, Resp: resp, Handle: h})
	}
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/import/file/upload", Tag: "import",
		Summary: "Upload an export (CSV or XLSX) as the request body, streamed; the organisation's import files hold at most 1 GiB",
		Access:  httpapi.Admin, Query: FileQuery{}, Resp: File{}, RawBody: slices.Sorted(maps.Keys(uploadTypes)), Raw: s.upload})
	add("GET", "/v2/import/file/list", "The organisation's uploaded import files", nil, []File{}, s.listFiles)
	add("POST", "/v2/import/file/delete", "Delete an uploaded import file", FileID{}, nil, s.deleteFile)
	add("POST", "/v2/import/preview", "The first rows of a file with the detected columns, time format and units and a suggested mapping", FileID{}, Preview{}, s.preview)
	add("GET", "/v2/import/template/list", "The shipped vendor templates and the organisation's", nil, []Template{}, s.listTemplates)
	add("POST", "/v2/import/template/save", "Save a mapping as a template (templateId 0 adds one)", TemplateSave{}, Template{}, s.saveTemplate)
	add("POST", "/v2/import/template/delete", "Delete one of the organisation's templates", TemplateID{}, nil, s.deleteTemplate)
	add("POST", "/v2/import/dryrun", "Start a dry run: what the import would store, reject (row and reason) or find present; follow it as a job", JobRequest{}, Job{}, s.start(true))
	add("POST", "/v2/import/job/start", "Start an import job", JobRequest{}, Job{}, s.start(false))
	add("GET", "/v2/import/job/list", "The organisation's latest import jobs and dry runs", nil, []Job{}, s.listJobs)
	add("GET", "/v2/import/job/{id}", "An import job: state, progress and report", nil, Job{}, s.job)
	for _, a := range []string{"pause", "resume", "cancel"} {
		add("POST", "/v2/import/job/"+a, strings.ToUpper(a[:1])+a[1:]+" an import job", JobID{}, Job{}, s.act(a))
	}
}

var uploadTypes = map[string]bool{"text/csv": true, "text/plain": true, "application/octet-stream": true,
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": true, "application/vnd.ms-excel": true}

func (s *Service) upload(w http.ResponseWriter, r *http.Request) {
	p := httpapi.Caller(r)
	name := httpapi.Query[FileQuery](r).Name
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || !uploadTypes[mt] {
		httpapi.Fail(w, r, httpapi.UnsupportedMediaType("text/csv"))
		return
	}
	body := http.MaxBytesReader(w, r.Body, MaxImportBytes+1)
	f, err := SaveFile(r.Context(), s.DB, p.OrgID, p.UserID, name, body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, ErrEmpty):
		httpapi.Fail(w, r, httpapi.BadRequest("empty_body"))
	case errors.Is(err, ErrQuota), errors.As(err, &tooBig):
		e := httpapi.TooLarge(MaxImportBytes)
		e.Key = "import_quota"
		httpapi.Fail(w, r, e)
	case err != nil:
		httpapi.Fail(w, r, httpapi.Internal(err))
	default:
		org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "import.upload", name, fmt.Sprintf("%d bytes", f.Size), httpapi.ClientAddr(r))
		httpapi.OK(w, r, f)
	}
}

func (s *Service) listFiles(r *http.Request) (any, error) {
	out, err := ListFiles(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) deleteFile(r *http.Request) (any, error) {
	var in FileID
	if err := decodeID(r, &in, &in.FileID, "fileId"); err != nil {
		return nil, err
	}
	err := DeleteFile(r.Context(), s.DB, httpapi.Caller(r).OrgID, in.FileID)
	if errors.Is(err, ErrInUse) {
		return nil, httpapi.Conflict("import_file_in_use")
	}
	return nil, fail(err, "")
}

func (s *Service) preview(r *http.Request) (any, error) {
	var in FileID
	if err := decodeID(r, &in, &in.FileID, "fileId"); err != nil {
		return nil, err
	}
	ctx := r.Context()
	orgID := httpapi.Caller(r).OrgID
	f, err := GetFile(ctx, s.DB, orgID, in.FileID)
	if err != nil {
		return nil, fail(err, "")
	}
	rr, err := OpenFile(ctx, s.DB, f)
	if err != nil {
		return nil, httpapi.BadRequest("import_unreadable")
	}
	defer rr.Close()
	d, err := Detect(rr)
	if err != nil {
		return nil, httpapi.BadRequest("import_unreadable")
	}
	out := Preview{File: f, Detection: d, Templates: []string{}}
	tpls, err := ListTemplates(ctx, s.DB, orgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for _, t := range tpls {
		if t.Mapping.HeaderRow == d.HeaderRow && t.Mapping.Fits(d.Header) {
			out.Templates = append(out.Templates, t.Name)
			if t.BuiltIn && out.Applied == "" {
				out.Applied, out.AppliedKey, out.Mapping = t.Name, t.Key, t.Mapping
			}
		}
	}
	return out, nil
}

func (s *Service) listTemplates(r *http.Request) (any, error) {
	out, err := ListTemplates(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) saveTemplate(r *http.Request) (any, error) {
	var in TemplateSave
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	switch n := len(strings.TrimSpace(in.Name)); {
	case n == 0:
		return nil, httpapi.InvalidField("name", "required")
	case n > 100:
		return nil, httpapi.InvalidField("name", "too_long", 100)
	case len(in.Vendor) > 100:
		return nil, httpapi.InvalidField("vendor", "too_long", 100)
	}
	if err := in.Mapping.Check(); err != nil {
		return nil, fail(err, "mapping.")
	}
	p := httpapi.Caller(r)
	t := Template{ID: in.TemplateID, Name: in.Name, Vendor: in.Vendor, Mapping: in.Mapping}
	if err := SaveTemplate(r.Context(), s.DB, p.OrgID, &t); err != nil {
		if errors.Is(err, ErrDuplicate) {
			return nil, httpapi.InvalidField("name", "duplicate")
		}
		return nil, fail(err, "")
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "import.template", t.Name, "", httpapi.ClientAddr(r))
	return t, nil
}

func (s *Service) deleteTemplate(r *http.Request) (any, error) {
	var in TemplateID
	if err := decodeID(r, &in, &in.TemplateID, "templateId"); err != nil {
		return nil, err
	}
	return nil, fail(DeleteTemplate(r.Context(), s.DB, httpapi.Caller(r).OrgID, in.TemplateID), "")
}

// start checks a request against the files (they exist, the mapping fits the first
// file's header, the devices named exist) and queues the job.
func (s *Service) start(dry bool) func(*http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		var in JobRequest
		if err := httpapi.Decode(r, &in); err != nil {
			return nil, err
		}
		switch {
		case len(in.Files) == 0:
			return nil, httpapi.InvalidField("files", "required")
		case len(in.Files) > 50:
			return nil, httpapi.InvalidField("files", "too_many", 50)
		}
		if err := in.Mapping.Check(); err != nil {
			return nil, fail(err, "mapping.")
		}
		ctx := r.Context()
		p := httpapi.Caller(r)
		plan := Plan{OrgID: p.OrgID, Mapping: in.Mapping, Dry: dry}
		devs, err := loadDevices(ctx, s.DB, p.OrgID, in.Mapping.Match)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		for i, jf := range in.Files {
			f, err := GetFile(ctx, s.DB, p.OrgID, jf.FileID)
			if err != nil {
				return nil, fail(err, "")
			}
			var dev int64
			if jf.Device != "" {
				id, ok := devs.find(jf.Device)
				if !ok {
					return nil, httpapi.InvalidField(fmt.Sprintf("files[%d].device", i), "import_unknown_device")
				}
				dev = id
			}
			if err := s.fits(ctx, f, in.Mapping, dev, devs); err != nil {
				var fe *FieldError
				if errors.As(err, &fe) && strings.HasPrefix(fe.Field, "columns[") && strings.HasSuffix(fe.Field, ".device") && fe.Reason == ReasonNoDevice {
					return nil, httpapi.InvalidField(fmt.Sprintf("files[%d].device", i), "import_missing_device")
				}
				return nil, fail(err, "mapping.")
			}
			plan.Files = append(plan.Files, FileRef{ID: f.ID, Name: f.Name, Device: jf.Device})
		}
		j, err := CreateJob(ctx, s.DB, p.UserID, plan)
		if err != nil {
			return nil, fail(err, "")
		}
		what := "import.start"
		if dry {
			what = "import.dryrun"
		}
		org.Audit(ctx, s.DB, p.OrgID, p.UserID, what, strconv.FormatInt(j.ID, 10), fmt.Sprintf("%d files", len(plan.Files)), httpapi.ClientAddr(r))
		return j, nil
	}
}

// fits reads a file up to its header and plans the mapping against it.
func (s *Service) fits(ctx context.Context, f File, m Mapping, dev int64, devs *devices) error {
	rr, err := OpenFile(ctx, s.DB, f)
	if err != nil {
		return httpapi.BadRequest("import_unreadable")
	}
	defer rr.Close()
	var header []string
	for i := 0; i <= m.HeaderRow; i++ {
		row, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return &FieldError{"headerRow", "beyond_file"}
		}
		if err != nil {
			return httpapi.BadRequest("import_unreadable")
		}
		header = row
	}
	_, err = NewConverter(m, header, devs.zone(dev), dev, devs.find)
	return err
}

func (s *Service) listJobs(r *http.Request) (any, error) {
	out, err := ListJobs(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) job(r *http.Request) (any, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, httpapi.NotFound()
	}
	j, err := GetJob(r.Context(), s.DB, httpapi.Caller(r).OrgID, id)
	return j, fail(err, "")
}

func (s *Service) act(action string) func(*http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		var in JobID
		if err := decodeID(r, &in, &in.JobID, "jobId"); err != nil {
			return nil, err
		}
		p := httpapi.Caller(r)
		j, err := Act(r.Context(), s.DB, p.OrgID, in.JobID, action)
		if errors.Is(err, ErrState) {
			cur, _ := GetJob(r.Context(), s.DB, p.OrgID, in.JobID)
			return nil, httpapi.Conflict("import_job_state", cur.State)
		}
		if err != nil {
			return nil, fail(err, "")
		}
		org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "import."+action, strconv.FormatInt(j.ID, 10), "", httpapi.ClientAddr(r))
		return j, nil
	}
}

// decodeID decodes a body naming one thing by a positive id.
func decodeID(r *http.Request, dst any, id *int64, field string) error {
	if err := httpapi.Decode(r, dst); err != nil {
		return err
	}
	if *id <= 0 {
		return httpapi.InvalidField(field, "required")
	}
	return nil
}

// reasonKeys are the message keys of the mapping faults.
var reasonKeys = map[string]string{"required": "required", "out_of_range": "out_of_range", "too_long": "too_long",
	"count": "too_many", "unknown": "import_unknown", "not_energy": "import_not_energy", "not_in_file": "import_not_in_file",
	ReasonUnknownDevice: "import_unknown_device", ReasonNoDevice: "import_missing_device", "beyond_file": "import_beyond_file"}

// fail turns the package's errors into API errors (a mapping fault names its field under
// prefix).
func fail(err error, prefix string) error {
	var fe *FieldError
	var he *httpapi.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &he):
		return he
	case errors.Is(err, ErrNotFound):
		return httpapi.NotFound()
	case errors.As(err, &fe):
		key := reasonKeys[fe.Reason]
		if key == "" {
			key = "invalid_format"
		}
		if key == "too_many" {
			return httpapi.InvalidField(prefix+fe.Field, key, 200)
		}
		return httpapi.InvalidField(prefix+fe.Field, key)
	}
	return httpapi.Internal(err)
}
