// Package assistant answers operators' questions about their fleet and their documents: a
// document store with a full-text index (BM25, with dense embeddings ranked alongside when an
// embeddings endpoint is configured), live fleet facts read within the asker's station
// authority, and streamed answers from an OpenAI-compatible chat endpoint or, without one,
// from the built-in answerer.
package assistant

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Limits of the document store.
const (
	MaxDocBytes     = 10 << 20 // one file
	MaxDocsPerOrg   = 1000
	maxNameLen      = 200
	maxQuestionLen  = 2000
	maxHistoryTurns = 10
	topPassages     = 4
)

// Service serves the /api/vectorstore and /api/query calls.
type Service struct {
	DB      *store.DB
	Blobs   blob.Store
	Library *Library
	Fleet   Fleet
	Chat    *Endpoint // nil: the built-in answerer
	// answering bounds the answers computed at once; a question beyond it gets 429.
	answering chan struct{}
}

// UploadBody is a document upload: the file name and its bytes in base64.
type UploadBody struct {
	Name    string `json:"name" doc:"file name; its extension gives the kind: .pdf, .md, .txt, .html"`
	Content string `json:"content" doc:"the file, base64; at most 10 MB decoded"`
}

// UploadForm is the same upload as multipart/form-data (what a browser form or
// `curl -F file=@manual.pdf` sends).
type UploadForm struct {
	File []byte `form:"file" validate:"required" doc:"the file, at most 10 MB; its file name is the document's name"`
	Name string `form:"name" doc:"the document's name, when not the file's name"`
}

// ListQuery filters the document list.
type ListQuery struct {
	Name string `query:"name" maxLen:"200" doc:"part of the file name"`
	httpapi.Paging
}

// DeleteQuery names the document to delete.
type DeleteQuery struct {
	ID int64 `query:"id" validate:"required,id" doc:"the document id"`
}

// DocList is a page of documents.
type DocList struct {
	List     []*Document `json:"list"`
	Total    int64       `json:"total"`
	Page     int         `json:"page"`
	PageSize int         `json:"pageSize"`
}

// PassageOut is a passage of a document, for the console's document view.
type PassageOut struct {
	Seq     int    `json:"seq"`
	Heading string `json:"heading"`
	Body    string `json:"body"`
}

// DocDetail is a document with its passages.
type DocDetail struct {
	Document *Document    `json:"document"`
	Passages []PassageOut `json:"passages"`
}

// Routes registers the assistant's calls.
func (s *Service) Routes(api *httpapi.API) {
	s.answering = make(chan struct{}, 8)
	api.Add(httpapi.Route{Method: "GET", Path: "/api/vectorstore/documents", Tag: "assistant", Summary: "The organisation's documents, newest first",
		Access: httpapi.Signed, Query: ListQuery{}, Resp: DocList{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "POST", Path: "/api/vectorstore/documents", Tag: "assistant",
		Summary: "Upload a document (PDF, Markdown, text, HTML; ≤ 10 MB); it is indexed in the background",
		Access:  httpapi.Signed, Body: UploadBody{}, Form: UploadForm{}, Resp: Document{}, Handle: s.upload})
	api.Add(httpapi.Route{Method: "DELETE", Path: "/api/vectorstore/documents", Tag: "assistant", Summary: "Delete a document (administrators)",
		Access: httpapi.Admin, Query: DeleteQuery{}, Resp: Document{}, Handle: s.delete})
	api.Add(httpapi.Route{Method: "GET", Path: "/api/vectorstore/documents/stats", Tag: "assistant", Summary: "Documents, passages, bytes, index size, last indexed",
		Access: httpapi.Signed, Resp: Stats{}, Handle: s.stats})
	api.Add(httpapi.Route{Method: "GET", Path: "/api/vectorstore/documents/{id}", Tag: "assistant", Summary: "A document and its passages",
		Access: httpapi.Signed, Resp: DocDetail{}, Handle: s.detail})
	api.Add(httpapi.Route{Method: "GET", Path: "/api/vectorstore/documents/{id}/file", Tag: "assistant", Summary: "Download the uploaded file",
		Access: httpapi.Signed, RawTypes: []string{"application/pdf", "text/markdown", "text/plain", "text/html"}, Raw: s.file})
	s.queryRoute(api)
}

func (s *Service) list(r *http.Request) (any, error) {
	q := httpapi.Query[ListQuery](r)
	name, page, size := q.Name, q.Page, q.PageSize
	docs, total, err := listDocs(r.Context(), s.DB, httpapi.Caller(r).OrgID, name, page, size)
	if err != nil {
		return nil, err
	}
	return DocList{List: docs, Total: total, Page: page, PageSize: size}, nil
}

func (s *Service) upload(r *http.Request) (any, error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		name, data, err := readUploadForm(r)
		if err != nil {
			return nil, err
		}
		return s.store(r, name, "file", data, nil)
	}
	var body UploadBody
	// base64 is 4/3 of the file, plus the JSON around it
	if err := httpapi.DecodeLimit(r, &body, MaxDocBytes*4/3+4096); err != nil {
		return nil, err
	}
	data, err := base64.StdEncoding.DecodeString(body.Content)
	return s.store(r, body.Name, "content", data, err)
}

// readUploadForm reads the parts "file" (its file name the default name) and "name";
// others are skipped. The body is bounded: a file past MaxDocBytes is a 400 on "file".
func readUploadForm(r *http.Request) (string, []byte, error) {
	body := http.MaxBytesReader(nil, r.Body, MaxDocBytes+1<<16)
	r.Body = body
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, httpapi.InvalidField("file", "required")
	}
	var name, fileName string
	var data []byte
	seen := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return "", nil, httpapi.InvalidField("file", "doc_too_large", MaxDocBytes>>20)
		}
		if err != nil {
			return "", nil, httpapi.BadRequest("malformed_multipart")
		}
		switch part.FormName() {
		case "file":
			seen, fileName = true, part.FileName()
			data, err = io.ReadAll(io.LimitReader(part, MaxDocBytes+1))
		case "name":
			var b []byte
			b, err = io.ReadAll(io.LimitReader(part, 4*maxNameLen+1))
			name = string(b)
		}
		part.Close()
		if errors.As(err, &tooBig) || len(data) > MaxDocBytes {
			return "", nil, httpapi.InvalidField("file", "doc_too_large", MaxDocBytes>>20)
		}
		if err != nil {
			return "", nil, httpapi.BadRequest("malformed_multipart")
		}
	}
	if !seen {
		return "", nil, httpapi.InvalidField("file", "required")
	}
	if strings.TrimSpace(name) == "" {
		name = fileName
	}
	return name, data, nil
}

// store checks and stores an upload, from either body: field names the file's part
// ("content" in JSON, "file" in a form) and decodeErr is the JSON body's base64 fault.
func (s *Service) store(r *http.Request, name, field string, data []byte, decodeErr error) (any, error) {
	var v httpapi.Validator
	name = strings.TrimSpace(name)
	if v.Required("name", name) {
		v.MaxLen("name", name, maxNameLen)
		if strings.ContainsAny(name, "/\\\x00") {
			v.Add("name", "invalid")
		} else if kindOf(name) == "" {
			v.Add("name", "doc_type")
		}
	}
	switch {
	case decodeErr != nil:
		v.Add(field, "doc_base64")
	case len(data) == 0:
		v.Add(field, "doc_empty")
	case len(data) > MaxDocBytes:
		v.Add(field, "doc_too_large", MaxDocBytes>>20)
	case kindOf(name) != "" && !sniffOK(kindOf(name), data):
		v.Add(field, "doc_content")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	d, err := AddDocument(r.Context(), s.DB, s.Blobs, p.OrgID, p.UserID, name, data)
	var dup *DuplicateError
	switch {
	case errors.As(err, &dup):
		return nil, httpapi.Conflict("doc_duplicate", dup.Name)
	case errors.Is(err, errQuota):
		return nil, httpapi.Conflict("doc_quota", MaxDocsPerOrg)
	case err != nil:
		return nil, err
	}
	s.Library.Wake()
	return d, nil
}

// DuplicateError is an upload whose bytes the organisation already holds, under Name.
type DuplicateError struct{ Name string }

func (e *DuplicateError) Error() string { return "assistant: duplicate of " + e.Name }

var errQuota = errors.New("assistant: document store full")

// AddDocument stores a file for the organisation and queues it for indexing. The name's
// extension gives its kind; the caller has checked kind, size and content.
func AddDocument(ctx context.Context, db *store.DB, blobs blob.Store, orgID, userID int64, name string, data []byte) (*Document, error) {
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if d, err := docBySHA(ctx, db, orgID, sha); err == nil {
		return nil, &DuplicateError{Name: d.Name}
	}
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM documents WHERE org_id = ?", orgID).Scan(&n); err != nil {
		return nil, err
	}
	if n >= MaxDocsPerOrg {
		return nil, errQuota
	}
	ctype := kindOf(name)
	meta, err := blobs.Put(ctx, blob.Meta{OrgID: orgID, Kind: "document", Name: name, ContentType: ctype}, data)
	if err != nil {
		return nil, err
	}
	d := &Document{Name: name, ContentType: ctype, Size: int64(len(data)), SHA256: sha, Status: "queued",
		CreatedAt: time.Now().UTC().Truncate(time.Millisecond), orgID: orgID, blobID: meta.ID}
	id, err := insertDoc(ctx, db, d, userID)
	if err != nil {
		_ = blobs.Delete(ctx, orgID, meta.ID)
		if errors.Is(err, errDuplicate) {
			return nil, &DuplicateError{Name: name}
		}
		return nil, err
	}
	d.ID = id
	return d, nil
}

func (s *Service) delete(r *http.Request) (any, error) {
	id := httpapi.Query[DeleteQuery](r).ID
	p := httpapi.Caller(r)
	ctx := r.Context()
	d, err := getDoc(ctx, s.DB, p.OrgID, id)
	if err != nil {
		return nil, httpapi.NotFound()
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM document_chunks WHERE doc_id = ?", id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM documents WHERE id = ? AND org_id = ?", id, p.OrgID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := s.Blobs.Delete(ctx, p.OrgID, d.blobID); err != nil && !errors.Is(err, blob.ErrNotFound) {
		return nil, err
	}
	s.Library.forget(id)
	return d, nil
}

func (s *Service) stats(r *http.Request) (any, error) {
	st, err := stats(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	st.Embeddings = s.Library.Embed != nil
	return st, err
}

func (s *Service) detail(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	d, err := getDoc(r.Context(), s.DB, p.OrgID, id)
	if err != nil {
		return nil, httpapi.NotFound()
	}
	rows, err := s.DB.Query(r.Context(), "SELECT seq, heading, body FROM document_chunks WHERE doc_id = ? AND org_id = ? ORDER BY seq", id, p.OrgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := DocDetail{Document: d, Passages: []PassageOut{}}
	for rows.Next() {
		var ps PassageOut
		if err := rows.Scan(&ps.Seq, &ps.Heading, &ps.Body); err != nil {
			return nil, err
		}
		out.Passages = append(out.Passages, ps)
	}
	return out, rows.Err()
}

func (s *Service) file(w http.ResponseWriter, r *http.Request) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	p := httpapi.Caller(r)
	d, err := getDoc(r.Context(), s.DB, p.OrgID, id)
	if err != nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	_, data, err := s.Blobs.Get(r.Context(), p.OrgID, d.blobID)
	if err != nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	h := w.Header()
	h.Set("Content-Type", d.ContentType)
	h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+strings.ReplaceAll(url.QueryEscape(d.Name), "+", "%20"))
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}
