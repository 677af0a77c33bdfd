package station_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
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
	files, _ := filepath.Glob(filepath.Join(cfg.DataDir, "uploads", "covers", "*"))
	if len(files) != 1 {
		t.Fatalf("%d files stored, want only the re-encoded cover: %v", len(files), files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("<script>")) {
		t.Fatal("the stored cover keeps the data that followed the image")
	}
	if c, err := png.DecodeConfig(bytes.NewReader(b)); err != nil || c.Width != 400 || c.Height != 300 {
		t.Fatalf("stored cover %v %v", c, err)
	}
}
