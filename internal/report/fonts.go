package report

import (
	"errors"
	"fmt"
	"os"
)

// PDF reports embed three TrueType fonts (only the glyphs used): Latin letters and digits,
// Hangul, and the CJK ideographs and kana. No single Debian TrueType file has all three
// (Noto CJK ships as .ttc collections, which the PDF writer cannot embed). `make fonts`
// installs fonts-dejavu-core, fonts-nanum and fonts-droid-fallback; the HELIO_REPORT_FONT_*
// variables name other files.
var (
	fontFamilies   = [3]string{"latin", "hangul", "cjk"}
	fontEnv        = [3]string{"HELIO_REPORT_FONT_LATIN", "HELIO_REPORT_FONT_HANGUL", "HELIO_REPORT_FONT_CJK"}
	fontCandidates = [3][]string{
		{"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"},
		{"/usr/share/fonts/truetype/nanum/NanumGothic.ttf", "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf"},
		{"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"},
	}
)

// ErrNoFont says the fonts PDF reports embed are not installed.
var ErrNoFont = errors.New("PDF reports need TrueType fonts for Latin, Hangul and CJK text: " +
	"install Debian's fonts-dejavu-core, fonts-nanum and fonts-droid-fallback (make fonts), " +
	"or set HELIO_REPORT_FONT_LATIN, HELIO_REPORT_FONT_HANGUL and HELIO_REPORT_FONT_CJK to .ttf files")

// FontPaths finds the Latin, Hangul and CJK fonts.
func FontPaths() ([3]string, error) {
	var out [3]string
	for i := range out {
		if p := os.Getenv(fontEnv[i]); p != "" {
			if _, err := os.Stat(p); err != nil {
				return out, fmt.Errorf("%s: %w", fontEnv[i], err)
			}
			out[i] = p
			continue
		}
		for _, p := range fontCandidates[i] {
			if _, err := os.Stat(p); err == nil {
				out[i] = p
				break
			}
		}
		if out[i] == "" {
			return out, fmt.Errorf("%w (missing: %s)", ErrNoFont, fontCandidates[i][0])
		}
	}
	return out, nil
}

// fontOf is the family index a rune is drawn with.
func fontOf(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F, r >= 0xAC00 && r <= 0xD7AF:
		return 1
	case r < 0x2E80:
		return 0
	}
	return 2
}

type run struct {
	text string
	font int
}

// runs splits s into pieces of one font each.
func runs(s string) []run {
	var out []run
	for _, r := range s {
		f := fontOf(r)
		if n := len(out); n > 0 && out[n-1].font == f {
			out[n-1].text += string(r)
			continue
		}
		out = append(out, run{string(r), f})
	}
	return out
}
