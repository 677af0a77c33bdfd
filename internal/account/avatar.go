package account

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/image/draw"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
)

// Avatar limits (SPEC.md section 5: PNG up to 2 MB). The stored avatar is a square PNG of
// at most AvatarSide pixels, re-encoded by the server.
const (
	MaxAvatarBytes = 2 << 20
	MinAvatarSide  = 16
	MaxAvatarSide  = 4096
	AvatarSide     = 256
)

// AvatarUpload is the body of POST /v2/user/avatar.
type AvatarUpload struct {
	Image string `json:"image" validate:"required" doc:"data URL: data:image/png;base64,… (up to 2 MB)"`
}

// AvatarURL is where the avatar is served.
type AvatarURL struct {
	URL string `json:"url"`
}

var avatarFileRe = regexp.MustCompile(`^([1-9][0-9]{0,17})-([0-9a-f]{32})\.png$`)

func (s *Service) avatarRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/avatar", Tag: "user", Summary: "Upload your avatar (PNG up to 2 MB; stored square, at most 256 px)",
		Access: httpapi.Signed, Body: AvatarUpload{}, Resp: AvatarURL{}, Handle: s.uploadAvatar})
	// An <img> cannot send the bearer token: avatars are served by their unguessable id.
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/avatar/{file}", Tag: "user", Summary: "An avatar image",
		Access: httpapi.Public, RawTypes: []string{"image/png"}, Raw: s.serveAvatar})
}

func tooLarge() error {
	return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: http.StatusRequestEntityTooLarge, Key: "avatar_too_large",
		Fields: map[string]httpapi.Msg{"image": {Key: "avatar_too_large"}}}
}

// readAvatar checks an uploaded PNG — type, size, and its dimensions before it is
// decoded, so a small file that declares a huge image is never inflated — and returns it
// centre-cropped to a square of at most AvatarSide pixels, re-encoded.
func readAvatar(dataURL string) ([]byte, error) {
	head, data, ok := strings.Cut(dataURL, ",")
	if !ok || !strings.HasPrefix(head, "data:") || !strings.HasSuffix(head, ";base64") {
		return nil, httpapi.InvalidField("image", "invalid_format")
	}
	if head != "data:image/png;base64" {
		return nil, httpapi.InvalidField("image", "avatar_type")
	}
	if base64.StdEncoding.DecodedLen(len(data)) > MaxAvatarBytes+3 {
		return nil, tooLarge()
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, httpapi.InvalidField("image", "invalid_format")
	}
	if len(raw) > MaxAvatarBytes {
		return nil, tooLarge()
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || format != "png" {
		return nil, httpapi.InvalidField("image", "avatar_type")
	}
	if cfg.Width < MinAvatarSide || cfg.Height < MinAvatarSide || cfg.Width > MaxAvatarSide || cfg.Height > MaxAvatarSide {
		return nil, httpapi.InvalidField("image", "avatar_dimensions", cfg.Width, cfg.Height)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, httpapi.InvalidField("image", "avatar_type")
	}
	b := img.Bounds()
	side := min(b.Dx(), b.Dy())
	crop := image.Rect(0, 0, side, side).Add(image.Pt(b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2))
	out := min(side, AvatarSide)
	dst := image.NewNRGBA(image.Rect(0, 0, out, out))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, crop, draw.Src, nil)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, dst); err != nil {
		return nil, httpapi.Internal(err)
	}
	return buf.Bytes(), nil
}

func (s *Service) uploadAvatar(r *http.Request) (any, error) {
	var in AvatarUpload
	if err := httpapi.DecodeLimit(r, &in, MaxAvatarBytes*4/3+4096); err != nil {
		if httpapi.AsError(err).Status == http.StatusRequestEntityTooLarge {
			return nil, tooLarge()
		}
		return nil, err
	}
	if in.Image == "" {
		return nil, httpapi.InvalidField("image", "required")
	}
	pngBytes, err := readAvatar(in.Image)
	if err != nil {
		return nil, err
	}
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	m, err := s.Blobs.Put(ctx, blob.Meta{OrgID: u.OrgID, Kind: "avatar", Name: u.Username + ".png", ContentType: "image/png"}, pngBytes)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	url := "/v2/user/avatar/" + strconv.FormatInt(u.OrgID, 10) + "-" + m.ID + ".png"
	if err := org.SetAvatar(ctx, s.DB, u.ID, url); err != nil {
		return nil, httpapi.Internal(err)
	}
	if old := avatarFileRe.FindStringSubmatch(strings.TrimPrefix(u.Avatar, "/v2/user/avatar/")); old != nil {
		_ = s.Blobs.Delete(ctx, u.OrgID, old[2])
	}
	httpapi.LogChange(ctx, map[string]string{"avatar": u.Avatar}, map[string]string{"avatar": url})
	org.Audit(ctx, s.DB, u.OrgID, u.ID, "user.avatar", u.Username, "", httpapi.ClientAddr(r))
	return AvatarURL{URL: url}, nil
}

func (s *Service) serveAvatar(w http.ResponseWriter, r *http.Request) {
	m := avatarFileRe.FindStringSubmatch(r.PathValue("file"))
	if m == nil {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	orgID, _ := strconv.ParseInt(m[1], 10, 64)
	meta, data, err := s.Blobs.Get(r.Context(), orgID, m[2])
	if errors.Is(err, blob.ErrNotFound) || (err == nil && meta.Kind != "avatar") {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}
