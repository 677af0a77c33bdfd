package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A run at a size that takes an hour to build (make bench-large: 10,000 stations on
// PostgreSQL) is written as a named section of docs/performance.md, between two markers,
// so its figures stand on the same page as make bench's without make bench having to
// build that fleet. make bench rewrites the page and carries every such section over as
// it was; a run with -section NAME replaces only its own section, or appends it.

var sectionRE = regexp.MustCompile(`(?s)<!-- bench section ([a-z0-9-]+) -->\n.*?<!-- /bench section ([a-z0-9-]+) -->\n?`)

var sectionName = regexp.MustCompile(`^[a-z0-9-]+$`)

func sectionBegin(name string) string { return fmt.Sprintf("<!-- bench section %s -->\n", name) }
func sectionEnd(name string) string   { return fmt.Sprintf("<!-- /bench section %s -->\n", name) }

// keptSections is every well-formed section of an earlier page, in its order.
func keptSections(old string) string {
	var b strings.Builder
	for _, m := range sectionRE.FindAllStringSubmatch(old, -1) {
		if m[1] != m[2] {
			continue
		}
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(m[0], "\n") + "\n")
	}
	return b.String()
}

// placeSection puts body into page as the section name: in place of the section of that
// name when the page has one, otherwise at the end.
func placeSection(page, name, body string) string {
	block := sectionBegin(name) + strings.TrimRight(body, "\n") + "\n" + sectionEnd(name)
	for _, loc := range sectionRE.FindAllStringSubmatchIndex(page, -1) {
		if page[loc[2]:loc[3]] == name && page[loc[4]:loc[5]] == name {
			return page[:loc[0]] + block + page[loc[1]:]
		}
	}
	if page != "" {
		page = strings.TrimRight(page, "\n") + "\n\n"
	}
	return page + block
}

// demote moves every Markdown heading of doc one level down, outside fenced blocks, so
// a page becomes a section of another.
func demote(doc string) string {
	lines := strings.Split(doc, "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if !fenced && strings.HasPrefix(l, "#") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}
