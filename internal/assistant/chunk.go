package assistant

import (
	"strings"
	"unicode/utf8"
)

// Passage is one searchable piece of a document: a few paragraphs under their heading.
type Passage struct {
	Heading string
	Body    string
}

// chunkTarget and chunkMax bound a passage's length in characters: long enough to hold a
// procedure, short enough that a retrieved passage is about one thing.
const (
	chunkTarget = 700
	chunkMax    = 1200
)

// chunk cuts text into passages. Paragraphs (blank-line separated) are kept whole where they
// fit; a heading line ("# …", or a short line followed by an underline) starts a new passage
// and names the passages under it; an over-long paragraph is cut at sentence ends.
func chunk(text string) []Passage {
	var out []Passage
	heading := ""
	var cur []string
	size := 0
	flush := func() {
		body := strings.TrimSpace(strings.Join(cur, "\n\n"))
		if body != "" {
			out = append(out, Passage{Heading: heading, Body: body})
		}
		cur, size = nil, 0
	}
	for _, para := range paragraphs(text) {
		if h, ok := headingOf(para); ok {
			flush()
			heading = h
			continue
		}
		for _, piece := range splitLong(para) {
			n := utf8.RuneCountInString(piece)
			if size > 0 && size+n > chunkTarget {
				flush()
			}
			cur = append(cur, piece)
			size += n
		}
	}
	flush()
	return out
}

func paragraphs(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	for _, block := range strings.Split(text, "\n\n") {
		lines := strings.Split(block, "\n")
		var kept []string
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			// a heading line inside a block still starts its own paragraph
			if strings.HasPrefix(l, "#") && len(kept) > 0 {
				out = append(out, strings.Join(kept, " "))
				kept = nil
			}
			kept = append(kept, l)
			if strings.HasPrefix(l, "#") {
				out = append(out, strings.Join(kept, " "))
				kept = nil
			}
		}
		if len(kept) > 0 {
			out = append(out, strings.Join(kept, " "))
		}
	}
	return out
}

func headingOf(para string) (string, bool) {
	if !strings.HasPrefix(para, "#") {
		return "", false
	}
	h := strings.TrimSpace(strings.TrimLeft(para, "#"))
	return h, h != ""
}

// splitLong cuts a paragraph longer than chunkMax at sentence ends (or, failing those, at
// spaces, or hard at chunkMax characters).
func splitLong(para string) []string {
	if utf8.RuneCountInString(para) <= chunkMax {
		return []string{para}
	}
	var out []string
	rest := []rune(para)
	for len(rest) > chunkMax {
		cut := -1
		for i := chunkTarget; i >= chunkTarget/3; i-- {
			if r := rest[i]; r == '.' || r == '。' || r == '!' || r == '?' || r == '；' || r == ';' {
				cut = i + 1
				break
			}
		}
		if cut < 0 {
			for i := chunkTarget; i >= chunkTarget/3; i-- {
				if rest[i] == ' ' {
					cut = i + 1
					break
				}
			}
		}
		if cut < 0 {
			cut = chunkMax
		}
		out = append(out, strings.TrimSpace(string(rest[:cut])))
		rest = rest[cut:]
	}
	if s := strings.TrimSpace(string(rest)); s != "" {
		out = append(out, s)
	}
	return out
}
