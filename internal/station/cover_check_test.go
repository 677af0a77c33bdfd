package station_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func coverPNG(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

func dataURL(b []byte) string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b) }

// A 4:3 PNG whose header declares 100 000 × 75 000 pixels is refused from its header (it
// was stored, and inflated to 30 GB wherever it was decoded); what is stored is the image
// re-encoded, without what followed it.
func TestCoverUploadChecksPixelsAndReencodes(t *testing.T) {
	cfg := apitest.Config()
	cfg.DataDir = t.TempDir()
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	bomb := coverPNG(4, 3)
	binary.BigEndian.PutUint32(bomb[16:], 100000)
	binary.BigEndian.PutUint32(bomb[20:], 75000)
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))
	polyglot := append(coverPNG(400, 300), []byte("<html><script>alert(1)</script>")...)
	e.Run(t, []apitest.Scenario{
		{Name: "declared size beyond the cap", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator",
			Body: `{"image":"` + dataURL(bomb) + `"}`, Status: 400,
			Contains: []string{`"image":"The image is 100000×75000 pixels; at most 16 megapixels"`}},
		{Name: "translated", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator", Headers: map[string]string{"Accept-Language": "ja-JP"},
			Body: `{"image":"` + dataURL(bomb) + `"}`, Status: 400, Contains: []string{"メガピクセル"}},
		{Name: "trailing data", Method: "POST", URL: "/v2/site/upload/thumbnail", As: "operator",
			Body: `{"image":"` + dataURL(polyglot) + `"}`, Status: 200, Contains: []string{`"url":"/v2/site/cover/`}},
	})
	if n := e.Count(t, "SELECT COUNT(*) FROM blobs WHERE kind = 'cover'"); n != 1 {
		t.Fatalf("%d covers stored, want only the re-encoded one", n)
	}
	var b []byte
	if err := e.DB.QueryRow(context.Background(), "SELECT data FROM blobs WHERE kind = 'cover'").Scan(&b); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("<script>")) {
		t.Fatal("the stored cover keeps the data that followed the image")
	}
	if c, err := png.DecodeConfig(bytes.NewReader(b)); err != nil || c.Width != 400 || c.Height != 300 {
		t.Fatalf("stored cover %v %v", c, err)
	}
}

// Covers are kept in the database, so any replica serves them whatever its --data holds; the
// same image is kept once per organisation; a cover uploaded before (on disk) still serves.
func TestCoversAreServedFromTheDatabase(t *testing.T) {
	cfg := apitest.Config()
	cfg.DataDir = t.TempDir()
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	img := dataURL(coverPNG(400, 300))
	upload := func(as string) string {
		res := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/site/upload/thumbnail", As: as, Body: `{"image":"` + img + `"}`})
		if res.Status != 200 {
			t.Fatalf("upload as %s: %d %s", as, res.Status, res.Body)
		}
		var out struct {
			Data struct{ URL string } `json:"data"`
		}
		if err := json.Unmarshal([]byte(res.Body), &out); err != nil || !strings.HasPrefix(out.Data.URL, "/v2/site/cover/") {
			t.Fatalf("upload answer %s (%v)", res.Body, err)
		}
		return out.Data.URL
	}
	first, again, other := upload("operator"), upload("admin"), upload("other")
	if first != again {
		t.Errorf("the same image of one organisation has two names: %s, %s", first, again)
	}
	if other == first {
		t.Error("another organisation's upload of the same image shares its name")
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM blobs WHERE kind = 'cover'"); n != 2 {
		t.Errorf("%d covers kept, want one per organisation", n)
	}
	if err := os.RemoveAll(filepath.Join(cfg.DataDir, "uploads")); err != nil {
		t.Fatal(err)
	}
	legacy := strings.Repeat("ab", 16) + ".png"
	dir := filepath.Join(cfg.DataDir, "uploads", "covers")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, legacy), coverPNG(4, 3), 0o640); err != nil {
		t.Fatal(err)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "served without a session, from the database", Method: "GET", URL: first, Status: 200},
		{Name: "the other organisation's", Method: "GET", URL: other, Status: 200},
		{Name: "a cover uploaded before, from --data", Method: "GET", URL: "/v2/site/cover/" + legacy, Status: 200},
		{Name: "the wrong extension", Method: "GET", URL: strings.TrimSuffix(first, ".png") + ".jpg", Status: 404},
		{Name: "unknown", Method: "GET", URL: "/v2/site/cover/" + strings.Repeat("0", 32) + ".png", Status: 404},
	})
}
