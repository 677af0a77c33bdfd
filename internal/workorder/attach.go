package workorder

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/store"
)

// Attachment limits.
const (
	MaxAttachmentBytes = 5 << 20
	MaxAttachments     = 20
	maxNameLen         = 120
)

// AttachmentTypes are the accepted file types, judged from the content.
var AttachmentTypes = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "application/pdf": ".pdf"}

// AttachmentInput attaches a file.
type AttachmentInput struct {
	Name string `json:"name" validate:"required" doc:"the file name (at most 120 characters)"`
	Data string `json:"data" validate:"required" doc:"data URL: data:<type>;base64,…; JPEG, PNG, WebP or PDF, at most 5 MB"`
}

func tooLarge() error {
	return &httpapi.Error{Status: 413, Code: 413, Key: "wo_file_too_large",
		Fields: map[string]httpapi.Msg{"data": {Key: "wo_file_too_large"}}}
}

// decodeFile checks an attachment and returns its bytes and type.
func decodeFile(in *AttachmentInput) ([]byte, string, error) {
	var v httpapi.Validator
	in.Name = cleanText(&v, "name", path.Base(strings.ReplaceAll(in.Name, "\\", "/")), maxNameLen, true)
	if in.Name == "." || in.Name == "/" {
		v.Add("name", "invalid_format")
	}
	head, data, ok := strings.Cut(in.Data, ",")
	if !ok || !strings.HasPrefix(head, "data:") || !strings.HasSuffix(head, ";base64") {
		v.Add("data", "invalid_format")
	}
	if err := v.Err(); err != nil {
		return nil, "", err
	}
	if base64.StdEncoding.DecodedLen(len(data)) > MaxAttachmentBytes+3 {
		return nil, "", tooLarge()
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(b) == 0 {
		return nil, "", httpapi.InvalidField("data", "invalid_format")
	}
	if len(b) > MaxAttachmentBytes {
		return nil, "", tooLarge()
	}
	ctype := http.DetectContentType(b)
	if _, ok := AttachmentTypes[ctype]; !ok {
		return nil, "", httpapi.InvalidField("data", "wo_file_type")
	}
	return b, ctype, nil
}

func (s *Service) attach(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in AttachmentInput
	if err := httpapi.DecodeLimit(r, &in, MaxAttachmentBytes*4/3+8192); err != nil {
		if httpapi.AsError(err).Status == 413 {
			return nil, tooLarge()
		}
		return nil, err
	}
	b, ctype, err := decodeFile(&in)
	if err != nil {
		return nil, err
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM work_order_attachments WHERE order_id = ?", o.ID).Scan(&n); err != nil {
		return nil, httpapi.Internal(err)
	}
	if n >= MaxAttachments {
		return nil, httpapi.Conflict("wo_too_many_files", MaxAttachments)
	}
	m, err := s.Blobs.Put(ctx, blob.Meta{OrgID: p.OrgID, Kind: "attachment", Name: in.Name, ContentType: ctype}, b)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO work_order_attachments (order_id, blob_id, name, content_type, size, user_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, m.ID, in.Name, ctype, m.Size, p.UserID, s.now().UnixMilli()); err != nil {
			return err
		}
		return idempotent.Applied(ctx, tx, o.ID)
	}); err != nil {
		_ = s.Blobs.Delete(ctx, p.OrgID, m.ID)
		return nil, httpapi.Internal(err)
	}
	return s.detailOf(r, o.ID)
}

func (s *Service) download(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	fileID, err := httpapi.PathID(r, "fileId")
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	var blobID string
	if err := s.DB.QueryRow(r.Context(), "SELECT blob_id FROM work_order_attachments WHERE id = ? AND order_id = ?", fileID, o.ID).Scan(&blobID); err != nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	m, data, err := s.Blobs.Get(r.Context(), httpapi.Caller(r).OrgID, blobID)
	if errors.Is(err, blob.ErrNotFound) {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	w.Header().Set("Content-Type", m.ContentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="attachment%s"; filename*=UTF-8''%s`,
		AttachmentTypes[m.ContentType], url.PathEscape(m.Name)))
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(data)
}
