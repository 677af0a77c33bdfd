package sys

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage: docs/architecture.md's package list names every Go
// package under internal/ once, and nothing that is not one.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	packages := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			packages[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	named := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 1 && strings.HasPrefix(fields[0], "internal/") {
			named[fields[0]]++
		}
	}
	for p := range packages {
		if named[p] == 0 {
			t.Errorf("docs/architecture.md does not name %s: add a line saying why it exists", p)
		}
	}
	for p, n := range named {
		switch {
		case !packages[p]:
			t.Errorf("docs/architecture.md names %s, which is no package", p)
		case n > 1:
			t.Errorf("docs/architecture.md names %s %d times", p, n)
		}
	}
	if len(packages) < 40 {
		t.Fatalf("found only %d packages under internal/: the walk is wrong", len(packages))
	}
}
