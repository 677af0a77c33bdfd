package demo

import (
	"context"
	"embed"
	"errors"
	"io/fs"

	"github.com/helio-energy/helio/internal/assistant"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/store"
)

// The demo's own manual set: fault codes of the simulated inverters, clearing procedures,
// battery and logger guides and maintenance intervals, so the assistant has something to find.
//
//go:embed manuals/*.md
var manualFS embed.FS

// Manuals returns the demo manuals by file name.
func Manuals() (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(manualFS, "manuals", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := manualFS.ReadFile(path)
		out[d.Name()] = b
		return err
	})
	return out, err
}

// SeedManuals adds the demo manuals to the demo organisation's document store (queued for
// indexing); manuals already there are left alone.
func SeedManuals(ctx context.Context, db *store.DB, blobs blob.Store, acc *Accounts) (int, error) {
	manuals, err := Manuals()
	if err != nil {
		return 0, err
	}
	added := 0
	for name, data := range manuals {
		_, err := assistant.AddDocument(ctx, db, blobs, acc.OrgID, acc.AdminID, name, data)
		var dup *assistant.DuplicateError
		switch {
		case errors.As(err, &dup):
		case err != nil:
			return added, err
		default:
			added++
		}
	}
	return added, nil
}
