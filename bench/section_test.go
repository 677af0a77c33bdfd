package main

import (
	"strings"
	"testing"
)

func TestSectionReplacedInPlaceAndKept(t *testing.T) {
	page := "# Performance\n\nfigures\n"
	// the first large run appends its section
	page = placeSection(page, "large", "# Large\n\nfirst run\n")
	if !strings.HasPrefix(page, "# Performance\n\nfigures\n\n<!-- bench section large -->\n# Large\n\nfirst run\n<!-- /bench section large -->\n") {
		t.Fatalf("appended section:\n%s", page)
	}
	// a second replaces it, and leaves the rest of the page and any other section alone
	page = placeSection(page, "other", "other body")
	page = placeSection(page, "large", "# Large\n\nsecond run\n")
	if strings.Contains(page, "first run") || strings.Count(page, "second run") != 1 || !strings.Contains(page, "other body") {
		t.Fatalf("replaced section:\n%s", page)
	}
	if strings.Index(page, "second run") > strings.Index(page, "other body") {
		t.Fatalf("the large section moved behind the one appended after it:\n%s", page)
	}
	// make bench rewrites the page and carries both sections over, in order
	fresh := "# Performance\n\nnew figures\n" + keptSections(page)
	if !strings.Contains(fresh, "figures\n\n<!--") || !strings.Contains(fresh, "second run") || !strings.Contains(fresh, "other body") ||
		strings.Contains(fresh, "\nfigures\n") {
		t.Fatalf("kept sections:\n%s", fresh)
	}
	if keptSections(fresh) != keptSections(page) {
		t.Fatalf("a second rewrite changed the sections:\n%q\n%q", keptSections(fresh), keptSections(page))
	}
	// a section whose end marker names another is not taken for one
	broken := "<!-- bench section a -->\nx\n<!-- /bench section b -->\n"
	if keptSections(broken) != "" {
		t.Fatalf("a mismatched section was kept: %q", keptSections(broken))
	}
}

func TestDemoteLeavesFencedLinesAlone(t *testing.T) {
	got := demote("# T\n\n## S\n\n```\n# a shell comment\n```\ntext #1\n")
	want := "## T\n\n### S\n\n```\n# a shell comment\n```\ntext #1\n"
	if got != want {
		t.Fatalf("demote:\n%q\nwant\n%q", got, want)
	}
}
