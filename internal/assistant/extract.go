package assistant

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/net/html"
)

// Kinds of document the store accepts, by file extension, with the media type kept for each.
var kinds = map[string]string{
	".pdf":      "application/pdf",
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".txt":      "text/plain",
	".html":     "text/html",
	".htm":      "text/html",
}

// errUnreadable is a document whose text cannot be taken out (a scanned PDF, a damaged file).
var errUnreadable = errors.New("no readable text")

// kindOf returns the media type for a file name, or "" for a kind the store does not take.
func kindOf(name string) string { return kinds[strings.ToLower(path.Ext(name))] }

// sniffOK checks that the bytes are what the name says: a PDF starts with %PDF-, and the
// text kinds are valid UTF-8 without NUL bytes.
func sniffOK(contentType string, data []byte) bool {
	if contentType == "application/pdf" {
		return bytes.HasPrefix(data, []byte("%PDF-"))
	}
	return utf8.Valid(data) && !bytes.ContainsRune(data, 0)
}

// extract returns the plain text of a document, keeping paragraph breaks (blank lines) and
// Markdown headings ("# …") so that passages can carry their section title.
func extract(contentType string, data []byte) (string, error) {
	switch contentType {
	case "application/pdf":
		return extractPDF(data)
	case "text/html":
		return extractHTML(data), nil
	default:
		return strings.ReplaceAll(string(data), "\r\n", "\n"), nil
	}
}

func extractPDF(data []byte) (text string, err error) {
	// The PDF reader panics on some malformed files; a bad upload must fail, not crash.
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("%w: damaged PDF", errUnreadable)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("%w: %v", errUnreadable, err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		if err != nil {
			return "", fmt.Errorf("%w: page %d: %v", errUnreadable, i, err)
		}
		for _, row := range rows {
			for j, w := range row.Content {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(w.S)
			}
			b.WriteByte('\n')
		}
		b.WriteString("\n")
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", errUnreadable
	}
	return b.String(), nil
}

// extractHTML keeps the text of an HTML page: headings become "# " lines, block elements
// end paragraphs, scripts and styles are dropped.
func extractHTML(data []byte) string {
	z := html.NewTokenizer(bytes.NewReader(data))
	var b strings.Builder
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return b.String()
			}
			return b.String()
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch tag {
			case "script", "style", "noscript":
				if tt == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			case "h1", "h2", "h3", "h4", "h5", "h6":
				if tt == html.StartTagToken {
					b.WriteString("\n\n# ")
				} else {
					b.WriteString("\n\n")
				}
			case "p", "div", "li", "tr", "br", "section", "article", "table", "ul", "ol", "pre":
				b.WriteString("\n\n")
			}
		case html.TextToken:
			if skip == 0 {
				b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
				b.WriteByte(' ')
			}
		}
	}
}
