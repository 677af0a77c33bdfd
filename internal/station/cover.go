package station

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/imagecheck"
)

// MaxCoverBytes is the largest cover image (SPEC.md section 5: up to 10 MB).
const MaxCoverBytes = 10 << 20

// CoverUpload is the body of POST /v2/site/upload/thumbnail.
type CoverUpload struct {
	Image string `json:"image" validate:"required" doc:"data URL: data:image/(jpeg|png|webp);base64,…"`
}

// CoverURL is where an uploaded cover is served.
type CoverURL struct {
	URL string `json:"url"`
}

var coverFileRe = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png|webp)$`)

func (s *Service) coverRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/upload/thumbnail", Tag: "site",
		Summary: "Upload a station cover (4:3, up to 10 MB); save it with the station's coverImage",
		Access:  httpapi.Signed, Body: CoverUpload{}, Resp: CoverURL{}, Handle: s.uploadCover})
	// Covers are content-addressed (their name is a hash of the image), so they are
	// served without a session: an <img> cannot send the bearer token.
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/site/cover/{file}", Tag: "site", Summary: "An uploaded cover image",
		Access: httpapi.Public, RawTypes: []string{"image/png", "image/jpeg", "image/webp"}, Raw: s.serveCover})
}

// decodeDataURL returns the bytes of a base64 data URL.
func decodeDataURL(u string) ([]byte, error) {
	head, data, ok := strings.Cut(u, ",")
	if !ok || !strings.HasPrefix(head, "data:") || !strings.HasSuffix(head, ";base64") {
		return nil, httpapi.InvalidField("image", "invalid_format")
	}
	if base64.StdEncoding.DecodedLen(len(data)) > MaxCoverBytes+3 {
		return nil, &httpapi.Error{Status: 413, Code: 413, Key: "cover_too_large", Fields: map[string]httpapi.Msg{"image": {Key: "cover_too_large"}}}
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, httpapi.InvalidField("image", "invalid_format")
	}
	return b, nil
}

func (s *Service) uploadCover(r *http.Request) (any, error) {
	var in CoverUpload
	if err := httpapi.DecodeLimit(r, &in, MaxCoverBytes*4/3+4096); err != nil {
		if e := httpapi.AsError(err); e.Status == 413 {
			return nil, &httpapi.Error{Status: 413, Code: 413, Key: "cover_too_large", Fields: map[string]httpapi.Msg{"image": {Key: "cover_too_large"}}}
		}
		return nil, err
	}
	if in.Image == "" {
		return nil, httpapi.InvalidField("image", "required")
	}
	b, err := decodeDataURL(in.Image)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxCoverBytes {
		return nil, &httpapi.Error{Status: 413, Code: 413, Key: "cover_too_large", Fields: map[string]httpapi.Msg{"image": {Key: "cover_too_large"}}}
	}
	if ext := map[string]string{"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}[http.DetectContentType(b)]; ext == "" {
		return nil, httpapi.InvalidField("image", "cover_type")
	}
	// the declared size first: nothing is decoded beyond the pixel cap
	cfg, _, err := imagecheck.Config(b)
	if errors.Is(err, imagecheck.ErrPixels) {
		return nil, httpapi.InvalidField("image", "image_too_many_pixels", cfg.Width, cfg.Height, imagecheck.MaxPixels/(1<<20))
	}
	if err != nil {
		return nil, httpapi.InvalidField("image", "cover_type")
	}
	// 4:3 within 2 %.
	if ratio := float64(cfg.Width) / float64(cfg.Height); ratio < 4.0/3*0.98 || ratio > 4.0/3*1.02 {
		return nil, httpapi.InvalidField("image", "cover_ratio", cfg.Width, cfg.Height)
	}
	// what is kept is the image re-encoded from its pixels: no metadata, no trailing data
	img, err := imagecheck.Reencode(b)
	if err != nil {
		return nil, httpapi.InvalidField("image", "cover_type")
	}
	b = img.Data
	ext := map[string]string{"png": "png", "jpeg": "jpg"}[img.Format]
	p := httpapi.Caller(r)
	// the name is the address of the organisation's image: the same image uploaded twice is
	// kept once, and another organisation's upload of it is its own
	h := sha256.New()
	fmt.Fprintf(h, "%d\n", p.OrgID)
	h.Write(b)
	id := hex.EncodeToString(h.Sum(nil)[:16])
	ctype := map[string]string{"png": "image/png", "jpg": "image/jpeg"}[ext]
	if _, _, err := s.Blobs.PutNamed(r.Context(), blob.Meta{ID: id, OrgID: p.OrgID, Kind: "cover", Name: id + "." + ext, ContentType: ctype}, b); err != nil {
		return nil, httpapi.Internal(err)
	}
	return CoverURL{URL: "/v2/site/cover/" + id + "." + ext}, nil
}

func (s *Service) serveCover(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if !coverFileRe.MatchString(name) {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	ctype := map[string]string{".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp"}[filepath.Ext(name)]
	m, b, err := s.Blobs.GetPublic(r.Context(), "cover", strings.TrimSuffix(name, filepath.Ext(name)))
	switch {
	case err == nil && m.Name == name:
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		http.ServeContent(w, r, name, m.CreatedAt, bytes.NewReader(b))
		return
	case err != nil && !errors.Is(err, blob.ErrNotFound):
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	s.serveLegacyCover(w, r, name, ctype)
}

// serveLegacyCover serves a cover uploaded before covers were kept in the database, from
// the --data directory of the replica that took it.
func (s *Service) serveLegacyCover(w http.ResponseWriter, r *http.Request, name, ctype string) {
	if s.UploadDir == "" {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	f, err := os.Open(filepath.Join(s.UploadDir, "covers", name))
	if err != nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, name, st.ModTime(), f)
}
