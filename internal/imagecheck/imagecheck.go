// Package imagecheck makes uploaded images safe to keep: the declared size is read from
// the header and refused beyond a pixel cap before anything is decoded (a small PNG can
// declare 100 000 × 75 000 pixels and inflate to gigabytes), decoding runs a few at a time,
// and what is stored is the image re-encoded from its pixels — no metadata (EXIF location),
// no trailing data, nothing but an image.
package imagecheck

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"image/png"

	_ "golang.org/x/image/webp" // decoder
)

// Limits of an accepted image.
const (
	// MaxPixels caps width × height (16 MP: 4608 × 3456); a decoded image takes 4 bytes
	// per pixel, 64 MiB at the cap.
	MaxPixels = 16 << 20
	// MaxSide caps each side.
	MaxSide = 16384
)

// Problems, each a message key.
var (
	ErrFormat = errors.New("cover_type")            // not a JPEG, PNG or WebP image, or corrupt
	ErrPixels = errors.New("image_too_many_pixels") // beyond MaxPixels or MaxSide
)

// decoding bounds how many images are decoded at once (memory: 2 × 64 MiB at most).
var decoding = make(chan struct{}, 2)

// Result is a checked image.
type Result struct {
	Width, Height int
	// Data is the re-encoded image and Format its kind: "png" for PNG (lossless),
	// "jpeg" for JPEG and WebP.
	Data   []byte
	Format string
}

// Config reads an image's declared size and format without decoding it, refusing one
// beyond the caps.
func Config(b []byte) (image.Config, string, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 {
		return cfg, "", ErrFormat
	}
	switch format {
	case "jpeg", "png", "webp":
	default:
		return cfg, "", ErrFormat
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return cfg, format, ErrPixels
	}
	return cfg, format, nil
}

// Reencode checks b (Config) and returns the image decoded and encoded afresh.
func Reencode(b []byte) (*Result, error) {
	cfg, format, err := Config(b)
	if err != nil {
		return nil, err
	}
	decoding <- struct{}{}
	img, _, err := image.Decode(bytes.NewReader(b))
	<-decoding
	if err != nil {
		return nil, ErrFormat
	}
	if bd := img.Bounds(); bd.Dx() != cfg.Width || bd.Dy() != cfg.Height {
		return nil, ErrFormat
	}
	var out bytes.Buffer
	res := &Result{Width: cfg.Width, Height: cfg.Height}
	if format == "png" {
		res.Format = "png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img)
	} else {
		res.Format = "jpeg"
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: 88})
	}
	if err != nil {
		return nil, err
	}
	res.Data = out.Bytes()
	return res, nil
}
