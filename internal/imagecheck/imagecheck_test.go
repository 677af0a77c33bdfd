package imagecheck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

func pngOf(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.NRGBA{R: 200, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// Bomb is a small PNG whose header declares w × h pixels (its data is a 4×3 image).
func Bomb(w, h uint32) []byte {
	b := pngOf(4, 3)
	// IHDR data starts at 16: width, height; its CRC covers type and data (bytes 12–29)
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func TestDeclaredSizeRefusedBeforeDecoding(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h uint32
	}{{"100 000 × 75 000", 100000, 75000}, {"one side too long", 40000, 3}, {"just over the pixel cap", 4730, 3548}} {
		t.Run(c.name, func(t *testing.T) {
			cfg, _, err := Config(Bomb(c.w, c.h))
			if !errors.Is(err, ErrPixels) || cfg.Width != int(c.w) {
				t.Fatalf("%v %v, want ErrPixels", cfg, err)
			}
			if _, err := Reencode(Bomb(c.w, c.h)); !errors.Is(err, ErrPixels) {
				t.Fatalf("Reencode: %v", err)
			}
		})
	}
	// a header that lies the other way round (small declared, more data) decodes only
	// what it declares
	if r, err := Reencode(pngOf(400, 300)); err != nil || r.Width != 400 || r.Format != "png" {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestReencodeDropsTrailingDataAndMetadata(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	var j bytes.Buffer
	_ = jpeg.Encode(&j, img, nil)
	// an APP1 (EXIF) segment after SOI, and a script after the end
	withExif := append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x12}, []byte("Exif\x00\x00GPS 52.5N 13.4E")...)
	withExif = append(withExif, j.Bytes()[2:]...)
	withExif = append(withExif, []byte("<script>alert(1)</script>")...)
	r, err := Reencode(withExif)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(r.Data, []byte("GPS")) || bytes.Contains(r.Data, []byte("<script>")) || r.Format != "jpeg" {
		t.Fatalf("re-encoded image keeps what it carried (%s)", r.Format)
	}
	if _, _, err := image.Decode(bytes.NewReader(r.Data)); err != nil {
		t.Fatal(err)
	}
	if _, err := Reencode([]byte("GIF89a not really")); !errors.Is(err, ErrFormat) {
		t.Fatalf("not an accepted image: %v", err)
	}
}
