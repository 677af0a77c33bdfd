package importer

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestFileReadBackWholeOrError: a stored file reads back as uploaded, across parts; with a
// part gone it fails instead of ending short.
func TestFileReadBackWholeOrError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) { testFileReadBack(t, db) })
}

func testFileReadBack(t *testing.T, db *store.DB) {
	f := newFleet(t, db)
	ctx := context.Background()
	text := "t,sn,p\n" + strings.Repeat("2026-03-19 10:00,INV-1,1.5\n", (2*partSize)/27+10)
	file, err := SaveFile(ctx, db, f.org, 1, "big.csv", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	read := func() (string, error) {
		b, err := io.ReadAll(&partsReader{ctx: ctx, db: db, id: file.ID, size: file.Size})
		return string(b), err
	}
	if got, err := read(); err != nil || got != text {
		t.Fatalf("read back %d bytes of %d: %v", len(got), len(text), err)
	}
	if _, err := db.Exec(ctx, "DELETE FROM import_file_parts WHERE file_id = ? AND seq = 2", file.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := read(); err == nil {
		t.Error("a file without its last part read without an error")
	}
}
